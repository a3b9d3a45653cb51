// /digest on the phone: `/digest` (the last 12 hours), `/digest 8h`, or as a reply to a session's
// message for that session. A plain /digest concerns every process sharing the bot, as /status does:
// each sends its part (its runs and decisions since then, digest-feed.ts) and the one that polls
// answers once (lib/relay/relay.ts). A reply reaches the process whose message it answers
// (lib/bridge/input/typed-text.ts), which answers for that session alone. Only those who may act
// get here (lib/bridge/core/gate.ts): a stranger's /digest shows nothing.
import type { Strings } from "../../i18n/catalog.ts";
import { parseDuration } from "../../i18n/duration.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import { renderDigest } from "../../telegram/render/render-digest.ts";
import { DIGEST_MAX_AGE_MS } from "../../walkaway/digest-log.ts";
import { parseDigestPart, type DigestPart } from "../../walkaway/digest-part.ts";
import type { ActingCommand, Gate } from "../core/gate.ts";
import type { SessionPosts } from "../core/session-posts.ts";
import type { DigestFeed } from "./digest-feed.ts";

/** What a bare /digest covers. */
export const DIGEST_DEFAULT_SPAN_MS = 12 * 3_600_000;
const FILE_NAME = "digest.txt";

export interface DigestCommandDeps {
  feed: Pick<DigestFeed, "slice">;
  posts: Pick<SessionPosts, "post" | "document">;
  log: Logger;
  t: Strings;
  now: () => number;
}

/** `/digest` or `/digest 8h` (a reply's text: `/digest@bot 8h` too); undefined: not /digest. */
export function digestSpan(text: string): { spanMs: number } | { invalid: true } | undefined {
  const match = /^\/digest(?:@[A-Za-z0-9_]+)?(?:\s+(.*))?$/is.exec(text.trim());
  if (!match) return undefined;
  const args = (match[1] ?? "").trim();
  if (args === "") return { spanMs: DIGEST_DEFAULT_SPAN_MS };
  // A unit is required ("8" would be 8 ms); days are hours here: the digest keeps one day.
  const spanMs = /^\d+(?:\.\d+)?\s*[a-z]+$/i.test(args) ? parseDuration(args) : undefined;
  return spanMs && spanMs > 0 ? { spanMs: Math.min(spanMs, DIGEST_MAX_AGE_MS) } : { invalid: true };
}

export class DigestCommand {
  readonly #deps: DigestCommandDeps;

  constructor(deps: DigestCommandDeps) {
    this.#deps = deps;
  }

  route(gate: Gate): void {
    gate.route("command", {
      gathers: (command) => command.name === "digest",
      partFor: async (command) => (command.name === "digest" ? this.#part(command.args) : undefined),
      unclaimed: (command, after) => (command.name === "digest" ? this.#answer(command, after.parts) : undefined),
    });
  }

  /** A reply `/digest …` to one of this session's messages: that session alone. */
  answerFor(owner: MessageOwner, text: string, messageId: number): Promise<void> {
    const span = digestSpan(text);
    const where = { owner, replyTo: messageId };
    if (!span || "invalid" in span) return this.#post(this.#deps.t.walkaway.digestUsage, undefined, where);
    const now = this.#deps.now();
    const since = now - span.spanMs;
    const rendered = renderDigest([this.#deps.feed.slice(since, owner.sessionID)], { since, now }, this.#deps.t);
    return this.#post(rendered.text, rendered.file, where);
  }

  #part(args: string): DigestPart | undefined {
    const span = digestSpan(`/digest ${args}`);
    if (!span || "invalid" in span) return undefined;
    const { runs, decisions } = this.#deps.feed.slice(this.#deps.now() - span.spanMs);
    return { runs, decisions };
  }

  async #answer(command: ActingCommand, received: readonly unknown[] | undefined): Promise<void> {
    const { t, log, now } = this.#deps;
    const where = { replyTo: command.messageId, threadId: command.threadId };
    const span = digestSpan(`/digest ${command.args}`);
    if (!span || "invalid" in span) return this.#post(t.walkaway.digestUsage, undefined, where);
    const parts = (received ?? []).map(parseDigestPart).filter((part) => part !== undefined);
    if (received && parts.length < received.length)
      log.warn({ dropped: received.length - parts.length }, "dropped a malformed /digest part from another process");
    const at = now();
    const rendered = renderDigest(parts, { since: at - span.spanMs, now: at }, t);
    await this.#post(rendered.text, rendered.file, where);
  }

  async #post(
    text: Parameters<SessionPosts["post"]>[0]["text"],
    file: string | undefined,
    where: { owner?: MessageOwner; replyTo: number; threadId?: number | undefined },
  ): Promise<void> {
    const sent = await this.#deps.posts.post({ text }, where);
    if (file !== undefined && sent)
      await this.#deps.posts.document(FILE_NAME, file, this.#deps.t.walkaway.digestFileCaption, { ...where, replyTo: sent.messageId });
  }
}
