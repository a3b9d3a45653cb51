// One prompt's life, from OpenCode's ask to its final message: delivery, edits, replies to
// OpenCode, settling, expiry and sending again. Prompt state (lib/registry/prompt.ts,
// lib/registry/question-prompt.ts, lib/registry/permission-prompt.ts) changes here, or through the registry's own transitions
// that the tap handlers call (tapOption, typeAnswer, …). Work on one prompt runs strictly in order, so two
// quick taps can't race (OpenCode's own question module keeps its pending map private the same way).
import type { Strings } from "../../i18n/catalog.ts";
import { prepareLoggerSoon, type Logger } from "../../system/log.ts";
import type { OpencodeEndpoint, Outcome } from "../../opencode/endpoint.ts";
import type { PermissionDecision, PermissionPrompt } from "../../registry/permission-prompt.ts";
import type { PromptState } from "../../registry/prompt.ts";
import { reopenLastAnswer, type QuestionPrompt } from "../../registry/question-prompt.ts";
import type { Prompt, Registry } from "../../registry/registry.ts";
import type { HermesEvent } from "../../hermes-events.ts";
import { errorText } from "../../util/error-text.ts";
import type { Chat } from "../core/chat.ts";
import type { InstanceLink, PromptDesk } from "../core/desk.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { feedbackAsMessage, replyFor, sendFeedback } from "./permission-feedback.ts";
import type { PermissionJudge } from "./permission-judge.ts";
import { SessionAllowing } from "./session-allowing.ts";
import { RICH_UNSENT, type PromptMessages } from "./prompt-messages.ts";
import type { ReplyConfirmation } from "./reply-confirmation.ts";
import { SerialQueues } from "./serial-queues.ts";
import { lookUpSession } from "./session-lookup.ts";
import { rejectExpired } from "./prompt-expiry.ts";
import type { Html } from "../../text/html.ts";
import { warmUpTextSoon } from "../../text/warm-up.ts";
import { warmUpRendererSoon } from "../../telegram/render/render-warm-up.ts";

export interface PromptLifeDeps {
  registry: Registry;
  messages: PromptMessages;
  replies: ReplyConfirmation;
  links: InstanceLinks;
  chat: Chat;
  log: Logger;
  t: Strings;
  /** How long an unanswered prompt waits before it is dismissed (questions) or rejected (permissions); 0 means never. */
  ttl: Record<Prompt["kind"], number>;
  /** Risk flags and session rules (issue 42); without it permissions show no flags and offer no session rule. */
  judge?: PermissionJudge;
  /** The digest (lib/bridge/walkaway/digest-feed.ts): every prompt as it ends; before one reaches the phone, the desk's delay (HERMES_DESK_DELAY). */
  digest?: { settled(prompt: Prompt): void; delivering(): Promise<void> };
}

type Replied = Extract<HermesEvent, { type: "question.replied" | "question.rejected" | "permission.replied" }>;

/** A reply slower than this shows "Sending…" meanwhile. */
const SENDING_SHOWN_AFTER_MS = 400;

