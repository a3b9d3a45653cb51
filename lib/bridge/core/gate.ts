// The one gate every Telegram update passes in a process. It is parsed here, once (a raw update
// object is narrowed by lib/telegram/wire/updates.ts the first time it arrives and remembered), and whether
// its sender may act is decided here, once (lib/telegram/access.ts). Handlers ("routes") receive only
// `Acting<…>` values, and only this file makes them: a route cannot be handed a stranger's update.
//
// What someone who may not act gets is decided here too, and nowhere else:
//   - a button tap: "Not authorized" (answered by the process whose message it is, else by the one
//     that polls); every tap is answered;
//   - /start: their ids, when lib/telegram/access.ts' mayLearnIds says so (setup, or the owner in a new chat),
//     at most once per chat per interval (lib/bridge/bot/start-replies.ts); a stranger's /start gets nothing;
//   - anything else: nothing (a command or a file is logged, typed text is not).
// /start never reaches a route, whoever sends it. A command naming another bot ("/new@other_bot",
// two bots in one group) is not for this one: it reaches nobody, and nothing answers it.
//
// Adding a handler is adding a route, in lib/bridge/bridge.ts' constructor (the whole API is `Route` below):
//
//   gate.route("attachment", {           // kinds: "callback", "command", "text", "attachment"
//     // Acting<attachment>: does it concern this process? The work (run once granted), else undefined.
//     claim: (file) => (file.file.type === "voice" ? voiceNotes.claim(file) : undefined),
//   });
//   gate.route("command", {              // before Commands' route, which answers any other command with /help
//     // An allowed user's update that no process claimed: the work of answering it, else undefined.
//     unclaimed: (command) => (command.name === "new" ? sessions.create(command) : undefined),
//   });
//
// A route needs no access check of its own and must not make one: it never imports lib/telegram/access.ts and
// never casts to `Acting` (tests/unit/gate.test.ts fails if a file besides this one does). Routes of
// one kind are asked in the order they were added; the first answer that is not undefined wins.
// Deciding (`claim`, `gathers`) never waits and changes nothing; the work runs once granted. A new
// kind of update is a new `Intent` in lib/telegram/wire/updates.ts: it passes this same gate.
import type { Logger } from "../../system/log.ts";
import type { Claim, UpdateHandler } from "../../relay/update-handler.ts";
import { mayAct, mayLearnIds, type AccessPolicy } from "../../telegram/access.ts";
import { parseUpdate, type Intent } from "../../telegram/wire/updates.ts";

declare const checked: unique symbol;

/** An update from someone who may act (an allowed user in the configured chat). Only the gate makes one. */
export type Acting<I extends Intent = Intent> = I & { readonly [checked]: true };

export type IntentOf<K extends Intent["kind"]> = Extract<Intent, { kind: K }>;
export type ActingTap = Acting<IntentOf<"callback">>;
export type ActingCommand = Acting<IntentOf<"command">>;
export type ActingText = Acting<IntentOf<"text">>;
export type ActingFile = Acting<IntentOf<"attachment">>;

/** How an update came to nobody's claim. */
export interface Unclaimed {
  /** What each process sent for a command answered once for all (/status): untrusted, it crossed the relay. */
  parts: readonly unknown[] | undefined;
  /** A process sharing the bot did not answer in time: the update may have been its own. */
  unanswered: boolean;
}

/** A handler of one kind of update from someone who may act. Every member is optional. */
export interface Route<I extends Intent> {
  /** Whether the update concerns this process: the work it means (run once the claim is granted), else undefined. */
  claim?(intent: Acting<I>): Claim | undefined;
  /** An update no process claimed: the work of answering it, else undefined (the next route is asked). */
  unclaimed?(intent: Acting<I>, after: Unclaimed): Promise<void> | undefined;
  /** Whether it is a command answered once with every process' part (/status). */
  gathers?(intent: Acting<I>): boolean;
  /** This process' part of such an answer, JSON-serialisable. */
  partFor?(intent: Acting<I>): Promise<unknown>;
}

/** What the gate gives those who may not act (and /start to everyone): the bridge's modules do the sending. */
export interface PublicAnswers {
  /** Whether a tap is on one of this process' messages: then this process refuses it. */
  ownsTap(tap: IntentOf<"callback">): boolean;
  /** Answers a tap "Not authorized". */
  refuseTap(tap: IntentOf<"callback">): Promise<void>;
  /** Answers /start with the sender's ids (paced per chat). */
  start(command: IntentOf<"command">): Promise<void>;
}

type Admission = { acting: Acting } | { outsider: Intent } | { start: IntentOf<"command"> };

export class Gate implements UpdateHandler {
  readonly #access: AccessPolicy;
  readonly #answers: PublicAnswers;
  readonly #log: Logger;
  readonly #routes = new Map<Intent["kind"], Route<Intent>[]>();
  /** Each update object is parsed and judged once, however many times the relay asks about it. */
  readonly #seen = new WeakMap<object, Admission | undefined>();
  /** The bot's @username, lower-cased, once Telegram has said it (the process that polls asks). */
  #botName?: string;

