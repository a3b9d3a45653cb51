import type { IncomingMessage, ServerResponse } from "node:http";
import { listenLoopback, sendJson } from "./loopback-server.ts";
import { pollUntil } from "./wait.ts";
import { botMethods } from "./telegram/bot-methods.ts";
import { ChatRightsState, type ChatRights } from "./telegram/chat-rights.ts";
import { ChatStore } from "./telegram/chat-store.ts";
import type { BotState, MethodHandler } from "./telegram/context.ts";
import { FaultInjector } from "./telegram/faults.ts";
import { downloadable, fileMessageUpdate, getFileMethod, newFileStore, type HumanFile } from "./telegram/files.ts";
import { FloodLimiter, floodChatOf, type FloodLimitsOption, type FloodStats } from "./telegram/flood.ts";
import { callbackQueryUpdate, messageUpdate, newCallbackQueryId } from "./telegram/human.ts";
import { LongPoll, type ConflictMode } from "./telegram/long-poll.ts";
import { messageMethods, NOT_MODIFIED } from "./telegram/message-methods.ts";
import { richMethods, type RichMode } from "./telegram/rich-methods.ts";
import { readApiRequest } from "./telegram/request-body.ts";
import { claimViolations, reportViolation } from "./telegram/strict-checks.ts";
import { TelegramApiError, type ApiCall, type Fault, type SentMessage, type TgUser } from "./telegram/types.ts";
import { UpdateQueue } from "./telegram/update-queue.ts";
import type { ButtonStyleMode } from "./telegram/validate.ts";

/**
 * A fake Telegram Bot API on 127.0.0.1 (random port): `POST|GET /bot<token>/<method>`,
 * answering in the real `{ok, result}` / `{ok:false, error_code, description}` shape.
 * The test plays the human with sendText / tapButton and inspects what the bot sent.
 */
export type { ApiCall, Fault, SentMessage, TgUser } from "./telegram/types.ts";
export type { ChatRights } from "./telegram/chat-rights.ts";
export { parseTelegramHtml, escapeHtml } from "./telegram/html.ts";
export {
  TELEGRAM_FLOOD_LIMITS,
  FLOOD_COUNTED_METHODS,
  type FloodLimits,
  type FloodLimitsOption,
  type FloodStats,
  type RetryAfterViolation,
} from "./telegram/flood.ts";

export interface FakeTelegram {
  apiRoot: string;
  token: string;
  calls: ApiCall[];
  callbackAnswers: Array<{ callbackQueryId: string; text?: string; showAlert?: boolean }>;
  maxConcurrentGetUpdates: number;
  messages(chatId?: number): SentMessage[];
  /** What the human sent (texts and commands), in order. */
  humanMessages(chatId?: number): Array<{ chatId: number; messageId: number; text: string; deleted: boolean; replyTo?: number }>;
  waitFor<T>(check: () => T | undefined | false, opts?: { timeoutMs?: number; what?: string }): Promise<T>;
  waitForMessage(pred: (m: SentMessage) => boolean, opts?: { timeoutMs?: number; what?: string }): Promise<SentMessage>;
  buttons(m: SentMessage): Array<{ text: string; callback_data?: string; style?: string }>;
  tapButton(m: SentMessage, buttonText: string, from?: TgUser): Promise<string>;
  waitForCallbackAnswer(callbackQueryId: string, opts?: { timeoutMs?: number }): Promise<{ text?: string; showAlert?: boolean }>;
  sendText(
    chatId: number,
    text: string,
    opts?: { replyTo?: number; from?: TgUser; chatType?: "private" | "group" | "supergroup"; threadId?: number },
  ): { messageId: number };
  /** Whether the server has rich messages from now on ('refused': like a Bot API server older than 10.1). */
  setRichMessages(mode: RichMode): void;
  /** Whether buttons may carry `style` from now on ('refused': like a Bot API server older than 9.4). */
  setButtonStyles(mode: ButtonStyleMode): void;
  /** What the bot may do in a chat from now on (its membership, the group's permissions, topics, a block). */
  setChatRights(chatId: number, rights: ChatRights): void;
  /** Privacy mode (on by default, as for a new bot): getMe's can_read_all_group_messages is its opposite. */
  setPrivacyMode(on: boolean): void;
  /**
   * The human sends a photo, a document, a voice note or an audio file (with a caption, as a reply, in a topic). `fileId` is
   * what getFile must be asked for; `reportedSize` fakes a huge file without its bytes.
   */
  sendFile(
    chatId: number,
    file: Omit<HumanFile, "from" | "chatType"> & { from?: TgUser; chatType?: "private" | "group" | "supergroup" },
  ): { messageId: number; fileId: string };
  /** Every file path downloaded through `GET /file/bot<token>/<path>`. */
  readonly downloads: readonly string[];
  /** Forum topics the bot created (createForumTopic), with their current names. */
  topics(): Array<{ chatId: number; threadId: number; name: string }>;
  pushUpdate(update: any): void;
  /**
   * Arms a fault (replacing the previous one; null clears). Resolves once it is in effect: for
   * 'down' when the socket is closed, for clearing 'down' when the fake listens again.
   * `forMs` clears it by itself after that long.
   */
  setFault(fault: null | Fault): Promise<void>;
  /** The armed fault, if any. */
  readonly fault: Fault | null;
  /** Whether the fake is refusing connections (a 'down' fault). */
  readonly down: boolean;
  /** Resolves when the fake is not down (now, or when the 'down' fault is cleared). */
  whenUp(): Promise<void>;
  /** Turns Telegram's flood limits on (true, or overrides) or off (false/null); resets the limiter, not the counters. */
  setFloodLimits(limits: FloodLimitsOption | null): void;
  /** Flood-limit counters (a snapshot). */
  readonly flood: FloodStats;
  /** Requests that came before the retry_after they were given had elapsed (same chat). */
  readonly retryAfterViolations: number;
  /** Called for every Bot API request once its payload is read (before faults and limits apply). */
  onCall(listener: (call: ApiCall) => void): () => void;
  /**
   * The edits refused as "message is not modified" since the last call, claimed: the ones nobody
   * claims fail the test (tests/support/strict-telegram.setup.ts), so only a test that makes one
   * on purpose takes them.
   */
  takeRefusedEdits(): ApiCall[];
  /** Every request whose body came compressed (a Content-Encoding other than identity). */
  readonly compressedCalls: ApiCall[];
  /** A button tap as an update object (its callback id is valid for answerCallbackQuery), not queued: hand it to the bot directly. */
  tapUpdate(m: SentMessage, buttonText: string, from?: TgUser): any;
  close(): Promise<void>;
}