export class PromptLife implements PromptDesk {
  /** Allow-in-this-session replies on their way, by root session. */
  readonly #allowing = new SessionAllowing((sessionID) => this.#deps.registry.sessions.rootOf(sessionID));
  readonly t: Strings;
  readonly #deps: PromptLifeDeps;
  readonly #queues = new SerialQueues();
  readonly #delivering = new Map<string, Promise<void>>();
  readonly #expiry = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(deps: PromptLifeDeps) {
    this.#deps = deps;
    this.t = deps.t;
  }

  /** A run started and its prompts may follow: the logger and what their first render needs are made ready on a timer (warm-up.ts). */
  runStarted(): void {
    prepareLoggerSoon(this.#deps.log);
    warmUpTextSoon();
    warmUpRendererSoon(this.t);
  }

  /** A prompt OpenCode just raised (undefined: known already, another instance reported it): delivered, and timed if it expires. */
  track(prompt: Prompt | undefined): void {
    if (!prompt) return;
    this.#deps.log.info({ kind: prompt.kind, requestID: prompt.requestID, sessionID: prompt.sessionID, directory: prompt.directory }, "prompt asked");
    const ttl = this.#deps.ttl[prompt.kind];
    if (ttl > 0) {
      const timer = setTimeout(() => this.enqueue(prompt, () => this.#expire(prompt)), ttl);
      timer.unref?.();
      this.#expiry.set(prompt.key, timer);
    }
    const delivery = this.#deliver(prompt).finally(() => this.#delivering.delete(prompt.key));
    this.#delivering.set(prompt.key, delivery);
  }

  /** Until the prompt's first message went out (or failed): a tap can race the sendMessage response. */
  delivered(prompt: Prompt): Promise<void> {
    return this.#delivering.get(prompt.key) ?? Promise.resolve();
  }

  /** OpenCode says a request was answered: our own reply's echo confirms it; anyone else's settles the prompt. */
  onReplied(event: Replied): void {
    const known = this.#deps.registry.byRequest(event.requestID);
    const pending = known?.state === "pending" ? known : undefined;
    if (event.type === "permission.replied") {
      // Our once ended as reject after all: no rule stays of it (session-allowing.ts).
      if (event.reply === "reject" && this.#allowing.rejected(event.requestID) && known?.kind === "permission") known.sessionScope = undefined;
      const prompt = pending?.kind === "permission" ? pending : undefined;
      const by = this.#deps.replies.permissionReplied(event.sessionID, event.requestID, event.reply, prompt);
      if (!prompt || by === "own") return;
      prompt.final = { reply: event.reply, by };
      void this.enqueue(prompt, () => this.settle(prompt, "answered_elsewhere"));
      return;
    }
    if (pending?.kind !== "question") return;
    const answers = event.type === "question.replied" ? event.answers : undefined;
    if (this.#deps.replies.questionReplied(pending, answers)) return;
    if (answers) pending.finalAnswers = answers;
    void this.enqueue(pending, () => this.settle(pending, answers ? "answered_elsewhere" : "dismissed_elsewhere"));
  }

  /**
   * Shows the prompt's current state on its message. A prompt settle() already forgot shows its
   * outcome for good: a refresh queued behind its reply (a session's title that came meanwhile)
   * would only repeat it, and its edit cache is gone with it, so it is not edited again.
   */
  refresh(prompt: Prompt): Promise<void> {
    if (this.#deps.registry.byKey(prompt.key) !== prompt) return Promise.resolve();
    return this.#deps.messages.edit(prompt);
  }

  reply(text: Html, replyTo: number): Promise<void> {
    return this.#deps.chat.reply(text, replyTo);
  }

  /** Sends a question's answers (undefined: dismisses it), waits for OpenCode to apply them, and shows the outcome. */
  async answerQuestion(prompt: QuestionPrompt, answers: string[][] | undefined): Promise<void> {
    if (prompt.state !== "pending") return;
    prompt.sentAnswers = answers;
    if (!answers) prompt.dismissArmed = false;
    const { requestID } = prompt;
    const outcome = await this.#send(prompt, ({ opencode }) => (answers ? opencode.replyQuestion(requestID, answers) : opencode.rejectQuestion(requestID)));
    if (!outcome) return;
    this.#deps.log.info({ requestID: prompt.requestID, what: answers ? "reply" : "dismiss", outcome }, "question answer sent");
    if (prompt.state !== "pending") return; // settled meanwhile by an event
    if (outcome.ok && answers) prompt.finalAnswers = prompt.sentAnswers;
    else if (!outcome.ok && !outcome.gone && answers) reopenLastAnswer(prompt); // one more tap retries
    await this.#conclude(prompt, outcome, answers ? "answered" : "dismissed");
  }

  /**
   * Sends a permission decision, waits for OpenCode to apply it, and shows the outcome. Feedback
   * the reject would drop (OpenCode 2) follows as the session's next message (permission-feedback.ts).
   */
  async decidePermission(prompt: PermissionPrompt, decision: PermissionDecision, onTaken?: () => void): Promise<void> {
    if (prompt.state !== "pending") return;
    prompt.sent = decision;
    let opencode: OpencodeEndpoint | undefined;
    const outcome = await this.#send(prompt, (link) => {
      opencode = link.opencode;
      return link.opencode.replyPermission(prompt.requestID, replyFor(decision, link.opencode));
    });
    if (!outcome) return;
    this.#deps.log.info({ requestID: prompt.requestID, reply: decision.reply, outcome }, "permission decision sent");
    if (prompt.state !== "pending") return; // settled meanwhile by an event
    if (outcome.ok) prompt.final = { ...decision, by: "telegram" };
    // OpenCode took it: what follows from it starts now, before the message shows it (the next request may be on its way).
    if (outcome.ok) onTaken?.();
    if (outcome.ok && opencode && feedbackAsMessage(decision, opencode)) {
      prompt.busy = true; // no tap in between: the reject took effect, the message is on its way
      const main = this.#deps.registry.sessions.rootOf(prompt.sessionID);
      prompt.feedbackAsMessage = await sendFeedback(opencode, prompt, decision.message, main, this.t).finally(() => (prompt.busy = false));
      this.#deps.log.info({ requestID: prompt.requestID, sent: prompt.feedbackAsMessage.sent }, "feedback sent as the session's next message");
    }
    await this.#conclude(prompt, outcome, "answered");
  }

  /** "Allow in this session": allowed once, and a rule once OpenCode took it (session-allowing.ts). */
  async allowInSession(prompt: PermissionPrompt): Promise<void> {
    const judge = this.#deps.judge;
    const scope = judge?.scopeFor(prompt);
    if (!judge || !scope || prompt.state !== "pending") return;
    const decide = (onTaken: () => void) => this.decidePermission(prompt, { reply: "once" }, onTaken);
    if (!(await this.#allowing.allow(prompt, judge, scope, decide))) await this.refresh(prompt);
  }

  async askForText(prompt: Prompt, questionIndex: number, label: string): Promise<void> {
    if (prompt.state !== "pending") return;
    const message = await this.#deps.messages.askForText(prompt, label);
    if (!message || prompt.state !== "pending") return;
    const { registry, chat } = this.#deps;
    for (const old of registry.disarmInputs(prompt.key)) chat.delete(old.message);
    registry.armInput({ key: prompt.key, questionIndex, message });
  }

  /** Final state: the message shows the outcome with no live buttons, and the prompt is forgotten. */
  async settle(prompt: Prompt, state: PromptState): Promise<void> {
    if (prompt.state !== "pending") return;
    const { registry, replies, chat, log, messages } = this.#deps;
    prompt.state = state;
    prompt.busy = false;
    replies.settled(prompt.requestID);
    prompt.notice = undefined;
    clearTimeout(this.#expiry.get(prompt.key));
    this.#expiry.delete(prompt.key);
    for (const input of registry.disarmInputs(prompt.key)) chat.delete(input.message);
    log.info({ kind: prompt.kind, requestID: prompt.requestID, state }, "prompt settled");
    this.#deps.digest?.settled(prompt);
    // Still on its way to the phone: delivery shows the final state (or skips sending).
    if (!prompt.message) return;
    await this.refresh(prompt);
    registry.forget(prompt);
    messages.forget(prompt.key);
  }

  /** The directory's OpenCode instance is gone: its prompts are no longer pending. */
  closeDirectory(directory: string): Promise<void> {
    return this.#settleAll(this.#deps.registry.pendingIn(directory), "gone");
  }

  /** A run stopped from the phone: OpenCode keeps its prompts pending (measured on 1.1.53 and 1.18.33), so they are dismissed or rejected. */
  async closeRun(sessionID: string): Promise<void> {
    const { registry } = this.#deps;
    // `sessionID` is the run's root (Stop stops roots): every sub-agent below it, however deep, is in the run.
    const inRun = (id: string) => registry.sessions.rootOf(id) === sessionID;
    const prompts = registry.pending().filter((prompt) => inRun(prompt.sessionID));
    const close = (prompt: Prompt) =>
      prompt.kind === "question" ? this.answerQuestion(prompt, undefined) : this.decidePermission(prompt, { reply: "reject" });
    await Promise.all(prompts.map((prompt) => this.enqueue(prompt, () => close(prompt))));
  }

  /** After a gap in the event stream: prompts OpenCode no longer lists are closed; one with a reply in flight is left to that reply. */
  closeUnlisted(known: Prompt[], live: ReadonlySet<string>): Promise<Prompt[]> {
    const gone = known.filter((prompt) => !live.has(prompt.requestID) && !prompt.busy);
    const close = (prompt: Prompt) => this.enqueue(prompt, async () => (prompt.state === "pending" && !prompt.busy ? this.settle(prompt, "gone") : undefined));
    return Promise.all(gone.map(close)).then(() => gone);
  }

  /** Hermes closes: every prompt ends as no longer pending, after what is being delivered or done for it. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#delivering.values()]);
    await this.#settleAll(this.#deps.registry.pending(), "gone");
    // Edits already queued for prompts settled just before (OpenCode 2 cancels a location's forms
    // right before its cleanup) go out too.
    await this.#queues.drained();
  }

  stop(): void {
    for (const timer of this.#expiry.values()) clearTimeout(timer);
    this.#expiry.clear();
  }

  /** Runs work for one prompt strictly in order, after what is queued for it. */
  enqueue(prompt: Prompt, work: () => Promise<void>): Promise<void> {
    const failed = (error: unknown) => this.#deps.log.error({ err: errorText(error), requestID: prompt.requestID }, "prompt handling failed");
    return this.#queues.run(prompt.key, work, failed);
  }

  /** A session's title or parent changed: its open prompts show it. */
  refreshSession(sessionID: string): void {
    const { registry } = this.#deps;
    for (const prompt of registry.pending()) {
      const session = registry.sessions.get(prompt.sessionID);
      if ((prompt.sessionID === sessionID || session?.parentID === sessionID) && prompt.message) void this.enqueue(prompt, () => this.refresh(prompt));
    }
  }

  /** /pending: the prompt again as a fresh message at the bottom of the chat (in its queue); the old one loses its buttons. */
  sendAgain(prompt: Prompt): Promise<void> {
    return this.enqueue(prompt, async () => {
      const old = prompt.message;
      if (prompt.state !== "pending" || !old) return;
      const { messages, registry } = this.#deps;
      const threadId = await messages.threadOf(prompt);
      // Files that could not be sent the first time get another try: with them, Allow comes back.
      if (prompt.kind === "permission" && prompt.files?.sent === false) await messages.attachFiles(prompt, threadId);
      const sent = await this.#post(prompt, threadId).catch(() => undefined);
      if (!sent) return;
      // post() recorded what the new copy shows: edits that would change nothing on it are skipped too.
      prompt.message = sent.message;
      registry.noteMessage(prompt.message, { sessionID: prompt.sessionID, directory: prompt.directory });
      messages.markSentAgain(old);
    });
  }

  /** Sends the prompt first; a missing session title is looked up afterwards and filled in by an edit. */
  async #deliver(prompt: Prompt): Promise<void> {
    const { messages, registry, log } = this.#deps;
    let shown: string;
    if (prompt.kind === "permission" && (await this.#judged(prompt))) return;
    await this.#deps.digest?.delivering();
    try {
      const threadId = await messages.threadOf(prompt);
      if (prompt.kind === "permission") await messages.attachFiles(prompt, threadId);
      const sent = await this.#post(prompt, threadId);
      if (!sent) return registry.forget(prompt);
      shown = sent.text;
      prompt.message = sent.message;
      registry.noteMessage(prompt.message, { sessionID: prompt.sessionID, directory: prompt.directory });
      log.info({ requestID: prompt.requestID, messageId: sent.message.messageId }, "prompt delivered");
    } catch (error) {
      log.error({ err: errorText(error), requestID: prompt.requestID }, "could not deliver prompt to Telegram");
      return;
    }
    // Anything that changed while the message was on its way is shown now.
    if (messages.render(prompt).text !== shown) await this.refresh(prompt);
    if (prompt.state !== "pending") registry.forget(prompt);
    const opencode = this.#deps.links.linkFor(prompt.directory)?.opencode;
    if (opencode) void lookUpSession(opencode, registry.sessions, prompt.sessionID).then((changed) => changed && this.refreshSession(prompt.sessionID));
  }

  /**
   * Reads a permission's risk flags before it goes out; a session rule answers an unflagged one
   * "once" by itself (true: answered, no message). If that reply fails, the request is asked as usual.
   */
  async #judged(prompt: PermissionPrompt): Promise<boolean> {
    const judge = this.#deps.judge;
    if (!judge) return false;
    prompt.flags = await judge.flag(prompt);
    // An Allow-in-this-session of the same session still on its way: its rule may answer this one.
    await this.#allowing.settled(prompt.sessionID);
    const rule = prompt.flags.length === 0 && prompt.state === "pending" ? judge.covering(prompt) : undefined;
    if (!rule) return false;
    prompt.answeredByRule = rule.scope.map((scope) => scope.text).join(", ") || rule.permission;
    await this.enqueue(prompt, () => this.decidePermission(prompt, { reply: "once" }));
    if (prompt.state === "pending") return false;
    this.#deps.registry.forget(prompt);
    this.#deps.messages.forget(prompt.key);
    if (prompt.state === "answered") judge.answered(prompt, rule);
    this.#deps.log.info({ requestID: prompt.requestID, rule: rule.key, state: prompt.state }, "permission answered by a session rule");
    return true;
  }

  /** The prompt's message; a rich one the server turned out not to take goes as today's, its files first. */
  async #post(prompt: Prompt, threadId: number | undefined): Promise<{ message: { chatId: number; messageId: number }; text: string } | undefined> {
    const { messages } = this.#deps;
    const sent = await messages.post(prompt, threadId);
    if (sent !== RICH_UNSENT) {
      // Its message shows the whole diff: Allow needs no file (lib/telegram/render/render-permission.ts' mayAllow).
      if (sent?.wholeDiff && prompt.kind === "permission") prompt.wholeDiff = true;
      return sent;
    }
    if (prompt.kind === "permission") await messages.attachFiles(prompt, threadId);
    const again = await messages.post(prompt, threadId);
    return again === RICH_UNSENT ? undefined : again;
  }

  /** Nobody answered in time: the question is dismissed, the permission rejected. */
  async #expire(prompt: Prompt): Promise<void> {
    if (prompt.state !== "pending") return;
    const outcome = await rejectExpired(this.#deps.links, prompt);
    this.#deps.log.info({ kind: prompt.kind, requestID: prompt.requestID, outcome }, "prompt expired");
    if (!outcome.ok && !outcome.gone) {
      const error = outcome.error;
      prompt.notice = (t) => t.note.expiredButFailed(error);
      return this.refresh(prompt);
    }
    await this.settle(prompt, outcome.ok ? "expired" : "gone");
  }

  /**
   * Sends a reply to OpenCode and waits until OpenCode applied it; undefined when the directory has
   * no instance any more (the prompt is then settled as gone). "Sending…" appears on the phone only
   * if it takes long enough to be noticed (a quick reply goes straight to its final state).
   */
  async #send(prompt: Prompt, call: (link: InstanceLink) => Promise<Outcome>): Promise<Outcome | undefined> {
    const link = this.#deps.links.linkFor(prompt.directory);
    if (!link) {
      await this.settle(prompt, "gone");
      return undefined;
    }
    prompt.busy = true;
    const timer = setTimeout(() => void this.refresh(prompt), SENDING_SHOWN_AFTER_MS);
    try {
      const sent = await call(link);
      return sent.ok && !(await this.#deps.replies.confirm(prompt)) ? { ok: false, gone: false, error: this.t.note.notApplied } : sent;
    } finally {
      clearTimeout(timer);
      prompt.busy = false;
    }
  }

  /** A reply's outcome for a prompt still pending: settled, or kept answerable with the reason shown (the user can tap again). */
  async #conclude(prompt: Prompt, outcome: Outcome, answered: PromptState): Promise<void> {
    if (outcome.ok) return this.settle(prompt, answered);
    if (outcome.gone) return this.settle(prompt, "gone");
    const error = outcome.error;
    prompt.notice = (t) => t.note.unreachable(error);
    await this.refresh(prompt);
  }

  #settleAll(prompts: Prompt[], state: PromptState): Promise<void> {
    return Promise.all(prompts.map((prompt) => this.enqueue(prompt, () => this.settle(prompt, state)))).then(() => undefined);
  }
}
