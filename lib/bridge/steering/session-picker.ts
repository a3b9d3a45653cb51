// /sessions: the recent root sessions of every project Hermes serves, newest first, as buttons.
// Every process adds its own (gathered like /status) and remembers which key is which session; the
// one that polls shows the list a page at a time (turning a page gathers again). A tap on a session
// is claimed by the process that listed it, which posts a Hermes message of that session with its
// last answer (lib/bridge/runs/answer-messages.ts' showAnswer: Markdown rendered, its end with the whole as a file
// when long), so a reply to it continues the session.
// Only updates from those who may act arrive here (lib/bridge/core/gate.ts).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { projectName } from "../../telegram/render/render-context.ts";
import { renderAnswerHeader, renderSessionPicker } from "../../telegram/render/render-sessions.ts";
import { html } from "../../text/html.ts";
import { errorText } from "../../util/error-text.ts";
import { showAnswer } from "../runs/answer-messages.ts";
import { inThread, type Chat } from "../core/chat.ts";
import type { ActingCommand, ActingTap } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { shortKey } from "../core/short-key.ts";
import { parseSessionsPart, type ListedSession } from "./sessions-part.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface SessionPickerDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  topics: Pick<SessionTopics, "threadOf">;
  log: Logger;
  t: Strings;
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "send" | "answerCallback">;
  activity: Pick<ActivityTracker, "isBusy">;
  now: () => number;
}

/** How many sessions each project adds. */
const PER_PROJECT = 20;
const REMEMBERED = 1_000;
const NOT_ANSWERED = "could not answer /sessions";

export class SessionPicker {
  readonly #deps: SessionPickerDeps;
  /** The sessions this process listed, by key (at most REMEMBERED, the oldest forgotten first). */
  readonly #listed = new Map<string, { sessionID: string; directory: string; title?: string }>();

  constructor(deps: SessionPickerDeps) {
    this.#deps = deps;
  }

  gathers(intent: ActingCommand): boolean {
    return intent.name === "sessions";
  }

  gathersTap(intent: ActingTap): boolean {
    return decodeCallback(intent.data)?.action === "sessionPage";
  }

  /** This process' recent root sessions, each project's newest PER_PROJECT. */
  async partFor(): Promise<{ sessions: ListedSession[] }> {
    const { links, log, activity } = this.#deps;
    const lists = await Promise.all(
      links.directories().map(async (directory) => {
        try {
          const sessions = (await links.linkFor(directory)?.opencode.listSessions()) ?? [];
          return sessions
            .filter((session) => !session.parentID)
            .sort((a, b) => b.updated - a.updated)
            .slice(0, PER_PROJECT)
            .map((session) => {
              const key = shortKey(session.id);
              this.#remember(key, { sessionID: session.id, directory, ...(session.title ? { title: session.title } : {}) });
              const listed: ListedSession = { key, project: projectName(directory), busy: activity.isBusy(session.id), updated: session.updated };
              if (session.title) listed.title = session.title;
              return listed;
            });
        } catch (error) {
          log.warn({ err: errorText(error), directory }, "could not list the sessions");
          return [];
        }
      }),
    );
    return { sessions: lists.flat() };
  }

  unclaimed(intent: ActingCommand, parts: readonly unknown[] | undefined): Promise<void> | undefined {
    if (intent.name !== "sessions") return undefined;
    const picker = renderSessionPicker(this.#merge(parts), 0, this.#deps.now(), this.#deps.t);
    return this.#deps.chat.send(picker.text, { replyTo: intent.messageId, keyboard: picker.keyboard }, Priority.Answer, NOT_ANSWERED).then(() => undefined);
  }

  unclaimedTap(intent: ActingTap, parts: readonly unknown[] | undefined): Promise<void> | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "sessionPage") return undefined;
    return (async () => {
      const { chat, outbox, telegram, t, now } = this.#deps;
      await chat.answerCallback(intent.id);
      const chatId = intent.from.chatId;
      const messageId = intent.messageId;
      if (chatId === undefined || messageId === undefined) return;
      const picker = renderSessionPicker(this.#merge(parts), data.question, now(), t);
      await outbox
        .edit(chatId, messageId, () => () => telegram.editMessage(chatId, messageId, picker.text, picker.keyboard), Priority.Answer)
        .catch(() => undefined);
    })();
  }

  /** A tap on a session this process listed. */
  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "sessionPick") return undefined;
    const listed = this.#listed.get(data.key);
    return listed ? () => this.#show(intent, listed) : undefined;
  }

  async #show(intent: ActingTap, listed: { sessionID: string; directory: string; title?: string }): Promise<void> {
    const { chat, links, registry, topics, t, log } = this.#deps;
    await chat.answerCallback(intent.id);
    const chatId = intent.from.chatId;
    if (chatId === undefined) return;
    const answer = await links
      .linkFor(listed.directory)
      ?.opencode.lastAnswer(listed.sessionID)
      .catch((error) => void log.warn({ err: errorText(error) }, "could not read a session's last answer"));
    const header = renderAnswerHeader(projectName(listed.directory), registry.sessions.title(listed.sessionID) ?? listed.title, t);
    const owner = { sessionID: listed.sessionID, directory: listed.directory };
    const threadId = await topics.threadOf(listed.sessionID, listed.directory);
    if (answer) {
      await showAnswer(this.#deps, { chatId, threadId, owner, priority: Priority.Answer }, header, answer).catch((error) =>
        log.warn({ err: errorText(error) }, "could not show a session's last answer"),
      );
      return;
    }
    const sent = await chat.send(html`${header}\n\n${t.steer.noAnswer}`, inThread(threadId), Priority.Answer, NOT_ANSWERED);
    // A reply to it reaches the session, as with any Hermes message.
    if (sent) registry.noteMessage(sent, owner);
  }

  #merge(received: readonly unknown[] | undefined): ListedSession[] {
    const parts = (received ?? []).map(parseSessionsPart).filter((part) => part !== undefined);
    if (received && parts.length < received.length) this.#deps.log.warn({ dropped: received.length - parts.length }, "dropped a malformed /sessions part");
    const byKey = new Map<string, ListedSession>();
    for (const session of parts.flat()) if (!byKey.has(session.key) || session.busy) byKey.set(session.key, session);
    return [...byKey.values()].sort((a, b) => b.updated - a.updated);
  }

  #remember(key: string, listed: { sessionID: string; directory: string; title?: string }): void {
    this.#listed.delete(key);
    this.#listed.set(key, listed);
    if (this.#listed.size > REMEMBERED) this.#listed.delete(this.#listed.keys().next().value!);
  }
}
