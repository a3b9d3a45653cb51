// The bridge decides: which OpenCode prompts go to Telegram, how taps and typed answers change
// them, and what goes back to OpenCode. It owns no sockets: Telegram and OpenCode are injected.
import path from "node:path";
import type { Logger } from "./log.ts";
import type { OpencodeApi, Outcome } from "./opencode/api.ts";
import type { Registry, TextInput } from "./registry/registry.ts";
import { validateAnswers } from "./registry/answers.ts";
import {
  confirmTicked,
  currentQuestion,
  isComplete,
  reopenLastAnswer,
  tapOption,
  typeAnswer,
  type PromptState,
  type QuestionPrompt,
  type TapResult,
} from "./registry/question-prompt.ts";
import type { HermesEvent, QuestionRequest } from "./sse/events.ts";
import { mayAct, type AccessPolicy } from "./telegram/access.ts";
import type { TelegramApi } from "./telegram/api.ts";
import { decodeCallback } from "./telegram/codec.ts";
import { cutText, escapeHtml } from "./telegram/html.ts";
import { renderQuestion } from "./telegram/render.ts";
import { TextJoiner } from "./telegram/text-joiner.ts";
import { parseUpdate, type Intent, type Sender } from "./telegram/updates.ts";
import { describe } from "./telegram/poller.ts";
import { sendWithRetry } from "./telegram/send.ts";

export interface BridgeOptions {
  telegram: TelegramApi;
  registry: Registry;
  logger: Logger;
  access: AccessPolicy;
  /** 0 means questions never expire. */
  questionTtlMs: number;
  /** How long to wait for the rest of a typed answer Telegram split into several messages. */
  textQuietMs?: number;
  now?: () => number;
}

/** One OpenCode instance (a project directory) the bridge can answer through. */
export interface InstanceLink {
  directory: string;
  opencode: OpencodeApi;
}

const NOT_PENDING = "This question is no longer pending";

export class Bridge {
  readonly #telegram: TelegramApi;
  readonly #registry: Registry;
  readonly #log: Logger;
  readonly #access: AccessPolicy;
  readonly #ttlMs: number;
  readonly #now: () => number;
  readonly #instances = new Set<InstanceLink>();
  readonly #expiry = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #queues = new Map<string, Promise<void>>();
  readonly #delivering = new Map<string, Promise<void>>();
  readonly #joiner: TextJoiner<TextInput>;
  #stopped = false;

  constructor(options: BridgeOptions) {
    this.#telegram = options.telegram;
    this.#registry = options.registry;
    this.#log = options.logger;
    this.#access = options.access;
    this.#ttlMs = options.questionTtlMs;
    this.#now = options.now ?? Date.now;
    this.#joiner = new TextJoiner(options.textQuietMs ?? 700, (input, text) => this.#onTypedAnswer(input, text));
  }

  // ── OpenCode side ──────────────────────────────────────────────────────────────────────────

