// The bridge routes: OpenCode events become Telegram messages, Telegram taps and replies become
// OpenCode replies. What a tap means is decided per prompt kind (questions.ts, permissions.ts);
// this file owns delivery, edits, settling, expiry and ordering. It opens no sockets itself.
import path from "node:path";
import { CATALOGS, type Language, type Strings } from "../i18n/catalog.ts";
import type { Logger } from "../log.ts";
import type { Outcome } from "../opencode/api.ts";
import type { PermissionPrompt } from "../registry/permission-prompt.ts";
import type { PromptState } from "../registry/prompt.ts";
import type { NoticePolicy } from "../notices/activity.ts";
import type { MessageOwner, Prompt, Registry, TextInput } from "../registry/registry.ts";
import type { Claim } from "../relay/update-handler.ts";
import type { StatusPart } from "../telegram/render-status.ts";
import type { HermesEvent, PermissionReply } from "../hermes-events.ts";
import { mayAct, type AccessPolicy } from "../telegram/access.ts";
import type { TelegramApi } from "../telegram/api.ts";
import { decodeCallback, type CallbackData } from "../telegram/codec.ts";
import { CALLBACK_ANSWER_LIMIT, cutText, escapeWithin, PLACEHOLDER_LIMIT } from "../telegram/html.ts";
import { errorText } from "../error-text.ts";
import type { PromptContext } from "../telegram/render-context.ts";
import { renderPermission } from "../telegram/render-permission.ts";
import { permissionFiles } from "../telegram/render-permission-file.ts";
import { renderQuestion } from "../telegram/render-question.ts";
import type { RenderedMessage } from "../telegram/rendered-message.ts";
import { reveal } from "../telegram/reveal.ts";
import { Outbox, Priority } from "../telegram/outbox.ts";
import { labelMessages } from "../telegram/machine-label.ts";
import type { PaceLimits } from "../telegram/pacer.ts";
import { parseUpdate, type Intent } from "../telegram/updates.ts";
import type { Desk, InstanceLink, Tap } from "./desk.ts";
import { Commands } from "./commands.ts";
import { PhoneFiles } from "./phone-files.ts";
import { RunNotices } from "./run-notices.ts";
import { SessionTopics } from "./topics.ts";
import { StopControl } from "./stop-control.ts";
import { TypedText } from "./typed-text.ts";
import { decidePermission, tapPermission, typePermissionFeedback } from "./permissions.ts";
import { dismissQuestion, tapQuestion, typeQuestionAnswer } from "./questions.ts";
import { ReplyConfirmation } from "./reply-confirmation.ts";

export type { InstanceLink } from "./desk.ts";

export interface BridgeOptions {
  telegram: TelegramApi;
  registry: Registry;
  logger: Logger;
  access: AccessPolicy;
  /** 0 means questions never expire. */
  questionTtlMs: number;
  /** 0 (the default) means permission requests never expire. */
  permissionTtlMs?: number;
  /** How long to wait for the rest of a typed answer Telegram split into several messages. */
  textQuietMs?: number;
  /** How long to wait for OpenCode's event confirming a reply before checking its pending list. */
  confirmTimeoutMs?: number;
  /** Telegram's flood limits; `false` turns pacing off (tests with an in-memory Telegram). */
  pacing?: PaceLimits | false;
  /** Which run endings are worth a message. Default: done (after 30 s of work) and failed. */
  notices?: NoticePolicy;
  /** How long "Done" waits for a late abort (OpenCode 1.1.53 reports Esc just after the idle). */
  doneGraceMs?: number;
  /** The chat's language (English by default). */
  language?: Language;
  /** One forum topic per session (the chat must be a supergroup with topics). */
  topics?: boolean;
  /** The machine's name, on every message (see telegram/machine-label.ts). */
  machine?: string | undefined;
  now?: () => number;
}

export const DEFAULT_NOTICES: NoticePolicy = { level: "all", doneAfterMs: 30_000 };

const DONE_GRACE_MS = 1_000;
/** A reply slower than this shows "Sending…" meanwhile. */
const SENDING_SHOWN_AFTER_MS = 400;

