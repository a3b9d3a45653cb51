// Where text the user types goes: an awaited answer (a reply to a force-reply prompt, or the one
// answer awaited in the chat), or a session's next instruction (a reply to any of its messages,
// or a plain message in its forum topic), or, for a reply that is `/undo`, the undo of that
// session's last run (a reply starting with "/" arrives as text: lib/bridge/runs/undo-control.ts). Long
// texts Telegram split are joined back first. Only text from those who may act arrives here (lib/bridge/core/gate.ts).
import type { MessageOwner, Registry, TextInput } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { TextJoiner } from "../../text/text-joiner.ts";
import type { Sender } from "../../telegram/wire/updates.ts";
import type { ActingText } from "../core/gate.ts";
import type { UndoControl } from "../runs/undo-control.ts";
import type { TalkBack, UserMessage } from "../runs/talk-back.ts";
import { isUndoCommand } from "../runs/undo-control.ts";
import type { SessionTopics } from "../core/topics.ts";
import type { PromptTaps } from "../prompts/prompt-taps.ts";

type TextTarget = { input: TextInput; by: string } | { owner: MessageOwner; userMessage: UserMessage };

export interface TypedTextDeps {
  registry: Registry;
  topics: SessionTopics;
  quietMs: number;
  /** Where the text for an awaited input goes. */
  inputs: Pick<PromptTaps, "typed">;
  /** Where a session's next instruction goes. */
  talk: Pick<TalkBack, "talkBack">;
  undos: Pick<UndoControl, "offer">;
  /** A reply `/digest …` to a session's message: that session's digest (lib/bridge/walkaway/digest-command.ts). */
  digests?: { isDigest(text: string): boolean; digestFor(owner: MessageOwner, text: string, messageId: number): Promise<void> };
}

export class TypedText {
  readonly #deps: TypedTextDeps;
  readonly #joiner: TextJoiner<TextTarget>;

  constructor(deps: TypedTextDeps) {
    this.#deps = deps;
    this.#joiner = new TextJoiner(deps.quietMs, (target, text) =>
      "input" in target ? deps.inputs.typed(target.input, text, target.by) : void deps.talk.talkBack(target.owner, target.userMessage, text),
    );
  }

  /**
   * Whether the text concerns this process: what taking it means (run once the claim is granted),
   * or undefined to leave it to another process sharing the bot. Deciding changes nothing.
   */
  claim(intent: ActingText): Claim | undefined {
    const { registry, topics } = this.#deps;
    const sender = senderKey(intent.from);
    const userMessage: UserMessage = {
      chatId: intent.from.chatId,
      messageId: intent.messageId,
      ...(intent.from.name !== undefined ? { sender: intent.from.name } : {}),
    };
    const replyTo = intent.replyTo === undefined ? undefined : { chatId: intent.from.chatId, messageId: intent.replyTo };
    const input = replyTo ? registry.inputFor(replyTo) : undefined;
    const by = intent.from.name ?? String(intent.from.userId);
    if (input) return this.#start(sender, { input, by }, intent.text);
    // A reply to any other message of a session is a new instruction for that session (or /undo of its last run).
    const owner = replyTo ? registry.ownerOf(replyTo) : undefined;
    if (owner && isUndoCommand(intent.text)) return () => this.#deps.undos.offer(owner, intent.messageId);
    const digests = this.#deps.digests;
    if (owner && digests?.isDigest(intent.text)) return () => digests.digestFor(owner, intent.text, intent.messageId);
    if (owner) return this.#start(sender, { owner, userMessage }, intent.text);
    // A plain message in a session's forum topic is also for that session.
    const topicOwner = intent.threadId !== undefined ? topics.ownerOf(intent.threadId) : undefined;
    if (topicOwner) return this.#start(sender, { owner: topicOwner, userMessage: { ...userMessage, threadId: intent.threadId! } }, intent.text);
    if (this.#joiner.collecting(sender)) return async () => void this.#joiner.append(sender, intent.text);
    // A plain message while exactly one answer is awaited in this chat is that answer.
    const awaited = registry.inputsIn(intent.from.chatId);
    if (intent.replyTo !== undefined || awaited.length !== 1) return undefined;
    return this.#start(sender, { input: awaited[0]!, by }, intent.text);
  }

  clear(): void {
    this.#joiner.clear();
  }

  #start(sender: string, target: TextTarget, text: string): Claim {
    return async () => this.#joiner.start(sender, target, text);
  }
}

function senderKey(sender: Sender): string {
  return `${sender.chatId}:${sender.userId}`;
}