  /** Links an OpenCode instance; its already-pending questions are picked up in the background. */
  attach(link: InstanceLink): void {
    this.#instances.add(link);
    void link.opencode
      .listQuestions()
      .then((requests) => {
        for (const request of requests) this.#onQuestionAsked(link.directory, request);
      })
      .catch((error) => this.#log.warn({ err: describe(error), directory: link.directory }, "could not list pending questions"));
  }

  /** Unlinks an instance. When it was the last one for its directory, that directory's prompts are dropped. */
  detach(link: InstanceLink): Promise<void> {
    this.#instances.delete(link);
    if (this.#linkFor(link.directory)) return Promise.resolve();
    return this.#closeDirectory(link.directory);
  }

  handleEvent(directory: string, event: HermesEvent): void {
    if (this.#stopped) return;
    switch (event.type) {
      case "question.asked":
        return this.#onQuestionAsked(directory, event.request);
      case "question.replied":
        return this.#onSettledElsewhere(event.requestID, "answered_elsewhere", event.answers);
      case "question.rejected":
        return this.#onSettledElsewhere(event.requestID, "dismissed_elsewhere");
      case "session.upserted": {
        const before = this.#registry.sessions.title(event.info.id);
        this.#registry.sessions.upsert(event.info);
        if (event.info.title && event.info.title !== before) this.#refreshSession(event.info.id);
        return;
      }
      case "session.deleted":
        return this.#registry.sessions.delete(event.sessionID);
      case "instance.disposed":
        void this.#closeDirectory(event.directory);
        return;
      default:
        return;
    }
  }

  #onQuestionAsked(directory: string, request: QuestionRequest): void {
    const prompt = this.#registry.addQuestion(request, directory, this.#now());
    if (!prompt) return;
    this.#log.info({ requestID: prompt.requestID, sessionID: prompt.sessionID, directory }, "question asked");
    if (this.#ttlMs > 0) {
      const timer = setTimeout(() => this.#enqueue(prompt, () => this.#expire(prompt)), this.#ttlMs);
      timer.unref?.();
      this.#expiry.set(prompt.key, timer);
    }
    const delivery = this.#deliver(prompt).finally(() => this.#delivering.delete(prompt.key));
    this.#delivering.set(prompt.key, delivery);
  }

  /** Sends the prompt first; a missing session title is looked up afterwards and filled in by an edit. */
  async #deliver(prompt: QuestionPrompt): Promise<void> {
    if (prompt.state !== "pending") return this.#registry.forget(prompt); // settled before it reached the phone: nothing to send
    const rendered = this.#render(prompt);
    try {
      const sent = await sendWithRetry(() => this.#telegram.sendMessage(this.#access.chatId, rendered.text, { keyboard: rendered.keyboard }), this.#log);
      prompt.message = { chatId: this.#access.chatId, messageId: sent.messageId };
      this.#log.info({ requestID: prompt.requestID, messageId: sent.messageId }, "question delivered");
    } catch (error) {
      this.#log.error({ err: describe(error), requestID: prompt.requestID }, "could not deliver question to Telegram");
      return;
    }
    // Anything that changed while the message was on its way is shown now.
    if (this.#render(prompt).text !== rendered.text) await this.#refresh(prompt);
    if (prompt.state !== "pending") this.#registry.forget(prompt);
    if (!this.#registry.sessions.title(prompt.sessionID)) void this.#lookUpTitle(prompt);
  }

  async #lookUpTitle(prompt: QuestionPrompt): Promise<void> {
    const title = await this.#linkFor(prompt.directory)
      ?.opencode.sessionTitle(prompt.sessionID)
      .catch(() => undefined);
    if (!title || this.#registry.sessions.title(prompt.sessionID)) return;
    this.#registry.sessions.upsert({ id: prompt.sessionID, title });
    this.#refreshSession(prompt.sessionID);
  }

  #onSettledElsewhere(requestID: string, state: "answered_elsewhere" | "dismissed_elsewhere", answers?: string[][]): void {
    const prompt = this.#registry.byRequest(requestID);
    if (!prompt || prompt.state !== "pending") return;
    // Our own reply echoes back as `question.replied`: the reply path settles it.
    if (prompt.busy && (state === "dismissed_elsewhere" ? prompt.sentAnswers === undefined : sameAnswers(prompt.sentAnswers, answers))) return;
    this.#enqueue(prompt, () => this.#settle(prompt, state, answers));
  }

  #closeDirectory(directory: string): Promise<void> {
    const prompts = this.#registry.pendingIn(directory);
    return Promise.all(prompts.map((prompt) => this.#enqueue(prompt, () => this.#settle(prompt, "gone")))).then(() => undefined);
  }

  #refreshSession(sessionID: string): void {
    for (const prompt of this.#registry.pending()) {
      if (prompt.sessionID === sessionID && prompt.message) void this.#enqueue(prompt, () => this.#refresh(prompt));
    }
  }

  // ── Telegram side ──────────────────────────────────────────────────────────────────────────

  /** Handles one update without waiting for OpenCode: the poller must keep polling. */
  async handleUpdate(update: unknown): Promise<void> {
    if (this.#stopped) return;
    const intent = parseUpdate(update);
    if (!intent) return;
    switch (intent.kind) {
      case "callback":
        return this.#onCallback(intent);
      case "command":
        return this.#onCommand(intent);
      case "text":
        return this.#onText(intent);
    }
  }

  async #onCallback(intent: Extract<Intent, { kind: "callback" }>): Promise<void> {
    if (!mayAct(this.#access, intent.from)) {
      this.#log.warn({ userId: intent.from.userId, chatId: intent.from.chatId }, "ignored a button tap from an unauthorized user or chat");
      return this.#answerCallback(intent.id, "Not authorized", true);
    }
    const data = decodeCallback(intent.data);
    const prompt = data ? this.#registry.byKey(data.key) : undefined;
    // A tap can race the sendMessage response that tells us the message id.
    if (prompt && !prompt.message) await this.#delivering.get(prompt.key);
    const sameMessage = prompt?.message?.messageId === intent.messageId && prompt?.message?.chatId === intent.from.chatId;
    if (!data || !prompt || !sameMessage || prompt.state !== "pending") {
      await this.#answerCallback(intent.id, NOT_PENDING);
      // Strip the buttons only from a stale message: a live prompt's own buttons stay.
      if (intent.messageId !== undefined && !(prompt && sameMessage)) void this.#telegram.removeKeyboard(intent.from.chatId, intent.messageId).catch(() => undefined);
      return;
    }
    if (prompt.busy) return this.#answerCallback(intent.id, "Sending your answer…");

    let result: TapResult;
    switch (data.action) {
      case "option":
        result = tapOption(prompt, data.question, data.option);
        break;
      case "done":
        result = confirmTicked(prompt, data.question);
        break;
      case "type":
        result = data.question === currentQuestion(prompt) && prompt.questions[data.question]?.custom ? { ok: true, note: "Reply to the next message with your answer" } : { ok: false, note: "That question is already answered" };
        break;
      case "dismiss":
        prompt.dismissArmed = true;
        result = { ok: true, note: "Tap Confirm to dismiss the question" };
        break;
      case "confirm":
        result = prompt.dismissArmed ? { ok: true, note: "Dismissing…" } : { ok: false, note: "Tap Dismiss first" };
        break;
    }
    await this.#answerCallback(intent.id, result.note, !result.ok && data.action !== "confirm" ? false : undefined);
    if (!result.ok) return;

    if (data.action === "type") return this.#enqueue(prompt, () => this.#askForText(prompt, data.question));
    if (data.action === "confirm") return this.#enqueue(prompt, () => this.#dismiss(prompt));
    return this.#enqueue(prompt, () => (isComplete(prompt) ? this.#submit(prompt) : this.#refresh(prompt)));
  }

  async #onCommand(intent: Extract<Intent, { kind: "command" }>): Promise<void> {
    if (intent.name !== "start") return;
    const configured = intent.from.chatId === this.#access.chatId;
    const lines = [
      `👋 This is <b>Hermes</b>, the OpenCode bridge.`,
      `This chat's id is <code>${intent.from.chatId}</code> and your user id is <code>${intent.from.userId}</code>.`,
      configured
        ? "✅ This chat is configured: OpenCode's questions will appear here."
        : `Set <code>HERMES_TELEGRAM_CHAT_ID=${intent.from.chatId}</code> to receive OpenCode's questions in this chat.`,
    ];
    await this.#telegram.sendMessage(intent.from.chatId, lines.join("\n"), { replyTo: intent.messageId }).catch((error) => {
      this.#log.warn({ err: describe(error) }, "could not answer /start");
    });
  }

  async #onText(intent: Extract<Intent, { kind: "text" }>): Promise<void> {
    if (!mayAct(this.#access, intent.from)) {
      this.#log.debug({ userId: intent.from.userId, chatId: intent.from.chatId }, "ignored a message from an unauthorized user or chat");
      return;
    }
    const sender = senderKey(intent.from);
    const replied = intent.replyTo === undefined ? undefined : this.#registry.inputFor({ chatId: intent.from.chatId, messageId: intent.replyTo });
    if (replied) return this.#joiner.start(sender, replied, intent.text);
    if (this.#joiner.append(sender, intent.text)) return;
    // A plain message while exactly one answer is awaited in this chat is that answer.
    const awaited = this.#registry.inputsIn(intent.from.chatId);
    if (intent.replyTo === undefined && awaited.length === 1) return this.#joiner.start(sender, awaited[0]!, intent.text);
  }

  #onTypedAnswer(input: TextInput, text: string): void {
    const prompt = this.#registry.byKey(input.key);
    if (!prompt || prompt.state !== "pending") return;
    void this.#enqueue(prompt, async () => {
      if (prompt.state !== "pending") return;
      const result = typeAnswer(prompt, input.questionIndex, text);
      if (!result.ok) {
        await this.#telegram.sendMessage(input.message.chatId, `⚠️ ${escapeHtml(result.note)}`, { replyTo: input.message.messageId }).catch(() => undefined);
        return;
      }
      this.#registry.disarmInputs(prompt.key);
      void this.#telegram.deleteMessage(input.message.chatId, input.message.messageId).catch(() => undefined);
      await (isComplete(prompt) ? this.#submit(prompt) : this.#refresh(prompt));
    });
  }

  async #askForText(prompt: QuestionPrompt, questionIndex: number): Promise<void> {
    const question = prompt.questions[questionIndex];
    if (!question || prompt.state !== "pending") return;
    const header = question.header || question.question;
    const text = `✍️ Reply to this message with your answer to <b>${escapeHtml(cutText(header, 200))}</b>.`;
    const sent = await sendWithRetry(
      () => this.#telegram.sendMessage(this.#access.chatId, text, { forceReply: { placeholder: cutText(header, 60) }, replyTo: prompt.message?.messageId }),
      this.#log,
    ).catch((error) => {
      this.#log.warn({ err: describe(error) }, "could not ask for a typed answer");
      return undefined;
    });
    if (!sent || prompt.state !== "pending") return;
    for (const old of this.#registry.disarmInputs(prompt.key)) void this.#telegram.deleteMessage(old.message.chatId, old.message.messageId).catch(() => undefined);
    this.#registry.armInput({ key: prompt.key, questionIndex, message: { chatId: this.#access.chatId, messageId: sent.messageId } });
  }

  // ── Answering OpenCode ─────────────────────────────────────────────────────────────────────

  async #submit(prompt: QuestionPrompt): Promise<void> {
    if (prompt.state !== "pending") return;
    const checked = validateAnswers(prompt.questions, prompt.answers);
    if (!checked.ok) {
      prompt.notice = checked.error;
      reopenLastAnswer(prompt);
      return this.#refresh(prompt);
    }
    const link = this.#linkFor(prompt.directory);
    if (!link) return this.#settle(prompt, "gone");
    prompt.busy = true;
    prompt.sentAnswers = checked.answers;
    await this.#refresh(prompt);
    const outcome = await link.opencode.replyQuestion(prompt.requestID, checked.answers);
    prompt.busy = false;
    this.#log.info({ requestID: prompt.requestID, outcome }, "question reply sent");
    await this.#afterOutcome(prompt, outcome, "answered", checked.answers);
  }

  async #dismiss(prompt: QuestionPrompt): Promise<void> {
    if (prompt.state !== "pending") return;
    const link = this.#linkFor(prompt.directory);
    if (!link) return this.#settle(prompt, "gone");
    prompt.busy = true;
    prompt.sentAnswers = undefined;
    await this.#refresh(prompt);
    const outcome = await link.opencode.rejectQuestion(prompt.requestID);
    prompt.busy = false;
    this.#log.info({ requestID: prompt.requestID, outcome }, "question dismissed");
    prompt.dismissArmed = false;
    await this.#afterOutcome(prompt, outcome, "dismissed");
  }