export const DEFAULT_USER: TgUser = { id: 1001, is_bot: false, first_name: "Owner", username: "owner" };
export const DEFAULT_CHAT_ID = 1001;
export const DEFAULT_TOKEN = "123456:TEST-token-abcdefghijklmnopqrstuv";

export interface FakeTelegramOptions {
  token?: string;
  /** Who loses when two getUpdates overlap: 'reject-new' (default) or 'terminate-old' (api.telegram.org). */
  conflict?: ConflictMode;
  /** Enforce Telegram's flood limits (429 with retry_after): true for the real limits, or overrides. Off by default. */
  floodLimits?: FloodLimitsOption;
  /** The bot's @username (getMe, and "/cmd@username" in groups). Default 'hermes_test_bot'. */
  botUsername?: string;
  /** 'refused': a 400 for any button with `style`, like a Bot API server older than 9.4. Default 'supported' (validated). */
  buttonStyles?: ButtonStyleMode;
  /**
   * 'supported': rich messages (Bot API 10.1+), validated (telegram/rich.ts). Default 'refused', like
   * a Bot API server older than 10.1: the suites written before rich messages see today's HTML
   * messages, and the fallback to them runs in every one of them; a suite about rich messages asks for them.
   */
  richMessages?: RichMode;
}

export async function startFakeTelegram(opts: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const token = opts.token ?? DEFAULT_TOKEN;
  const bot: TgUser = {
    id: Number(token.split(":")[0]) || 123456,
    is_bot: true,
    first_name: "Hermes Test Bot",
    username: opts.botUsername ?? "hermes_test_bot",
  };
  const queue = new UpdateQueue();
  const state: BotState = {
    store: new ChatStore(bot),
    poll: new LongPoll(queue, opts.conflict ?? "reject-new"),
    callbackAnswers: [],
    issuedCallbackIds: new Set(),
    answeredCallbackIds: new Set(),
    commands: [],
    topics: [],
    buttonStyles: opts.buttonStyles ?? "supported",
    rights: new ChatRightsState(),
    richMessages: opts.richMessages ?? "refused",
  };
  const files = newFileStore();
  const handlers = new Map<string, MethodHandler>(
    Object.entries({ ...botMethods, ...messageMethods, ...richMethods, getFile: getFileMethod(files) }).map(([name, h]) => [name.toLowerCase(), h]),
  );
  const calls: ApiCall[] = [];
  /** Edits refused as not modified that no test took yet. */
  const refusedEdits: ApiCall[] = [];
  const faults = new FaultInjector();
  const flood = new FloodLimiter();
  flood.configure(opts.floodLimits ?? null);
  const listeners = new Set<(call: ApiCall) => void>();
  let faultTimer: ReturnType<typeof setTimeout> | undefined;
  /** A 'down' fault in effect: the listener is closing/closed until `up` resolves. */
  let outage: { listenerClosed: Promise<void>; up: Promise<void>; markUp: () => void; relisten?: Promise<void> } | null = null;
  let closed = false;
  let directUpdateId = 900_000_001;

  const recentCalls = () =>
    `last Bot API calls: ${
      calls
        .slice(-8)
        .map((c) => `${c.method}→${c.status || "pending"}`)
        .join(", ") || "(none)"
    }`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const fileRoute = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (fileRoute && req.method === "GET") return serveFile(res, decodeURIComponent(fileRoute[1]!), fileRoute[2]!);
    const route = /^\/bot([^/]+)\/([A-Za-z0-9_]+)\/?$/.exec(url.pathname);
    if (!route) return sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    const call: ApiCall = { method: route[2]!, payload: {}, at: Date.now(), status: 0, hrAt: performance.now() };
    const encoding = req.headers["content-encoding"]?.trim().toLowerCase();
    if (encoding !== undefined && encoding !== "") call.contentEncoding = encoding;
    calls.push(call);
    const answer = (status: number, body: unknown) => {
      call.status = status;
      sendJson(res, status, body);
    };
    const fail = (err: TelegramApiError) => {
      call.error = err.description;
      answer(err.code, { ok: false, error_code: err.code, description: err.description, ...(err.parameters ? { parameters: err.parameters } : {}) });
    };
    if (call.contentEncoding !== undefined && call.contentEncoding !== "identity") {
      reportViolation({ source: fake, kind: "compressed body", detail: `${call.method} sent with Content-Encoding: ${call.contentEncoding}` });
    }

    if (decodeURIComponent(route[1]!) !== token) return fail(new TelegramApiError(401, "Unauthorized"));
    let request: Awaited<ReturnType<typeof readApiRequest>>;
    try {
      request = await readApiRequest(req, url);
    } catch (err) {
      return fail(new TelegramApiError(400, `Bad Request: ${err instanceof Error ? err.message : String(err)}`));
    }
    call.payload = request.payload;
    for (const listener of listeners) listener(call);
    const handler = handlers.get(call.method.toLowerCase());
    if (!handler) return fail(new TelegramApiError(404, "Not Found"));

    // A server without rich messages answers them "method not found" before any flood count.
    const unknownRich = state.richMessages === "refused" && call.method.toLowerCase().startsWith("sendrichmessage");
    const floodChat = unknownRich ? undefined : floodChatOf(call.method, request.payload);
    const fault = faults.take(call.method);
    if (fault?.kind === "hang") return; // held until close() destroys the socket
    if (fault?.kind === "429") {
      if (floodChat !== undefined) flood.told(floodChat, fault.retryAfter);
      fail(new TelegramApiError(429, `Too Many Requests: retry after ${fault.retryAfter}`, { retry_after: fault.retryAfter }));
      if (floodChat !== undefined) flood.answered(floodChat, performance.now());
      return;
    }
    if (fault?.kind === "500") return fail(new TelegramApiError(500, "Internal Server Error"));
    if (fault?.kind === "404") return fail(new TelegramApiError(404, "Not Found"));
    if (floodChat !== undefined) {
      // Counts requests that ignore a retry_after (limits on or off); answers 429 only with limits on.
      const tooMany = flood.check(floodChat, call.method, call.hrAt!);
      if (tooMany) {
        fail(tooMany);
        flood.answered(floodChat, performance.now());
        return;
      }
    }

    const gone = new AbortController();
    res.on("close", () => gone.abort());
    try {
      const result = await handler({ ...request, state, signal: gone.signal });
      answer(200, { ok: true, result });
    } catch (err) {
      if (!(err instanceof TelegramApiError)) throw err;
      if (err.description === `Bad Request: ${NOT_MODIFIED}`) {
        const shown = JSON.stringify({
          chat_id: call.payload.chat_id,
          message_id: call.payload.message_id,
          text: call.payload.text,
          ...(call.payload.rich_message !== undefined ? { rich_message: call.payload.rich_message } : {}),
          reply_markup: call.payload.reply_markup,
        });
        refusedEdits.push(call);
        reportViolation({ source: fake, kind: "not modified", detail: `${call.method} ${shown.slice(0, 400)}` });
      }
      if (err.description.startsWith("Bad Request: can't parse entities")) {
        const sent = String(call.payload.text ?? call.payload.caption ?? "").slice(0, 400);
        reportViolation({ source: fake, kind: "unparsable entities", detail: `${call.method}: ${err.description} in ${JSON.stringify(sent)}` });
      }
      if (isRichCall(call) && err.code === 400 && err.description !== `Bad Request: ${NOT_MODIFIED}`) {
        const sent = JSON.stringify(call.payload.rich_message ?? null).slice(0, 400);
        reportViolation({ source: fake, kind: "refused rich message", detail: `${call.method}: ${err.description} in ${sent}` });
      }
      return fail(err);
    }
  }

  /** A call that sends or edits a rich message (its 400s are Hermes' mistakes: the fake's rules are the documented ones). */
  function isRichCall(call: ApiCall): boolean {
    return call.method === "sendRichMessage" || call.method === "sendRichMessageDraft" || call.payload?.rich_message !== undefined;
  }

  /** A file download, as api.telegram.org serves it: the bytes, or a 404 / 401 JSON error. */
  function serveFile(res: ServerResponse, fileToken: string, path: string): void {
    calls.push({ method: "file download", payload: { path }, at: Date.now(), status: 0, hrAt: performance.now() });
    const call = calls[calls.length - 1]!;
    if (fileToken !== token) {
      call.status = 401;
      sendJson(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
      return;
    }
    const bytes = downloadable(files, path);
    if (!bytes) {
      call.status = 404;
      sendJson(res, 404, { ok: false, error_code: 404, description: "Not Found" });
      return;
    }
    files.downloads.push(path);
    call.status = 200;
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": bytes.length });
    res.end(bytes);
  }

  const server = await listenLoopback(handle);

  /** Stops accepting connections and drops the open ones (in-flight requests fail as on a dead host). */
  function goDown(): Promise<void> {
    if (outage) return outage.listenerClosed;
    let markUp!: () => void;
    const up = new Promise<void>((resolve) => (markUp = resolve));
    const listenerClosed = new Promise<void>((resolve) => {
      server.server.close(() => resolve());
      server.server.closeAllConnections();
    });
    outage = { listenerClosed, up, markUp };
    return listenerClosed;
  }

  async function goUp(): Promise<void> {
    const current = outage;
    if (!current) return;
    await current.listenerClosed;
    if (outage !== current) return current.up; // cleared (or closed) meanwhile
    current.relisten ??= closed
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          server.server.once("error", reject);
          server.server.listen(server.port, "127.0.0.1", () => {
            server.server.off("error", reject);
            resolve();
          });
        });
    await current.relisten;
    if (outage === current) outage = null;
    current.markUp();
  }

  const findButton = (m: SentMessage, text: string) => fake.buttons(m).find((b) => b.text === text);

  const fake: FakeTelegram = {
    apiRoot: server.origin,
    token,
    calls,
    callbackAnswers: state.callbackAnswers,
    get maxConcurrentGetUpdates() {
      return state.poll.maxConcurrent;
    },
    messages(chatId?: number) {
      return state.store.botMessages.filter((m) => chatId === undefined || m.chatId === chatId);
    },
    humanMessages(chatId?: number) {
      return state.store
        .humans()
        .filter((m) => chatId === undefined || m.chatId === chatId)
        .map((m) => ({
          chatId: m.chatId,
          messageId: m.messageId,
          text: m.text,
          deleted: m.deleted,
          ...(m.replyTo !== undefined ? { replyTo: m.replyTo } : {}),
        }));
    },
    waitFor<T>(check: () => T | undefined | false, o: { timeoutMs?: number; what?: string } = {}) {
      return pollUntil(check, { ...o, context: recentCalls });
    },
    waitForMessage(pred, o = {}) {
      return fake.waitFor(() => state.store.botMessages.find((m) => pred(m)), { what: "a matching bot message", ...o });
    },
    buttons(m) {
      const keyboard: unknown = m.replyMarkup?.inline_keyboard;
      if (!Array.isArray(keyboard)) return [];
      return keyboard.flat().map((b: any) => ({
        text: String(b.text),
        ...(b.callback_data !== undefined ? { callback_data: String(b.callback_data) } : {}),
        ...(b.style !== undefined ? { style: String(b.style) } : {}),
      }));
    },
    async tapButton(m, buttonText, from = DEFAULT_USER) {
      if (m.deleted) throw new Error(`tapButton: message ${m.messageId} in chat ${m.chatId} was deleted`);
      const button = findButton(m, buttonText);
      if (!button) {
        const names =
          fake
            .buttons(m)
            .map((b) => JSON.stringify(b.text))
            .join(", ") || "(no buttons)";
        throw new Error(`tapButton: no button ${JSON.stringify(buttonText)} on message ${m.messageId}; available: ${names}`);
      }
      const id = newCallbackQueryId();
      state.issuedCallbackIds.add(id);
      queue.push(callbackQueryUpdate(state.store, m, button.callback_data, from, id));
      return id;
    },
    waitForCallbackAnswer(callbackQueryId, o = {}) {
      return fake.waitFor(
        () => {
          const a = state.callbackAnswers.find((x) => x.callbackQueryId === callbackQueryId);
          return a ? { ...(a.text !== undefined ? { text: a.text } : {}), ...(a.showAlert !== undefined ? { showAlert: a.showAlert } : {}) } : undefined;
        },
        { what: `answerCallbackQuery for ${callbackQueryId}`, ...o },
      );
    },
    sendText(chatId, text, o = {}) {
      const { update, messageId } = messageUpdate(state.store, chatId, text, {
        from: o.from ?? DEFAULT_USER,
        chatType: o.chatType ?? (chatId > 0 ? "private" : "supergroup"),
        ...(o.replyTo !== undefined ? { replyTo: o.replyTo } : {}),
        ...(o.threadId !== undefined ? { threadId: o.threadId } : {}),
      });
      queue.push(update);
      return { messageId };
    },
    sendFile(chatId, file) {
      const { update, messageId, fileId } = fileMessageUpdate(state.store, files, chatId, {
        ...file,
        from: file.from ?? DEFAULT_USER,
        chatType: file.chatType ?? (chatId > 0 ? "private" : "supergroup"),
      });
      queue.push(update);
      return { messageId, fileId };
    },
    get downloads() {
      return [...files.downloads];
    },
    topics: () => state.topics.map((topic) => ({ ...topic })),
    setRichMessages(mode) {
      state.richMessages = mode;
    },
    setButtonStyles(mode) {
      state.buttonStyles = mode;
    },
    setChatRights(chatId, rights) {
      state.rights.chats.set(chatId, rights);
    },
    setPrivacyMode(on) {
      state.rights.privacyMode = on;
    },
    pushUpdate(update) {
      queue.push(update);
    },
    setFault(fault) {
      clearTimeout(faultTimer);
      faultTimer = undefined;
      faults.set(fault);
      const effect = fault?.kind === "down" ? goDown() : goUp();
      if (fault?.forMs !== undefined && !closed) {
        faultTimer = setTimeout(() => {
          faultTimer = undefined;
          if (faults.current === fault) void fake.setFault(null);
        }, fault.forMs);
      }
      return effect;
    },
    get fault() {
      return faults.current;
    },
    get down() {
      return outage !== null;
    },
    whenUp() {
      return outage ? outage.up : Promise.resolve();
    },
    setFloodLimits(limits) {
      flood.configure(limits);
    },
    get flood() {
      return flood.snapshot();
    },
    get retryAfterViolations() {
      return flood.snapshot().retryAfterViolations;
    },
    onCall(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    takeRefusedEdits() {
      claimViolations(fake, "not modified");
      return refusedEdits.splice(0);
    },
    get compressedCalls() {
      return calls.filter((call) => call.contentEncoding !== undefined && call.contentEncoding !== "identity");
    },
    tapUpdate(m, buttonText, from = DEFAULT_USER) {
      if (m.deleted) throw new Error(`tapUpdate: message ${m.messageId} in chat ${m.chatId} was deleted`);
      const button = findButton(m, buttonText);
      if (!button) {
        const names =
          fake
            .buttons(m)
            .map((b) => JSON.stringify(b.text))
            .join(", ") || "(no buttons)";
        throw new Error(`tapUpdate: no button ${JSON.stringify(buttonText)} on message ${m.messageId}; available: ${names}`);
      }
      const id = newCallbackQueryId();
      state.issuedCallbackIds.add(id);
      return { update_id: directUpdateId++, ...callbackQueryUpdate(state.store, m, button.callback_data, from, id) };
    },
    async close() {
      closed = true;
      clearTimeout(faultTimer);
      faultTimer = undefined;
      await server.close();
      const current = outage;
      outage = null;
      current?.markUp();
    },
  };
  return fake;
}