export class Bridge implements Desk {
  readonly telegram: TelegramApi;
  readonly registry: Registry;
  readonly log: Logger;
  readonly chatId: number;
  readonly t: Strings;
  readonly #outbox: Outbox;
  readonly #topics: SessionTopics;
  readonly #access: AccessPolicy;
  readonly #ttl: { question: number; permission: number };
  readonly #now: () => number;
  readonly #instances = new Set<InstanceLink>();
  readonly #expiry = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #queues = new Map<string, Promise<void>>();
  readonly #delivering = new Map<string, Promise<void>>();
  readonly #replies: ReplyConfirmation;
  readonly #typed: TypedText;
  readonly #runs: RunNotices;
  readonly #commands: Commands;
  readonly #stops: StopControl;
  readonly #files: PhoneFiles;
  /** What each prompt's message shows now, so edits that change nothing are skipped. */
  readonly #shown = new Map<string, string>();
  #stopped = false;

  constructor(options: BridgeOptions) {
    this.telegram = options.machine ? labelMessages(options.telegram, options.machine) : options.telegram;
    this.registry = options.registry;
    this.log = options.logger;
    this.#access = options.access;
    this.chatId = options.access.chatId;
    this.t = CATALOGS[options.language ?? "en"];
    this.#ttl = { question: options.questionTtlMs, permission: options.permissionTtlMs ?? 0 };
    this.#now = options.now ?? Date.now;
    this.#replies = new ReplyConfirmation({ timeoutMs: options.confirmTimeoutMs ?? 3_000, now: this.#now, stillPending: (prompt) => this.#stillPending(prompt) });
    this.#outbox = new Outbox({ logger: this.log, ...(options.pacing !== undefined ? { limits: options.pacing } : {}) });
    this.#topics = new SessionTopics(options.topics ?? false, { telegram: this.telegram, outbox: this.#outbox, registry: this.registry, chatId: this.chatId, log: this.log });
    const linkFor = (directory: string) => this.linkFor(directory);
    const announce = (owner: MessageOwner, replyTo: number, queued: boolean, threadId?: number) => this.#stops.announce(owner, replyTo, queued, threadId);
    this.#runs = new RunNotices(
      { telegram: this.telegram, outbox: this.#outbox, registry: this.registry, topics: this.#topics, log: this.log, t: this.t, chatId: this.chatId, now: this.#now, linkFor, reply: (text, replyTo, threadId) => this.reply(text, replyTo, threadId), announce },
      options.notices ?? DEFAULT_NOTICES,
      options.doneGraceMs ?? DONE_GRACE_MS,
    );
    this.#stops = new StopControl({ telegram: this.telegram, outbox: this.#outbox, registry: this.registry, activity: this.#runs.activity, topics: this.#topics, log: this.log, t: this.t, chatId: this.chatId, linkFor, closePrompts: (sessionID) => this.#closePromptsOf(sessionID) });
    this.#commands = new Commands({
      telegram: this.telegram,
      outbox: this.#outbox,
      registry: this.registry,
      activity: this.#runs.activity,
      access: this.#access,
      log: this.log,
      t: this.t,
      chatId: this.chatId,
      enqueue: (prompt, work) => this.#enqueue(prompt, work),
      sendAgain: (prompt) => this.#sendAgain(prompt),
      offerStop: (replyTo) => this.#stops.offer(replyTo),
    });
    this.#typed = new TypedText({
      registry: this.registry,
      topics: this.#topics,
      access: this.#access,
      quietMs: options.textQuietMs ?? 700,
      answer: (input, text) => this.#onTypedText(input, text),
      talkBack: (owner, userMessage, text) => void this.#runs.talkBack(owner, userMessage, text),
    });
    this.#files = new PhoneFiles({
      telegram: this.telegram,
      registry: this.registry,
      topics: this.#topics,
      access: this.#access,
      log: this.log,
      t: this.t,
      linkFor,
      isBusy: (sessionID) => this.#runs.activity.isBusy(sessionID),
      acknowledge: (owner, userMessage, wasBusy) => this.#runs.acknowledge(owner, userMessage, wasBusy),
      reply: (text, replyTo, threadId) => this.reply(text, replyTo, threadId),
      quietMs: options.textQuietMs ?? 700,
    });
  }

  // ── OpenCode side ──────────────────────────────────────────────────────────────────────────

  /** Links an OpenCode instance; its already-pending prompts are picked up in the background. */
  attach(link: InstanceLink): void {
    this.#instances.add(link);
    const directory = link.directory;
    void Promise.all([link.opencode.listQuestions(), link.opencode.listPermissions()])
      .then(([questions, permissions]) => {
        for (const request of questions) this.handleEvent(directory, { type: "question.asked", request });
        for (const request of permissions) this.handleEvent(directory, { type: "permission.asked", request });
      })
      .catch((error) => this.log.warn({ err: errorText(error), directory }, "could not list pending prompts"));
  }

  /**
   * After a gap in the event stream: prompts raised meanwhile are delivered, and prompts OpenCode no
   * longer has are closed ("No longer pending": how they ended can't be known).
   */
  async resync(link: InstanceLink): Promise<{ pending: number; closed: number }> {
    const directory = link.directory;
    // Only prompts known before asking can be judged by the answer: a newer one is not on the lists yet.
    const before = this.registry.pendingIn(directory);
    const [questions, permissions] = await Promise.all([link.opencode.listQuestions(), link.opencode.listPermissions()]);
    for (const request of questions) this.handleEvent(directory, { type: "question.asked", request });
    for (const request of permissions) this.handleEvent(directory, { type: "permission.asked", request });
    const live = new Set<string>([...questions, ...permissions].map((request) => request.id));
    // A prompt with a reply in flight is left to that reply, which settles it itself.
    const gone = before.filter((prompt) => !live.has(prompt.requestID) && !prompt.busy);
    await Promise.all(gone.map((prompt) => this.#enqueue(prompt, async () => (prompt.state === "pending" && !prompt.busy ? this.settle(prompt, "gone") : undefined))));
    if (gone.length > 0) this.log.info({ directory, closed: gone.length }, "closed prompts resolved while the event stream was down");
    return { pending: live.size, closed: gone.length };
  }

  /** Unlinks an instance. When it was the last one for its directory, that directory's prompts are dropped. */
  detach(link: InstanceLink): Promise<void> {
    this.#instances.delete(link);
    if (this.linkFor(link.directory)) return Promise.resolve();
    return this.#closeDirectory(link.directory);
  }

  handleEvent(directory: string, event: HermesEvent): void {
    if (this.#stopped) return;
    switch (event.type) {
      case "question.asked":
        return this.#track(this.registry.addQuestion(event.request, directory, this.#now()));
      case "permission.asked":
        return this.#track(this.registry.addPermission(event.request, directory, this.#now()));
      case "question.replied":
      case "question.rejected": {
        const prompt = this.registry.byRequest(event.requestID);
        if (prompt?.kind !== "question" || prompt.state !== "pending") return;
        const answers = event.type === "question.replied" ? event.answers : undefined;
        if (this.#replies.questionReplied(prompt, answers)) return;
        if (answers) prompt.finalAnswers = answers;
        void this.#enqueue(prompt, () => this.settle(prompt, answers ? "answered_elsewhere" : "dismissed_elsewhere"));
        return;
      }
      case "permission.replied":
        return this.#onPermissionReplied(event.sessionID, event.requestID, event.reply);
      case "session.upserted": {
        const before = this.registry.sessions.get(event.info.id);
        this.registry.sessions.upsert(event.info);
        if (event.info.title !== before?.title || event.info.parentID !== before?.parentID) this.#refreshSession(event.info.id);
        if (event.info.title && before?.title && event.info.title !== before.title) this.#topics.rename(event.info.id, event.info.title);
        return;
      }
      case "session.deleted":
        this.#replies.forgetSession(event.sessionID);
        this.#runs.observe(directory, event);
        this.#stops.observe(directory, event);
        return this.registry.sessions.delete(event.sessionID);
      case "session.status":
      case "session.idle":
        this.#stops.observe(directory, event);
        return this.#runs.observe(directory, event);
      case "session.error":
      case "message.role":
      case "message.text":
        return this.#runs.observe(directory, event);
      case "instance.disposed":
        void this.#closeDirectory(event.directory);
        return;
      default:
        return;
    }
  }

  #track(prompt: Prompt | undefined): void {
    if (!prompt) return; // known already: another instance of the same directory reported it
    this.log.info({ kind: prompt.kind, requestID: prompt.requestID, sessionID: prompt.sessionID, directory: prompt.directory }, "prompt asked");
    const ttl = this.#ttl[prompt.kind];
    if (ttl > 0) {
      const timer = setTimeout(() => this.#enqueue(prompt, () => this.#expire(prompt)), ttl);
      timer.unref?.();
      this.#expiry.set(prompt.key, timer);
    }
    const delivery = this.#deliver(prompt).finally(() => this.#delivering.delete(prompt.key));
    this.#delivering.set(prompt.key, delivery);
  }

  /** Nobody answered in time: the question is dismissed, the permission rejected. */
  async #expire(prompt: Prompt): Promise<void> {
    if (prompt.state !== "pending") return;
    const opencode = this.linkFor(prompt.directory)?.opencode;
    const reject = () => (prompt.kind === "question" ? opencode!.rejectQuestion(prompt.requestID) : opencode!.replyPermission(prompt.requestID, { reply: "reject" }));
    const outcome: Outcome = opencode ? await reject() : { ok: false, gone: true };
    this.log.info({ kind: prompt.kind, requestID: prompt.requestID, outcome }, "prompt expired");
    if (!outcome.ok && !outcome.gone) {
      const error = outcome.error;
      prompt.notice = (t) => t.note.expiredButFailed(error);
      return this.refresh(prompt);
    }
    await this.settle(prompt, outcome.ok ? "expired" : "gone");
  }

  #onPermissionReplied(sessionID: string, requestID: string, reply: PermissionReply): void {
    const known = this.registry.byRequest(requestID);
    const prompt = known?.kind === "permission" && known.state === "pending" ? known : undefined;
    const by = this.#replies.permissionReplied(sessionID, requestID, reply, prompt);
    if (!prompt || by === "own") return;
    prompt.final = { reply, by };
    void this.#enqueue(prompt, () => this.settle(prompt, "answered_elsewhere"));
  }

  /** Sends the prompt first; a missing session title is looked up afterwards and filled in by an edit. */
  async #deliver(prompt: Prompt): Promise<void> {
    let rendered: RenderedMessage | undefined;
    try {
      const threadId = await this.#topics.threadOf(prompt.sessionID, prompt.directory);
      if (prompt.kind === "permission") await this.#sendFiles(prompt, threadId);
      // Rendered when it can go out: a prompt settled while Telegram was away is not sent at all.
      const sent = await this.#outbox.send(this.chatId, () => {
        if (prompt.state !== "pending") return undefined;
        const message = (rendered = this.#render(prompt));
        return () => this.telegram.sendMessage(this.chatId, message.text, { keyboard: message.keyboard, ...replyToFiles(prompt), ...inThread(threadId) });
      });
      if (!sent || !rendered) return this.registry.forget(prompt);
      this.#shown.set(prompt.key, shownAs(rendered));
      prompt.message = { chatId: this.chatId, messageId: sent.messageId };
      this.registry.noteMessage(prompt.message, { sessionID: prompt.sessionID, directory: prompt.directory });
      this.log.info({ requestID: prompt.requestID, messageId: sent.messageId }, "prompt delivered");
    } catch (error) {
      this.log.error({ err: errorText(error), requestID: prompt.requestID }, "could not deliver prompt to Telegram");
      return;
    }
    // Anything that changed while the message was on its way is shown now.
    if (this.#render(prompt).text !== rendered.text) await this.refresh(prompt);
    if (prompt.state !== "pending") this.registry.forget(prompt);
    void this.#lookUpSession(prompt.directory, prompt.sessionID);
  }

  /**
   * The full request and the full diff, when the message can't show them, go out just before it
   * (the message replies to them), so what Allow approves can be read before the tap. If they
   * can't be sent, the message offers no Allow.
   */
  async #sendFiles(prompt: PermissionPrompt, threadId: number | undefined): Promise<void> {
    const files = permissionFiles(prompt, this.t);
    if (files.length === 0) return;
    const sent: number[] = [];
    for (const file of files) {
      const document = await this.#outbox
        .send(this.chatId, () => (prompt.state === "pending" ? () => this.telegram.sendDocument(this.chatId, file.filename, file.content, { caption: file.caption, ...inThread(threadId) }) : undefined))
        .catch((error) => void this.log.warn({ err: errorText(error), requestID: prompt.requestID, file: file.filename }, "could not attach the full text of a permission request"));
      if (document) sent.push(document.messageId);
    }
    prompt.files = { sent: sent.length === files.length, ...(sent.length > 0 ? { messageId: sent[0]! } : {}) };
  }

  /** Title and parent of a session (and the parent's title) that no session event told us about. */
  async #lookUpSession(directory: string, sessionID: string): Promise<void> {
    const opencode = this.linkFor(directory)?.opencode;
    if (!opencode) return;
    let known = this.registry.sessions.get(sessionID);
    let changed = false;
    if (!known?.title) {
      const info = await opencode.session(sessionID).catch(() => undefined);
      if (!info) return;
      this.registry.sessions.upsert(info);
      known = this.registry.sessions.get(sessionID);
      changed = true;
    }
    if (known?.parentID && !this.registry.sessions.title(known.parentID)) {
      const parent = await opencode.session(known.parentID).catch(() => undefined);
      if (parent) this.registry.sessions.upsert(parent);
      changed ||= parent !== undefined;
    }
    if (changed) this.#refreshSession(sessionID);
  }

  #closeDirectory(directory: string): Promise<void> {
    const prompts = this.registry.pendingIn(directory);
    return Promise.all(prompts.map((prompt) => this.#enqueue(prompt, () => this.settle(prompt, "gone")))).then(() => undefined);
  }

  #refreshSession(sessionID: string): void {
    for (const prompt of this.registry.pending()) {
      const session = this.registry.sessions.get(prompt.sessionID);
      if ((prompt.sessionID === sessionID || session?.parentID === sessionID) && prompt.message) void this.#enqueue(prompt, () => this.refresh(prompt));
    }
  }

  // ── Telegram side ──────────────────────────────────────────────────────────────────────────

  /**
   * Whether an update concerns this process (one of its prompts or awaited texts): the work it
   * means, which the caller runs once the claim is granted (relay/relay.ts). Deciding does nothing
   * visible: the tap is acknowledged only when the work runs, so a claim the leader refused (it came
   * too late) leaves no trace. Never waits for OpenCode or for outgoing Telegram traffic.
   */
  async claimUpdate(update: unknown): Promise<Claim | undefined> {
    if (this.#stopped) return undefined;
    const intent = parseUpdate(update);
    if (intent?.kind === "callback") return this.#claimCallback(intent);
    if (intent?.kind === "text") {
      const take = this.#typed.claim(intent);
      return take && (async () => take());
    }
    if (intent?.kind === "attachment") {
      const take = this.#files.claim(intent);
      return take && (async () => take());
    }
    return undefined;
  }

  /**
   * What nobody claimed: taps on stale messages, strangers' taps, and commands (answered once).
   * `unanswered`: a process sharing the bot did not answer, so a tap may be for its prompt: the
   * buttons stay and the user is asked to tap again.
   */
  async handleUnclaimed(update: unknown, parts?: unknown[], unanswered = false): Promise<void> {
    if (this.#stopped) return;
    const intent = parseUpdate(update);
    if (intent?.kind === "command") return this.#commands.answer(intent, parts);
    if (intent?.kind === "attachment") return this.#files.unclaimed(intent);
    if (intent?.kind !== "callback") return;
    if (!mayAct(this.#access, intent.from)) return this.#refuseTap(intent);
    if (unanswered) return this.#answerCallback(intent.id, this.t.note.notAnswering);
    await this.#staleTap(intent);
  }

  /** A tap on a message whose prompt is gone (or on an older copy of it): say so, and drop its buttons. */
  async #staleTap(intent: Extract<Intent, { kind: "callback" }>): Promise<void> {
    await this.#answerCallback(intent.id, this.t.note.notPending);
    const { messageId } = intent;
    if (messageId !== undefined) void this.#outbox.chore(intent.from.chatId, () => this.telegram.removeKeyboard(intent.from.chatId, messageId)).catch(() => undefined);
  }

  /** One process on its own: claim, else handle as unclaimed. */
  async handleUpdate(update: unknown): Promise<void> {
    const claim = await this.claimUpdate(update);
    if (claim) return claim();
    await this.handleUnclaimed(update, this.gathers(update) ? [await this.partFor(update)] : undefined);
  }

  /** Part of /status and /pending, which every process sharing the bot answers together. */
  gathers(update: unknown): boolean {
    return this.#commands.gathers(parseUpdate(update));
  }

  partFor(update: unknown): Promise<StatusPart | undefined> {
    return this.#commands.partFor(parseUpdate(update));
  }

  /** Whether an unclaimed update may be for a process still re-connecting to the relay (so held a moment): not a stranger's. */
  worthHolding(update: unknown): boolean {
    const intent = parseUpdate(update);
    return intent !== undefined && mayAct(this.#access, intent.from);
  }

  /** This process polls now: register the bot's commands. */
  onLead(): void {
    this.#commands.onLead();
  }

  /** /pending: the prompt again as a fresh message at the bottom of the chat; the old one loses its buttons. */
  async #sendAgain(prompt: Prompt): Promise<void> {
    const old = prompt.message;
    if (prompt.state !== "pending" || !old) return;
    const threadId = await this.#topics.threadOf(prompt.sessionID, prompt.directory);
    // Files that could not be sent the first time get another try: with them, Allow comes back.
    if (prompt.kind === "permission" && prompt.files?.sent === false) await this.#sendFiles(prompt, threadId);
    const sent = await this.#outbox
      .send(this.chatId, () => {
        if (prompt.state !== "pending") return undefined;
        const rendered = this.#render(prompt);
        return () => this.telegram.sendMessage(this.chatId, rendered.text, { keyboard: rendered.keyboard, ...replyToFiles(prompt), ...inThread(threadId) });
      })
      .catch(() => undefined);
    if (!sent) return;
    prompt.message = { chatId: this.chatId, messageId: sent.messageId };
    this.#shown.delete(prompt.key);
    this.registry.noteMessage(prompt.message, { sessionID: prompt.sessionID, directory: prompt.directory });
    void this.#outbox.chore(old.chatId, () => this.telegram.editMessage(old.chatId, old.messageId, this.t.status.sentAgain, [])).catch(() => undefined);
  }

  async #claimCallback(intent: Extract<Intent, { kind: "callback" }>): Promise<Claim | undefined> {
    const data = decodeCallback(intent.data);
    if (data && this.#stops.owns(data)) return this.#claimStop(intent, data);
    const prompt = data ? this.registry.byKey(data.key) : undefined;
    if (!data || !prompt) return undefined;
    if (!mayAct(this.#access, intent.from)) return () => this.#refuseTap(intent);
    // A tap on an older copy of the prompt (sent again by /pending) is left to the stale-tap handling.
    // A tap that raced the sendMessage response (message id not known yet) is claimed by its key
    // and checked when it runs: deciding never waits for Telegram.
    if (prompt.message && !isOn(prompt, intent)) return undefined;
    return () => this.#tap(intent, prompt, data);
  }

  /** A granted tap on one of this process' prompts: act, then acknowledge it. */
  async #tap(intent: Extract<Intent, { kind: "callback" }>, prompt: Prompt, data: CallbackData): Promise<void> {
    if (!prompt.message) await this.#delivering.get(prompt.key);
    if (!isOn(prompt, intent)) return this.#staleTap(intent);
    if (prompt.state !== "pending") return this.#answerCallback(intent.id, this.t.note.notPending);
    if (prompt.busy) return this.#answerCallback(intent.id, this.t.note.sending);
    const tap: Tap = prompt.kind === "question" ? tapQuestion(this, prompt, data) : tapPermission(this, prompt, data);
    // The reply to OpenCode leaves before Telegram's acknowledgement of the tap (a macrotask later).
    if (tap.then) void this.#enqueue(prompt, tap.then);
    await new Promise((resolve) => setImmediate(resolve));
    await this.#answerCallback(intent.id, tap.note(this.t), tap.alert);
  }

  #refuseTap(intent: Extract<Intent, { kind: "callback" }>): Promise<void> {
    this.log.warn({ userId: intent.from.userId, chatId: intent.from.chatId }, "ignored a button tap from an unauthorized user or chat");
    return this.#answerCallback(intent.id, this.t.note.notAuthorized, true);
  }

  /** A Stop tap on one of this process' sessions: the work to do once the claim is granted. */
  #claimStop(intent: Extract<Intent, { kind: "callback" }>, data: CallbackData): Claim {
    if (!mayAct(this.#access, intent.from)) return () => this.#refuseTap(intent);
    return async () => {
      const tap = this.#stops.tap(data, intent.messageId === undefined ? undefined : { chatId: intent.from.chatId, messageId: intent.messageId });
      await this.#answerCallback(intent.id, tap.note(this.t), tap.alert);
      if (tap.then) await tap.then().catch((error) => this.log.error({ err: errorText(error) }, "stopping a run failed"));
    };
  }

  /** A run stopped from the phone: OpenCode keeps its prompts pending (measured on 1.1.53 and 1.18.33), so they are closed here. */
  async #closePromptsOf(sessionID: string): Promise<void> {
    const inRun = (id: string) => id === sessionID || this.registry.sessions.get(id)?.parentID === sessionID;
    const prompts = this.registry.pending().filter((prompt) => inRun(prompt.sessionID));
    await Promise.all(prompts.map((prompt) => this.#enqueue(prompt, () => (prompt.kind === "question" ? dismissQuestion(this, prompt) : decidePermission(this, prompt, { reply: "reject" })))));
  }

  #onTypedText(input: TextInput, text: string): void {
    const prompt = this.registry.byKey(input.key);
    if (!prompt || prompt.state !== "pending") return;
    void this.#enqueue(prompt, async () => {
      if (prompt.state !== "pending" || !this.registry.inputFor(input.message)) return;
      this.registry.disarmInputs(prompt.key);
      this.#deleteMessage(input.message);
      if (prompt.kind === "question") await typeQuestionAnswer(this, prompt, input.questionIndex, text, input.message.messageId);
      else await typePermissionFeedback(this, prompt, text);
    });
  }

  // ── Desk: what the prompt kinds may do ─────────────────────────────────────────────────────

  async askForText(prompt: Prompt, questionIndex: number, label: string): Promise<void> {
    if (prompt.state !== "pending") return;
    const text = prompt.kind === "question" ? this.t.input.answerTo(escapeWithin(reveal(label, this.t), 200)) : this.t.input.feedback;
    const threadId = await this.#topics.threadOf(prompt.sessionID, prompt.directory);
    const options = { forceReply: { placeholder: cutText(label, PLACEHOLDER_LIMIT) }, ...(prompt.message ? { replyTo: prompt.message.messageId } : {}), ...inThread(threadId) };
    const sent = await this.#outbox.send(this.chatId, () => (prompt.state === "pending" ? () => this.telegram.sendMessage(this.chatId, text, options) : undefined)).catch((error) => {
      this.log.warn({ err: errorText(error) }, "could not ask for typed text");
      return undefined;
    });
    if (!sent || prompt.state !== "pending") return;
    for (const old of this.registry.disarmInputs(prompt.key)) this.#deleteMessage(old.message);
    this.registry.armInput({ key: prompt.key, questionIndex, message: { chatId: this.chatId, messageId: sent.messageId } });
  }

  async sending<T>(prompt: Prompt, work: () => Promise<T>): Promise<T> {
    const timer = setTimeout(() => void this.refresh(prompt), SENDING_SHOWN_AFTER_MS);
    try {
      return await work();
    } finally {
      clearTimeout(timer);
    }
  }

  confirm(prompt: Prompt): Promise<boolean> {
    return this.#replies.confirm(prompt);
  }

  async #stillPending(prompt: Prompt): Promise<boolean> {
    const opencode = this.linkFor(prompt.directory)?.opencode;
    if (!opencode) return false;
    const pending = await (prompt.kind === "question" ? opencode.listQuestions() : opencode.listPermissions()).catch(() => []);
    return pending.some((request) => request.id === prompt.requestID);
  }

  async settle(prompt: Prompt, state: PromptState): Promise<void> {
    if (prompt.state !== "pending") return;
    prompt.state = state;
    prompt.busy = false;
    this.#replies.settled(prompt.requestID);
    prompt.notice = undefined;
    clearTimeout(this.#expiry.get(prompt.key));
    this.#expiry.delete(prompt.key);
    for (const input of this.registry.disarmInputs(prompt.key)) this.#deleteMessage(input.message);
    this.log.info({ kind: prompt.kind, requestID: prompt.requestID, state }, "prompt settled");
    // Still on its way to the phone: delivery shows the final state (or skips sending).
    if (!prompt.message) return;
    await this.refresh(prompt);
    this.registry.forget(prompt);
    this.#shown.delete(prompt.key);
  }

  async refresh(prompt: Prompt): Promise<void> {
    if (!prompt.message) return;
    const { chatId, messageId } = prompt.message;
    try {
      // Rendered when it goes out, so edits queued behind flood control collapse into the latest
      // state; an edit that would change nothing is not sent (it would cost a flood-limit slot).
      await this.#outbox.edit(chatId, messageId, () => {
        const rendered = this.#render(prompt);
        const shown = shownAs(rendered);
        if (this.#shown.get(prompt.key) === shown) return undefined;
        return async () => {
          await this.telegram.editMessage(chatId, messageId, rendered.text, rendered.keyboard);
          this.#shown.set(prompt.key, shown);
        };
        // An open prompt's edit answers a tap the user watches; a settled one's may wait for prompts.
      }, prompt.state === "pending" ? Priority.Prompt : Priority.Edit);
    } catch (error) {
      this.log.warn({ err: errorText(error), requestID: prompt.requestID }, "could not update the Telegram message");
    }
  }

  linkFor(directory: string): InstanceLink | undefined {
    let found: InstanceLink | undefined;
    for (const link of this.#instances) if (link.directory === directory) found = link; // the newest wins
    return found;
  }

  #render(prompt: Prompt): RenderedMessage {
    const context = this.#contextOf(prompt);
    return prompt.kind === "question" ? renderQuestion(prompt, context) : renderPermission(prompt, context);
  }

  #contextOf(prompt: Prompt): PromptContext {
    const session = this.registry.sessions.get(prompt.sessionID);
    const context: PromptContext = { project: path.basename(prompt.directory) || prompt.directory, t: this.t };
    if (session?.title) context.sessionTitle = session.title;
    if (session?.parentID) context.parentTitle = this.registry.sessions.title(session.parentID) ?? session.parentID;
    context.stop = this.#stops.buttonFor(prompt.sessionID, prompt.directory);
    return context;
  }

  // ── Plumbing ───────────────────────────────────────────────────────────────────────────────

  /** Runs work for one prompt strictly in order, so two quick taps can't race. */
  #enqueue(prompt: Prompt, work: () => Promise<void>): Promise<void> {
    const previous = this.#queues.get(prompt.key) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error) => this.log.error({ err: errorText(error), requestID: prompt.requestID }, "prompt handling failed"))
      .finally(() => {
        if (this.#queues.get(prompt.key) === next) this.#queues.delete(prompt.key);
      });
    this.#queues.set(prompt.key, next);
    return next;
  }

  async reply(text: string, replyTo: number, threadId?: number): Promise<void> {
    await this.#outbox.send(this.chatId, () => () => this.telegram.sendMessage(this.chatId, text, { replyTo, ...inThread(threadId) })).catch(() => undefined);
  }

  #deleteMessage(message: { chatId: number; messageId: number }): void {
    void this.#outbox.chore(message.chatId, () => this.telegram.deleteMessage(message.chatId, message.messageId)).catch(() => undefined);
  }

  async #answerCallback(id: string, text?: string, alert?: boolean): Promise<void> {
    await this.telegram.answerCallback(id, text === undefined ? undefined : cutText(text, CALLBACK_ANSWER_LIMIT), alert).catch((error) => this.log.warn({ err: errorText(error) }, "could not answer a callback query"));
  }

  /** Settles every pending prompt as no longer pending (their buttons go) and stops all timers. */
  async stop(graceMs = 3_000): Promise<void> {
    if (this.#stopped) return;
    // The closing edits are the last word: they may spend what pacing keeps for prompts.
    this.#outbox.finishing();
    const settleAll = (async () => {
      await Promise.all([...this.#delivering.values()]);
      await Promise.all(this.registry.pending().map((prompt) => this.#enqueue(prompt, () => this.settle(prompt, "gone"))));
      // Edits already queued for prompts settled just before (OpenCode 2 cancels a location's forms
      // right before its cleanup) go out too, within the same grace.
      await Promise.all([...this.#queues.values()]);
    })();
    // Telegram may be unreachable: don't wait forever, the outbox gives up below.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([settleAll, new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.#stopped = true;
    this.#typed.clear();
    this.#files.clear();
    await this.#outbox.stop();
    for (const timer of this.#expiry.values()) clearTimeout(timer);
    this.#expiry.clear();
    this.#runs.stop();
  }
}

/** A permission prompt that came with files replies to the first one, so the two stay together. */
function replyToFiles(prompt: Prompt): { replyTo?: number } {
  return prompt.kind === "permission" && prompt.files?.messageId !== undefined ? { replyTo: prompt.files.messageId } : {};
}

function inThread(threadId: number | undefined): { threadId?: number } {
  return threadId === undefined ? {} : { threadId };
}

/** Whether the tap was on the prompt's current message. */
function isOn(prompt: Prompt, intent: Extract<Intent, { kind: "callback" }>): boolean {
  return prompt.message?.messageId === intent.messageId && prompt.message?.chatId === intent.from.chatId;
}

function shownAs(rendered: RenderedMessage): string {
  return JSON.stringify([rendered.text, rendered.keyboard]);
}