  async #expire(prompt: QuestionPrompt): Promise<void> {
    if (prompt.state !== "pending") return;
    const link = this.#linkFor(prompt.directory);
    const outcome: Outcome = link ? await link.opencode.rejectQuestion(prompt.requestID) : { ok: false, gone: true };
    this.#log.info({ requestID: prompt.requestID, outcome }, "question expired");
    if (!outcome.ok && !outcome.gone) {
      prompt.notice = `It expired, but dismissing it failed: ${outcome.error}`;
      return this.#refresh(prompt);
    }
    await this.#settle(prompt, outcome.ok ? "expired" : "gone");
  }

  async #afterOutcome(prompt: QuestionPrompt, outcome: Outcome, success: PromptState, answers?: string[][]): Promise<void> {
    if (prompt.state !== "pending") return; // settled meanwhile by an event
    if (outcome.ok) return this.#settle(prompt, success, answers);
    if (outcome.gone) return this.#settle(prompt, "gone");
    // Keep it answerable: the user sees why and can tap again.
    prompt.notice = `Could not reach OpenCode (${outcome.error}). Tap again to retry.`;
    if (success === "answered") reopenLastAnswer(prompt);
    await this.#refresh(prompt);
  }

  /** Final state: the message shows the outcome with no live buttons, and the prompt is forgotten. */
  async #settle(prompt: QuestionPrompt, state: PromptState, answers?: string[][]): Promise<void> {
    if (prompt.state !== "pending") return;
    prompt.state = state;
    prompt.busy = false;
    prompt.notice = undefined;
    if (answers) prompt.finalAnswers = answers;
    clearTimeout(this.#expiry.get(prompt.key));
    this.#expiry.delete(prompt.key);
    for (const input of this.#registry.disarmInputs(prompt.key)) void this.#telegram.deleteMessage(input.message.chatId, input.message.messageId).catch(() => undefined);
    this.#log.info({ requestID: prompt.requestID, state }, "question settled");
    // Still on its way to the phone: delivery shows the final state (or skips sending).
    if (!prompt.message) return;
    await this.#refresh(prompt);
    this.#registry.forget(prompt);
  }

  async #refresh(prompt: QuestionPrompt): Promise<void> {
    if (!prompt.message) return;
    const rendered = this.#render(prompt);
    try {
      await sendWithRetry(() => this.#telegram.editMessage(prompt.message!.chatId, prompt.message!.messageId, rendered.text, rendered.keyboard), this.#log);
    } catch (error) {
      this.#log.warn({ err: describe(error), requestID: prompt.requestID }, "could not update the Telegram message");
    }
  }

  #render(prompt: QuestionPrompt) {
    const session = this.#registry.sessions.get(prompt.sessionID);
    return renderQuestion(prompt, { project: path.basename(prompt.directory) || prompt.directory, ...(session?.title ? { sessionTitle: session.title } : {}) });
  }

  // ── Plumbing ───────────────────────────────────────────────────────────────────────────────

  /** Runs work for one prompt strictly in order, so two quick taps can't race. */
  #enqueue(prompt: QuestionPrompt, work: () => Promise<void>): Promise<void> {
    const previous = this.#queues.get(prompt.key) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error) => this.#log.error({ err: describe(error), requestID: prompt.requestID }, "prompt handling failed"))
      .finally(() => {
        if (this.#queues.get(prompt.key) === next) this.#queues.delete(prompt.key);
      });
    this.#queues.set(prompt.key, next);
    return next;
  }

  #linkFor(directory: string): InstanceLink | undefined {
    let found: InstanceLink | undefined;
    for (const link of this.#instances) if (link.directory === directory) found = link; // the newest wins
    return found;
  }

  async #answerCallback(id: string, text?: string, alert?: boolean): Promise<void> {
    await this.#telegram.answerCallback(id, text, alert).catch((error) => this.#log.warn({ err: describe(error) }, "could not answer a callback query"));
  }

  /** Settles every pending prompt as no longer pending (their buttons go) and stops all timers. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    await Promise.all([...this.#delivering.values()]);
    const pending = this.#registry.pending();
    await Promise.all(pending.map((prompt) => this.#enqueue(prompt, () => this.#settle(prompt, "gone"))));
    this.#stopped = true;
    this.#joiner.clear();
    for (const timer of this.#expiry.values()) clearTimeout(timer);
    this.#expiry.clear();
  }
}

function senderKey(sender: Sender): string {
  return `${sender.chatId}:${sender.userId}`;
}

function sameAnswers(a: string[][] | undefined, b: string[][] | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
