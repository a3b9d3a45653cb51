// Fork (issue 43): ⑂ Fork on the Done notice forks the session through that run, `/fork` as a reply
// to that notice too (to any other message of the session: as it is now), and /history's Fork here forks it before a
// prompt: OpenCode's fork route makes a new session with those messages, Hermes titles it
// "⑂ <title>", and posts its first message (with topics, in its own topic) linking the original.
// A reply to that message, or in that topic, continues the fork; the original is untouched.
import type { RunChanges } from "../../registry/run-changes.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import { KeyedLists } from "../../registry/keyed-lists.ts";
import { errorText } from "../../util/error-text.ts";
import type { CallbackData, VocabularyAction } from "../../telegram/codec.ts";
import { cutText, escapeWithin } from "../../text/html.ts";
import { projectName } from "../../telegram/render/render-context.ts";
import { messageLink } from "../../telegram/render/render-status.ts";
import { renderForked, vocabularyButton } from "../../telegram/render/render-vocabulary.ts";
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";
import type { Tap } from "../core/desk.ts";
import type { VocabularyDesk } from "./vocabulary-desk.ts";

/** Where a fork cuts: through a run (its last user message), before a prompt, or (neither) the whole session. */
export type ForkPoint = { through?: string; before?: string };

const TITLE_LIMIT = 120;

export class ForkControl {
  readonly #posts: VocabularyDesk;
  readonly #changes: Pick<RunChanges, "lastMessage">;
  readonly #points = new KeyedLists<{ owner: MessageOwner; point: ForkPoint }>();
  /** Done notices (`chatId:messageId`) → their ⑂ Fork's key: `/fork` as a reply to one forks at the same point. Bounded with the keys. */
  readonly #notices = new Map<string, string>();

  constructor(posts: VocabularyDesk, changes: Pick<RunChanges, "lastMessage">) {
    this.#posts = posts;
    this.#changes = changes;
  }

  /** ⑂ Fork for the Done notice of the session's run (it forks through that run); none where OpenCode has no fork route. */
  buttonFor(owner: MessageOwner): InlineButton | undefined {
    if ("refusal" in this.#posts.route(owner, "fork", "fork")) return undefined;
    const through = this.#changes.lastMessage(owner.sessionID);
    const key = this.#points.add({ owner, point: through ? { through } : {} });
    return vocabularyButton(key, "fork", this.#posts.deps.t.vocabulary.fork.button);
  }

  /** The Done notice carrying `button` was sent as this message. */
  noteNotice(message: { chatId: number; messageId: number }, button: InlineButton): void {
    const key = /^h1:([^:]+):/.exec(button.callback_data ?? "")?.[1];
    if (!key) return;
    this.#notices.set(`${message.chatId}:${message.messageId}`, key);
    while (this.#notices.size > this.#points.size) this.#notices.delete(this.#notices.keys().next().value!);
  }

  /** Where `/fork` as a reply to `message` cuts: a Done notice's run, else the session as it is now. */
  pointOf(message: { chatId: number; messageId: number }): ForkPoint {
    const key = this.#notices.get(`${message.chatId}:${message.messageId}`);
    return (key ? this.#points.get(key)?.point : undefined) ?? {};
  }

  owns(data: CallbackData): boolean {
    return data.action === "fork" && this.#points.get(data.key) !== undefined;
  }

  tap(data: CallbackData<VocabularyAction>, message: { chatId: number; messageId: number } | undefined): Tap {
    const { owner, point } = this.#points.get(data.key)!;
    return { ok: true, note: (t) => t.vocabulary.fork.forking, next: () => this.fork(owner, point, message?.messageId) };
  }

  /** Forks the session at `point`; the fork's first message links `from` (the message the fork was asked on). */
  async fork(owner: MessageOwner, point: ForkPoint, from: number | undefined): Promise<void> {
    const { t, log, registry, chatId, topics } = this.#posts.deps;
    const route = this.#posts.route(owner, "fork", "fork");
    if ("refusal" in route) return void (await this.#posts.post(owner, route.refusal, [], from));
    const before = point.before ?? (point.through ? await this.#after(owner, point.through) : undefined);
    const created = await route.call(owner.sessionID, before);
    log.info({ sessionID: owner.sessionID, before, created }, "session forked from the phone");
    if (!created.ok) return void (await this.#posts.post(owner, t.vocabulary.failed(escapeWithin(created.error, 300)), [], from));
    const original = registry.sessions.title(owner.sessionID) ?? projectName(owner.directory);
    const title = cutText(`${t.vocabulary.fork.titlePrefix}${original}`, TITLE_LIMIT);
    const renamed = this.#posts.route(owner, "rename", "fork");
    if ("call" in renamed) {
      const outcome = await renamed.call(created.sessionID, title);
      if (!outcome.ok) log.warn({ outcome }, "could not title the fork");
    }
    const fork = { sessionID: created.sessionID, directory: owner.directory };
    registry.sessions.upsert({ id: fork.sessionID, title, directory: owner.directory });
    const link = chatId === undefined ? undefined : messageLink(chatId, from);
    // With topics the fork has a topic of its own: its first message there links the original; without, it replies to it.
    const replyTo = topics.enabled ? undefined : from;
    await this.#posts.post(fork, renderForked(title, original, link, t), [], replyTo);
  }

  /** The first prompt after `through` (the fork keeps everything before it), or none: the run is the session's last. */
  async #after(owner: MessageOwner, through: string): Promise<string | undefined> {
    const history = this.#posts.route(owner, "history", "history");
    if ("refusal" in history) return undefined;
    try {
      const prompts = await history.call(owner.sessionID);
      const index = prompts.findIndex((entry) => entry.messageID === through);
      return index > 0 ? prompts[index - 1]!.messageID : undefined;
    } catch (error) {
      this.#posts.deps.log.warn({ err: errorText(error) }, "could not read the session's prompts; forking all of it");
      return undefined;
    }
  }
}
