// What OpenCode's vocabulary on the phone (issue 43: commands-list.ts, compact-run.ts,
// fork-control.ts, history-control.ts) shares: its dependencies, posting a message of a session (in
// its topic, as a reply; a reply to it reaches the session), editing one, both answers to a person's
// command or tap (the outbox's answer lane), and the session's OpenCode, or why there is none: not
// running, or a version without the route.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import { errorText } from "../../util/error-text.ts";
import { contextLine, projectName } from "../../telegram/render/render-context.ts";
import { escapeHtml, type Html } from "../../text/html.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";
import { editMessageIn, inThread } from "../core/chat.ts";
import type { InstanceLink } from "../core/desk.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface VocabularyDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  registry: Registry;
  activity: Pick<ActivityTracker, "isBusy">;
  topics: SessionTopics;
  log: Logger;
  t: Strings;
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor">;
}

export interface PostedMessage {
  chatId: number;
  messageId: number;
  threadId?: number;
}

type Names = keyof Strings["vocabulary"]["names"];
type SessionVocabulary = NonNullable<InstanceLink["opencode"]["vocabulary"]>;

export class SessionPosts {
  readonly #deps: VocabularyDeps;

  constructor(deps: VocabularyDeps) {
    this.#deps = deps;
  }

  get deps(): VocabularyDeps {
    return this.#deps;
  }

  /** The session's OpenCode vocabulary method, bound; or the text that says why it cannot be used. */
  route<K extends keyof SessionVocabulary>(owner: MessageOwner, name: K, what: Names): { call: NonNullable<SessionVocabulary[K]> } | { refusal: Html } {
    const { links, t } = this.#deps;
    const opencode = links.linkFor(owner.directory)?.opencode;
    if (!opencode) return { refusal: t.vocabulary.notRunning };
    const method = opencode.vocabulary?.[name];
    if (!method) return { refusal: t.vocabulary.lacks(escapeHtml(t.vocabulary.names[what])) };
    return { call: (method as (...args: never[]) => unknown).bind(opencode.vocabulary) as NonNullable<SessionVocabulary[K]> };
  }

  /** The session's title line (project · title), escaped. */
  titleOf(owner: MessageOwner): Html {
    const title = this.#deps.registry.sessions.title(owner.sessionID);
    return contextLine({ project: projectName(owner.directory), t: this.#deps.t, ...(title ? { sessionTitle: title } : {}) });
  }

  async post(owner: MessageOwner, text: Html, keyboard: InlineButton[][] = [], replyTo?: number): Promise<PostedMessage | undefined> {
    const { outbox, telegram, chatId, log, topics, registry } = this.#deps;
    if (chatId === undefined) return undefined;
    const threadId = await topics.threadOf(owner.sessionID, owner.directory);
    const options = { keyboard, ...(replyTo !== undefined ? { replyTo } : {}), ...inThread(threadId) };
    const sent = await outbox
      .send(chatId, () => () => telegram.sendMessage(chatId, text, options), Priority.Answer)
      .catch((error) => void log.warn({ err: errorText(error) }, "could not send a message of OpenCode's vocabulary"));
    if (!sent) return undefined;
    const message = { chatId, messageId: sent.messageId };
    registry.noteMessage(message, { sessionID: owner.sessionID, directory: owner.directory });
    return { ...message, ...inThread(threadId) };
  }

  async edit(message: { chatId: number; messageId: number }, text: Html, keyboard: InlineButton[][] = []): Promise<void> {
    await editMessageIn(this.#deps, message, { text, keyboard }, Priority.Answer, "could not update a message of OpenCode's vocabulary");
  }
}