  constructor(access: AccessPolicy, answers: PublicAnswers, log: Logger) {
    this.#access = access;
    this.#answers = answers;
    this.#log = log;
  }

  /** Adds a handler for one kind of update; it only ever receives updates from those who may act. */
  route<K extends Intent["kind"]>(kind: K, route: Route<IntentOf<K>>): void {
    const routes = this.#routes.get(kind) ?? [];
    routes.push(route as Route<Intent>);
    this.#routes.set(kind, routes);
  }

  /** The bot's own @username: until it is known, a command naming a bot is taken for another bot's. */
  learnBotName(username: string | undefined): void {
    this.#botName = username?.toLowerCase();
  }

  async claimUpdate(update: unknown): Promise<Claim | undefined> {
    const admission = this.#admit(update);
    if (!admission || "start" in admission) return undefined;
    if ("outsider" in admission) {
      const tap = admission.outsider;
      return tap.kind === "callback" && this.#answers.ownsTap(tap) ? () => this.#refuse(tap) : undefined;
    }
    const claim = this.#first(admission.acting, (route, intent) => route.claim?.(intent));
    this.#log.debug({ kind: admission.acting.kind, claimed: claim !== undefined }, "an update from someone who may act");
    return claim;
  }

  async handleUnclaimed(update: unknown, parts?: unknown[], unanswered = false): Promise<void> {
    const admission = this.#admit(update);
    if (!admission || !this.#addressedToUs(admission)) return;
    if ("start" in admission) return this.#answers.start(admission.start);
    if ("outsider" in admission) return this.#turnAway(admission.outsider);
    const work = this.#first(admission.acting, (route, intent) => route.unclaimed?.(intent, { parts, unanswered }));
    if (work === undefined) this.#log.debug({ kind: admission.acting.kind }, "an update no route answers");
    await work;
  }

  gathers(update: unknown): boolean {
    const admission = this.#admit(update);
    if (!admission || !("acting" in admission) || !this.#addressedToUs(admission)) return false;
    return this.#first(admission.acting, (route, intent) => route.gathers?.(intent) || undefined) === true;
  }

  /**
   * This process' part of a command answered once for all. The process that polls asks only once it
   * found the command addressed to this bot (`gathers`), so the address is not checked again: a
   * process that does not poll has never asked Telegram for the bot's name.
   */
  async partFor(update: unknown): Promise<unknown> {
    const admission = this.#admit(update);
    if (!admission || !("acting" in admission)) return undefined;
    return this.#first(admission.acting, (route, intent) => (route.gathers?.(intent) ? route.partFor?.(intent) : undefined));
  }

  /** Only the updates of those who may act are worth holding for a process still connecting. */
  worthHolding(update: unknown): boolean {
    const admission = this.#admit(update);
    return admission !== undefined && "acting" in admission;
  }

  #admit(update: unknown): Admission | undefined {
    if (typeof update !== "object" || update === null) return undefined;
    if (this.#seen.has(update)) return this.#seen.get(update);
    const admission = this.#judge(parseUpdate(update));
    this.#seen.set(update, admission);
    return admission;
  }

  #judge(intent: Intent | undefined): Admission | undefined {
    if (!intent) return undefined;
    if (intent.kind === "command" && intent.name === "start") return mayLearnIds(this.#access, intent.from) ? { start: intent } : { outsider: intent };
    if (mayAct(this.#access, intent.from)) return { acting: intent as Acting };
    return { outsider: intent };
  }

  /** Whether a command names no bot, or this one. */
  #addressedToUs(admission: Admission): boolean {
    const intent = "acting" in admission ? admission.acting : "start" in admission ? admission.start : admission.outsider;
    return intent.kind !== "command" || intent.bot === undefined || intent.bot.toLowerCase() === this.#botName;
  }

  /** The first answer of the routes for the update's kind. */
  #first<T>(intent: Acting, ask: (route: Route<Intent>, intent: Acting) => T | undefined): T | undefined {
    for (const route of this.#routes.get(intent.kind) ?? []) {
      const answer = ask(route, intent);
      if (answer !== undefined) return answer;
    }
    return undefined;
  }

  #refuse(tap: IntentOf<"callback">): Promise<void> {
    this.#log.warn({ userId: tap.from.userId, chatId: tap.from.chatId }, "ignored a button tap from an unauthorized user or chat");
    return this.#answers.refuseTap(tap);
  }

  async #turnAway(intent: Intent): Promise<void> {
    const who = { userId: intent.from.userId, chatId: intent.from.chatId };
    if (intent.kind === "callback") return this.#refuse(intent);
    if (intent.kind === "command" && intent.name === "start") return void this.#log.debug(who, "/start not answered (a stranger's chat)");
    if (intent.kind === "command") return void this.#log.warn({ ...who, command: intent.name }, "ignored a command from an unauthorized user or chat");
    if (intent.kind === "attachment") return void this.#log.warn(who, "ignored a file from an unauthorized user or chat");
  }
}
