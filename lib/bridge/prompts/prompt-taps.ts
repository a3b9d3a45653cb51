// What the user does to this process' prompts on the phone: button taps and typed answers. Only
// taps from those who may act arrive (the gate refuses the others, asking `ownsTap` here). This
// finds the prompt, checks whether it still waits, hands the meaning to the prompt kind's handler
// (questions.ts, permissions.ts), runs the work in the prompt's queue, and answers every tap; a tap
// nobody claimed (a prompt gone, an older copy) is answered here as stale.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { Prompt, Registry, TextInput } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback, type CallbackData } from "../../telegram/codec.ts";
import type { ActingTap, IntentOf } from "../core/gate.ts";
import type { Chat } from "../core/chat.ts";
import type { Tap } from "../core/desk.ts";
import { tapPermission, typePermissionFeedback } from "./permissions.ts";
import type { PromptLife } from "./prompt-life.ts";
import { tapQuestion, typeQuestionAnswer } from "./questions.ts";

type Callback = IntentOf<"callback">;

export interface PromptTapDeps {
  registry: Registry;
  prompts: PromptLife;
  chat: Chat;
  log: Logger;
  t: Strings;
}

export class PromptTaps {
  readonly #deps: PromptTapDeps;

  constructor(deps: PromptTapDeps) {
    this.#deps = deps;
  }

  /**
   * Whether a tap is on one of this process' prompts: the work to do once the claim
   * is granted. A tap on an older copy of a prompt (sent again by /pending) is left to the stale-tap
   * handling; a tap that raced the sendMessage response (message id not known yet) is claimed by its
   * key and checked when it runs: deciding never waits for Telegram.
   */
  claimTap(intent: ActingTap): Claim | undefined {
    const { registry } = this.#deps;
    const data = decodeCallback(intent.data);
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

  /** Whether a tap is on one of this process' prompts (any copy of it). */
  ownsTap(intent: Callback): boolean {
    const data = decodeCallback(intent.data);
    return data !== undefined && this.#deps.registry.byKey(data.key) !== undefined;
  }

  /** A tap from someone who may not act (gate.ts decides, and logs it). */
  refuse(intent: Callback): Promise<void> {
    return this.#deps.chat.answerCallback(intent.id, this.#deps.t.note.notAuthorized, true);
  }

  /** Typed text for an awaited input (a free-text answer, or a reject's feedback). */
  typed(input: TextInput, text: string, by?: string): void {
    const { registry, prompts, chat } = this.#deps;
    const prompt = registry.byKey(input.key);
    if (prompt?.state !== "pending") return;
    void prompts.enqueue(prompt, async () => {
      if (prompt.state !== "pending" || !registry.inputFor(input.message)) return;
      registry.disarmInputs(prompt.key);
      chat.delete(input.message);
      if (by !== undefined) prompt.tappedBy = by;
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
    prompt.tappedBy = intent.from.name ?? String(intent.from.userId);
    const tap: Tap = prompt.kind === "question" ? tapQuestion(prompts, prompt, data) : tapPermission(prompts, prompt, data);
    // The reply to OpenCode leaves before Telegram's acknowledgement of the tap (a macrotask later).
    if (tap.next) void prompts.enqueue(prompt, tap.next);
    await new Promise((resolve) => setImmediate(resolve));
    await chat.answerCallback(intent.id, tap.note(t), tap.alert);
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
