// /new: a new session, started from the phone, in a project Hermes serves right now in some process
// of this machine. Every process sharing the bot adds the directories it serves (the command is
// gathered like /status); the one that polls answers: with one project it serves itself and an
// instruction, it starts the session at once; otherwise it posts a picker, a button per project
// (only directories some process serves: never a path typed on the phone). A tap is claimed by the
// process that serves the tapped project, which creates the session through OpenCode's own API and
// sends the instruction (the picker replies to the /new message, whose text Telegram hands back
// with the tap); without one, it asks for it (force reply) and takes the reply. From then on the
// session is any phone-started run: Running with Stop, progress, Done, and a reply continues it.
// Only updates from those who may act arrive here (lib/bridge/core/gate.ts).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { renderAskText, renderPicked } from "../../telegram/render/render-new.ts";
import { parseCommand } from "../../telegram/wire/updates.ts";
import { RecentIds } from "../../util/recent-ids.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingCommand, ActingTap, ActingText } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { parseProjectsPart, projectKey, type ProjectsPart, projectPicker } from "./projects-part.ts";
import type { TalkBack, UserMessage } from "../runs/talk-back.ts";
import type { SessionTopics } from "../core/topics.ts";
import { startSession } from "./start-session.ts";
import { escapeHtml } from "../../text/html.ts";

export interface NewSessionDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  topics: Pick<SessionTopics, "enabled">;
  log: Logger;
  t: Strings;
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "reply" | "send" | "answerCallback">;
  talk: Pick<TalkBack, "talkBack">;
}

/** A force-reply request for a new session's first instruction, by "chatId:messageId". */
interface AwaitedText {
  directory: string;
}

const AWAITED_LIMIT = 100;
const NOT_ANSWERED = "could not answer /new";

export class NewSessions {
  readonly #deps: NewSessionDeps;
  /** At most AWAITED_LIMIT: the oldest request is forgotten first. */
  readonly #awaited = new Map<string, AwaitedText>();
  /** Pickers already tapped here ("chatId:messageId"): a second tap (before its buttons go) starts nothing. */
  readonly #picked = new RecentIds<string>(AWAITED_LIMIT);

  constructor(deps: NewSessionDeps) {
    this.#deps = deps;
  }

  gathers(intent: ActingCommand): boolean {
    return intent.name === "new";
  }

  /** The directories this process serves. */
  async partFor(intent: ActingCommand): Promise<ProjectsPart | undefined> {
    return intent.name === "new" ? { directories: this.#deps.links.directories() } : undefined;
  }

  /** /new, answered once by the process that polls, with every process' directories. */
  unclaimed(intent: ActingCommand, parts: readonly unknown[] | undefined): Promise<void> | undefined {
    if (intent.name !== "new") return undefined;
    return this.#answer(intent, parts ?? []);
  }

  /** A tap on the picker: claimed by the process that serves the tapped project. */
  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "newIn") return undefined;
    const directory = this.#deps.links.directories().find((served) => projectKey(served) === data.key);
    if (directory === undefined) return undefined;
    return async () => {
      if (this.#picked.add(`${intent.from.chatId}:${intent.messageId}`)) return this.#pick(intent, directory);
      await this.#deps.chat.answerCallback(intent.id, this.#deps.t.steer.starting);
    };
  }

  /** The reply to this process' request for a new session's first instruction. */
  claimText(intent: ActingText): Claim | undefined {
    if (intent.replyTo === undefined) return undefined;
    const id = `${intent.from.chatId}:${intent.replyTo}`;
    const awaited = this.#awaited.get(id);
    if (!awaited) return undefined;
    return async () => {
      if (!this.#awaited.delete(id)) return;
      await this.#start(awaited.directory, intent.text, { chatId: intent.from.chatId, messageId: intent.messageId });
    };
  }

  async #answer(intent: ActingCommand, received: readonly unknown[]): Promise<void> {
    const { log, t, links } = this.#deps;
    const parts = received.map(parseProjectsPart).filter((part) => part !== undefined);
    if (parts.length < received.length) log.warn({ dropped: received.length - parts.length }, "dropped a malformed /new part from another process");
    const directories = [...new Set(parts.flatMap((part) => part.directories))];
    const replyTo = intent.messageId;
    if (directories.length === 0) return this.#deps.chat.reply(escapeHtml(t.steer.noProject), replyTo);
    const only = directories.length === 1 ? directories[0]! : undefined;
    // One project, served here: straight there. Served only by another process: its one button (the tap reaches it).
    if (only !== undefined && links.linkFor(only)) {
      if (intent.args === "") return this.#askForText(only, intent.from.chatId, replyTo);
      return this.#start(only, intent.args, { chatId: intent.from.chatId, messageId: replyTo });
    }
    const picker = projectPicker(directories, t, { worktree: true });
    await this.#deps.chat.send(picker.text, { keyboard: picker.keyboard, replyTo }, Priority.Answer, NOT_ANSWERED);
  }

  async #pick(intent: ActingTap, directory: string): Promise<void> {
    const { chat, t, outbox, telegram } = this.#deps;
    await chat.answerCallback(intent.id, t.steer.starting);
    const chatId = intent.from.chatId;
    if (chatId === undefined || intent.messageId === undefined) return;
    const picked = renderPicked(directory, t);
    const pickerId = intent.messageId;
    void outbox
      .edit(chatId, pickerId, () => () => telegram.editMessage(chatId, pickerId, picked.text, picked.keyboard), Priority.Answer)
      .catch(() => undefined);
    // The picker replies to the /new message: its instruction comes back with the tap.
    const command = intent.replied ? parseCommand(intent.replied.text) : undefined;
    const text = command?.name === "new" ? command.args : "";
    if (text === "" || !intent.replied) return this.#askForText(directory, chatId, pickerId);
    await this.#start(directory, text, { chatId, messageId: intent.replied.messageId });
  }

  async #askForText(directory: string, chatId: number, replyTo: number): Promise<void> {
    const { t, chat } = this.#deps;
    const sent = await chat.send(renderAskText(directory, t), { replyTo, forceReply: { placeholder: t.steer.placeholder } }, Priority.Answer, NOT_ANSWERED);
    if (!sent) return;
    const id = `${chatId}:${sent.messageId}`;
    this.#awaited.set(id, { directory });
    if (this.#awaited.size > AWAITED_LIMIT) this.#awaited.delete(this.#awaited.keys().next().value!);
  }

  /** Creates the session in `directory` and sends it the instruction as any text from the phone (Running, 👍, or why not). */
  async #start(directory: string, text: string, userMessage: UserMessage): Promise<void> {
    await startSession(this.#deps, { directory, text, userMessage });
  }
}
