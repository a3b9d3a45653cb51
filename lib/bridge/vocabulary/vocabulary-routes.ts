// OpenCode's own vocabulary on the gate (issue 43): `/commands`, `/compact`, `/fork`, `/history`
// and `/<command> <arguments>` typed as a reply to a session's message (or in its topic), the taps
// on their buttons and on ⑂ Fork, and the same words sent on their own (how to use them). Hermes's
// own names stay Hermes's: a reply `/undo` is still Undo's.
import { decodeCallback, isActionOn, type CallbackData, type VocabularyAction } from "../../telegram/codec.ts";
import { commandsFor } from "../../telegram/render/render-status.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import type { Chat } from "../core/chat.ts";
import type { Tap } from "../core/desk.ts";
import type { Gate, IntentOf, Route } from "../core/gate.ts";
import type { RunCosts } from "../runs/run-costs.ts";
import type { RunNotices } from "../runs/run-notices.ts";
import type { TalkBack } from "../runs/talk-back.ts";
import { CommandsList, type FlagTemplate } from "./commands-list.ts";
import { CompactRun } from "./compact-run.ts";
import { HistoryControl } from "./history-control.ts";
import { ForkControl } from "./fork-control.ts";
import type { DoneButtons } from "../runs/done-buttons.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";
import { VocabularyDesk, type VocabularyDeps } from "./vocabulary-desk.ts";

const OWN = new Set(["commands", "compact", "fork", "history"]);
/** `/name args` (or `/name@bot args`): a command's name is anything up to a space, an @ or a slash. */
const TYPED = /^\/([^\s@/]{1,64})(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/;

/** ⑂ Fork on the Done notice (the runs' seam, done-buttons.ts): there once the vocabulary's routes are added. */
export class VocabularyButtons implements DoneButtons {
  readonly row = "beside";
  #forks: ForkControl | undefined;

  async buttonsFor(owner: MessageOwner): Promise<InlineButton[]> {
    const button = this.#forks?.buttonFor(owner);
    return button ? [button] : [];
  }

  posted(notice: MessageRef, buttons: readonly InlineButton[]): void {
    if (buttons[0]) this.#forks?.noteNotice(notice, buttons[0]);
  }

  route(gate: Gate, deps: VocabularyRouteDeps): void {
    this.#forks = routeVocabulary(gate, deps);
  }
}

export type VocabularyRouteDeps = Parameters<typeof routeVocabulary>[1];

/** The routes; the Fork control the Done notice's button uses. */
export function routeVocabulary(
  gate: Gate,
  deps: VocabularyDeps & {
    chat: Pick<Chat, "reply" | "answerCallback">;
    runs: Pick<RunNotices, "changes">;
    talk: Pick<TalkBack, "talkBack" | "acknowledge" | "activity">;
    costs: Pick<RunCosts, "compacted">;
    flagTemplate: FlagTemplate;
  },
): ForkControl {
  const posts = new VocabularyDesk(deps);
  const hermes = new Set([...commandsFor(deps.t).map((entry) => entry.command), "start", "help"]);
  const commands = new CommandsList(posts, hermes, deps.talk, deps.flagTemplate);
  const compact = new CompactRun(posts, deps.costs);
  const forks = new ForkControl(posts, deps.runs.changes);
  const history = new HistoryControl(posts, forks);
  const controls = [commands, forks, history];

  /** The work of /commands, /compact, /fork or /history for a session, sent as message `at` (in reply to `replyTo`). */
  const words = (owner: MessageOwner, name: string, at: number, replyTo: { chatId: number; messageId: number } | undefined) => {
    if (name === "commands") return () => commands.offer(owner, at);
    if (name === "compact") return () => compact.compact(owner, at);
    if (name === "fork") return () => forks.fork(owner, replyTo ? forks.pointOf(replyTo) : {}, replyTo?.messageId ?? at);
    return () => history.offer(owner, at);
  };

  const claimText: NonNullable<Route<IntentOf<"text">>["claim"]> = (intent) => {
    const match = TYPED.exec(intent.text.trim());
    if (!match) return undefined;
    const { registry, topics } = deps;
    const chatId = intent.from.chatId;
    const replyTo = intent.replyTo === undefined ? undefined : { chatId, messageId: intent.replyTo };
    if (replyTo && registry.inputFor(replyTo)) return undefined; // an awaited answer stays one
    const owner = (replyTo ? registry.ownerOf(replyTo) : undefined) ?? (intent.threadId !== undefined ? topics.ownerOf(intent.threadId) : undefined);
    if (!owner) return undefined;
    const name = match[1]!.toLowerCase();
    const at = intent.messageId;
    if (OWN.has(name)) return words(owner, name, at, replyTo);
    if (hermes.has(name)) return undefined;
    const userMessage = { chatId, messageId: at, ...(intent.threadId !== undefined ? { threadId: intent.threadId } : {}) };
    return () => commands.typed(owner, match[1]!, (match[2] ?? "").trim(), userMessage, () => deps.talk.talkBack(owner, userMessage, intent.text));
  };

  const claimTap: NonNullable<Route<IntentOf<"callback">>["claim"]> = (intent) => {
    const data = decodeCallback(intent.data);
    if (!data || !isActionOn(data.action, "vocabulary")) return undefined;
    const control = controls.find((candidate) => candidate.owns(data));
    if (!control) return undefined;
    const chatId = intent.from.chatId;
    const message = intent.messageId === undefined || chatId === undefined ? undefined : { chatId, messageId: intent.messageId };
    return async () => {
      const tap: Tap = control.tap(data as CallbackData<VocabularyAction>, message);
      await deps.chat.answerCallback(intent.id, tap.note(deps.t) || undefined, tap.alert);
      if (tap.next) await tap.next().catch((error: unknown) => deps.log.error({ err: String(error) }, "a tap of OpenCode's vocabulary failed"));
    };
  };

  gate.route("text", { claim: claimText });
  gate.route("callback", { claim: claimTap });
  gate.route("command", {
    // Sent in a session's topic (not as a reply): for that session, in the process whose topic it is.
    claim: (command) => {
      const owner = OWN.has(command.name) && command.threadId !== undefined ? deps.topics.ownerOf(command.threadId) : undefined;
      return owner ? words(owner, command.name, command.messageId, undefined) : undefined;
    },
    unclaimed: (command) => (OWN.has(command.name) ? deps.chat.reply(deps.t.vocabulary.howTo, command.messageId) : undefined),
  });
  return forks;
}
