// Walking away from a run (issue 51), as the bridge sees it: a run held by a usage limit
// (limit-notices.ts: the pause message, Resume now and Cancel, the resume at the reset, the messages
// held meanwhile), a stalled run's alert (stall-alerts.ts: Stop, Keep waiting), and what happened
// meanwhile (digest-feed.ts records every run and decision, digest-command.ts answers /digest). They
// read the run's events (lib/bridge/bridge.ts feeds them) and add their taps and command to the gate.
import type { HermesEvent } from "../../hermes-events.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import type { ActingCommand, Gate } from "../core/gate.ts";
import type { TalkBack, UserMessage } from "../runs/talk-back.ts";
import { SessionPosts, type SessionPostDeps } from "../core/session-posts.ts";
import { DEFAULT_STALL_AFTER_MS } from "../../walkaway/stall-detector.ts";
import { LimitNotices, type LimitNoticeDeps } from "./limit-notices.ts";
import { StallAlerts, type StallAlertDeps } from "./stall-alerts.ts";
import type { DigestFeed, DigestFeedDeps } from "./digest-feed.ts";
import { DigestCommand, digestSpan } from "./digest-command.ts";

/** What the bridge gives it: the chat's shared pieces, the phone's words to a session, Stop's way of closing a run's prompts. */
export type WalkawayDeps = Omit<LimitNoticeDeps, "posts" | "talkBack"> &
  Omit<StallAlertDeps, "posts" | "paused" | "afterMs"> &
  Omit<SessionPostDeps, "topics"> &
  Pick<DigestFeedDeps, "t"> & {
    /** The digest's feed (made first by the bridge: prompts and the budget feed it too). */
    digest: DigestFeed;
    topics: SessionPostDeps["topics"];
    talk: Pick<TalkBack, "talkBack">;
    /** HERMES_STALL_AFTER (ms; 0: off); undefined: DEFAULT_STALL_AFTER_MS. */
    afterMs: number | undefined;
  };

export class Walkaway {
  readonly #limits: LimitNotices;
  readonly #stalls: StallAlerts;
  readonly #digest: DigestFeed;
  readonly #digestCommand: DigestCommand;
  readonly #posts: SessionPosts;
  readonly #t: WalkawayDeps["t"];

  constructor(deps: WalkawayDeps) {
    const posts = new SessionPosts(deps, "a walk-away message");
    this.#posts = posts;
    this.#t = deps.t;
    this.#digest = deps.digest;
    this.#digestCommand = new DigestCommand({ feed: this.#digest, posts: new SessionPosts(deps, "the digest"), log: deps.log, t: deps.t, now: deps.now });
    const talkBack = (owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean) => deps.talk.talkBack(owner, userMessage, text, byVoice);
    this.#limits = new LimitNotices({ ...deps, posts, talkBack });
    const afterMs = deps.afterMs ?? DEFAULT_STALL_AFTER_MS;
    this.#stalls = new StallAlerts({ ...deps, posts, afterMs, paused: (sessionID) => this.#limits.isPaused(sessionID) });
  }

  observe(directory: string, event: HermesEvent): void {
    this.#digest.observe(directory, event);
    this.#limits.observe(directory, event);
    this.#stalls.observe(directory, event);
  }

  /** A message from the phone for a session: true when it is held until the run resumes. */
  hold(owner: MessageOwner, userMessage: UserMessage, text: string, byVoice: boolean): boolean {
    return this.#limits.hold(owner, userMessage, text, byVoice);
  }

  /** Whether a reply's text is `/digest …`. */
  isDigest(text: string): boolean {
    return digestSpan(text) !== undefined;
  }

  /** A reply `/digest …` to one of a session's messages (lib/bridge/input/typed-text.ts). */
  digestFor(owner: MessageOwner, text: string, messageId: number): Promise<void> {
    return this.#digestCommand.answerFor(owner, text, messageId);
  }

  route(gate: Gate): void {
    this.#digestCommand.route(gate);
    // /away concerns every process sharing the bot (each has its own sense of the desk): each ends it, the one that polls answers.
    const desk = this.#digest.desk;
    gate.route("command", {
      gathers: (command) => command.name === "away",
      partFor: async (command) => {
        if (command.name !== "away") return undefined;
        desk.away();
        return { on: desk.enabled };
      },
      unclaimed: (command, after) => (command.name === "away" ? this.#awayAnswer(command, after.parts) : undefined),
    });
    const limits = this.#limits;
    const stalls = this.#stalls;
    gate.route("callback", { claim: (tap) => limits.claimTap(tap), unclaimed: (tap) => limits.unclaimedTap(tap) });
    gate.route("callback", { claim: (tap) => stalls.claimTap(tap), unclaimed: (tap) => stalls.unclaimedTap(tap) });
  }

  async #awayAnswer(command: ActingCommand, parts: readonly unknown[] | undefined): Promise<void> {
    const on = (parts ?? []).some((part) => typeof part === "object" && part !== null && (part as { on?: unknown }).on === true);
    const t = this.#t;
    await this.#posts.post({ text: on ? t.walkaway.awayNow : t.walkaway.awayOff }, { replyTo: command.messageId, threadId: command.threadId });
  }

  stop(): void {
    this.#digest.desk.stop();
    this.#limits.stop();
    this.#stalls.stop();
  }
}
