// What OpenCode's vocabulary on the phone (commands-list.ts, compact-run.ts, fork-control.ts,
// history-control.ts) shares: its dependencies, a session's messages posted and edited (through the
// bridge's one way, core's SessionPosts), the session's title line, and the session's OpenCode
// vocabulary, or why there is none: not running, or a version without the route.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import { contextLine, projectName } from "../../telegram/render/render-context.ts";
import { escapeHtml, type Html } from "../../text/html.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import type { Outbox } from "../../telegram/wire/outbox.ts";
import type { InlineButton, RichHtml } from "../../telegram/wire/rendered-message.ts";
import { type PostedMessage, SessionPosts } from "../core/session-posts.ts";
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

type Names = keyof Strings["vocabulary"]["names"];
type SessionVocabulary = NonNullable<InstanceLink["opencode"]["vocabulary"]>;

export class VocabularyDesk {
  readonly #deps: VocabularyDeps;
  readonly #posts: SessionPosts;

  constructor(deps: VocabularyDeps) {
    this.#deps = deps;
    this.#posts = new SessionPosts(deps, "a message of OpenCode's vocabulary");
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

  /** `rich`: the message's rich form, sent where the client has rich messages (lib/bridge/core/rich-send.ts). */
  async post(owner: MessageOwner, text: Html, keyboard: InlineButton[][] = [], replyTo?: number, rich?: RichHtml): Promise<PostedMessage | undefined> {
    return this.#posts.post({ text, keyboard, rich }, { owner, replyTo });
  }

  /** `rich`: the rich form, for a message posted rich (its edits stay rich). */
  async edit(message: { chatId: number; messageId: number }, text: Html, keyboard: InlineButton[][] = [], rich?: RichHtml): Promise<void> {
    await this.#posts.edit(message, { text, keyboard, rich });
  }

  /** Whether the client has rich messages (a caller then renders a rich form). */
  get rich(): boolean {
    return this.#deps.telegram.sendRichMessage !== undefined;
  }
}
