// What the user does to this process' prompts on the phone: button taps (on a prompt, or on Stop)
// and typed answers. Only taps from those who may act arrive (gate.ts refuses the others, asking
// `ownsTap` here). This finds the prompt, checks whether it still waits,
// hands the meaning to the prompt kind's handler (questions.ts, permissions.ts) or to Stop, runs
// the work in the prompt's queue, and answers every tap. Undo's taps go to runs/undo-control.ts.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { Prompt, Registry, TextInput } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback, type CallbackData, type StopAction, type UndoAction } from "../../telegram/codec.ts";
import type { ActingTap, IntentOf } from "../core/gate.ts";
import { errorText } from "../../util/error-text.ts";
import type { Chat } from "../core/chat.ts";
import type { Tap } from "../core/desk.ts";
import { tapPermission, typePermissionFeedback } from "../prompts/permissions.ts";
import type { PromptLife } from "../prompts/prompt-life.ts";
import { tapQuestion, typeQuestionAnswer } from "../prompts/questions.ts";
import type { StopControl } from "../runs/stop-control.ts";
import type { UndoControl } from "../runs/undo-control.ts";

type Callback = IntentOf<"callback">;

export interface UserInputDeps {
  registry: Registry;
  prompts: PromptLife;
  stops: Pick<StopControl, "owns" | "tap">;
  undos: Pick<UndoControl, "owns" | "tap">;
  chat: Chat;
  log: Logger;
  t: Strings;
}

export class UserInput {
  readonly #deps: UserInputDeps;

  constructor(deps: UserInputDeps) {
    this.#deps = deps;
  }

  /**
   * Whether a tap is on one of this process' prompts or Stop buttons: the work to do once the claim
   * is granted. A tap on an older copy of a prompt (sent again by /pending) is left to the stale-tap
   * handling; a tap that raced the sendMessage response (message id not known yet) is claimed by its
   * key and checked when it runs: deciding never waits for Telegram.
   */
  claimTap(intent: ActingTap): Claim | undefined {
    const { registry, stops } = this.#deps;
    const data = decodeCallback(intent.data);
    if (data && stops.owns(data)) return () => this.#stop(intent, data);
    if (data && this.#deps.undos.owns(data)) return () => this.#undo(intent, data);
    const prompt = data ? registry.byKey(data.key) : undefined;
    if (!data || !prompt) return undefined;
    if (prompt.message && !isOn(prompt, intent)) return undefined;
    return () => this.#tap(intent, prompt, data);
  }

  /** A tap nobody claimed. `unanswered`: a process sharing the bot did not answer, so its buttons stay and the user is asked to tap again. */
  async unclaimedTap(intent: ActingTap, unanswered: boolean): Promise<void> {
    if (unanswered) return this.#deps.chat.answerCallback(intent.id, this.#deps.t.note.notAnswering);
    await this.#stale(intent);
  }

  /** Whether a tap is on one of this process' prompts or Stop buttons (any copy of it). */
  ownsTap(intent: Callback): boolean {
    const data = decodeCallback(intent.data);
    return data !== undefined && (this.#deps.stops.owns(data) || this.#deps.undos.owns(data) || this.#deps.registry.byKey(data.key) !== undefined);
  }

  /** A tap from someone who may not act (gate.ts decides, and logs it). */
  refuse(intent: Callback): Promise<void> {
    return this.#deps.chat.answerCallback(intent.id, this.#deps.t.note.notAuthorized, true);
  }

  /** Typed text for an awaited input (a free-text answer, or a reject's feedback). */
  typed(input: TextInput, text: string): void {
    const { registry, prompts, chat } = this.#deps;
    const prompt = registry.byKey(input.key);
    if (prompt?.state !== "pending") return;
    void prompts.enqueue(prompt, async () => {
      if (prompt.state !== "pending" || !registry.inputFor(input.message)) return;
      registry.disarmInputs(prompt.key);
      chat.delete(input.message);
      if (prompt.kind === "question") await typeQuestionAnswer(prompts, prompt, input.questionIndex, text, input.message.messageId);
      else await typePermissionFeedback(prompts, prompt, text);
    });
  }

  /** A granted tap on one of this process' prompts: act, then acknowledge it. */
  async #tap(intent: ActingTap, prompt: Prompt, data: CallbackData): Promise<void> {
    const { prompts, chat, t } = this.#deps;
    if (!prompt.message) await prompts.delivered(prompt);
    if (!isOn(prompt, intent)) return this.#stale(intent);
    if (prompt.state !== "pending") return chat.answerCallback(intent.id, t.note.notPending);
    if (prompt.busy) return chat.answerCallback(intent.id, t.note.sending);
    const tap: Tap = prompt.kind === "question" ? tapQuestion(prompts, prompt, data) : tapPermission(prompts, prompt, data);
    // The reply to OpenCode leaves before Telegram's acknowledgement of the tap (a macrotask later).
    if (tap.next) void prompts.enqueue(prompt, tap.next);
    await new Promise((resolve) => setImmediate(resolve));
    await chat.answerCallback(intent.id, tap.note(t), tap.alert);
  }

  /** A granted tap on Stop or its confirmation. */
  async #stop(intent: ActingTap, data: CallbackData<StopAction>): Promise<void> {
    const { stops, chat, log, t } = this.#deps;
    const { chatId } = intent.from;
    const tap = stops.tap(data, intent.messageId === undefined || chatId === undefined ? undefined : { chatId, messageId: intent.messageId });
    await chat.answerCallback(intent.id, tap.note(t), tap.alert);
    if (tap.next) await tap.next().catch((error) => log.error({ err: errorText(error) }, "stopping a run failed"));
  }

  /** A granted tap on Undo, its confirmation, or Redo. */
  async #undo(intent: ActingTap, data: CallbackData<UndoAction>): Promise<void> {
    const { undos, chat, log, t } = this.#deps;
    const { chatId } = intent.from;
    const tap = undos.tap(data, intent.messageId === undefined || chatId === undefined ? undefined : { chatId, messageId: intent.messageId });
    await chat.answerCallback(intent.id, tap.note(t), tap.alert);
    if (tap.next) await tap.next().catch((error) => log.error({ err: errorText(error) }, "undoing a run failed"));
  }

  /**
   * A tap on a message whose prompt is gone (or on an older copy of it): say so, and drop its
   * buttons if Telegram's copy still has them (the phone may show buttons an edit already took
   * away; removing them again would be refused as changing nothing).
   */
  async #stale(intent: Callback): Promise<void> {
    const { chat, t } = this.#deps;
    await chat.answerCallback(intent.id, t.note.notPending);
    const { chatId } = intent.from;
    if (intent.messageId !== undefined && chatId !== undefined && intent.hasButtons !== false) chat.removeKeyboard({ chatId, messageId: intent.messageId });
  }
}

/** Whether the tap was on the prompt's current message. */
function isOn(prompt: Prompt, intent: Callback): boolean {
  return prompt.message?.messageId === intent.messageId && prompt.message?.chatId === intent.from.chatId;
}
