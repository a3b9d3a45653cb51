// The spending cap of a run (issue 42): HERMES_RUN_BUDGET for every run, `/budget <dollars>` or
// `/budget off` as a reply to a session's message for that session. The cost is the one the Done
// notice shows (lib/bridge/runs/run-costs.ts counts it); when it crosses the cap the run is stopped through
// OpenCode's abort, as Stop does (no Done notice, its open prompts closed), and a notice says
// "Stopped at $2.03 of a $2.00 budget" with Continue (+$2.00), which raises the cap and sends the
// session "continue". A model without prices: a set budget says once per run that it can't be kept.
import { randomBytes } from "node:crypto";
import { Budgets, parseBudget } from "../../approvals/budgets.ts";
import { errorText } from "../../util/error-text.ts";
import type { HermesEvent } from "../../hermes-events.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { budgetAmount, renderBudgetStop } from "../../telegram/render/render-approvals.ts";
import type { SpentView } from "../../telegram/render/render-usage.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { html, type Html } from "../../text/html.ts";
import type { RenderedMessage } from "../../telegram/wire/rendered-message.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingTap, ActingText } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { SessionTopics } from "../core/topics.ts";

export interface RunBudgetDeps {
  registry: Registry;
  links: Pick<InstanceLinks, "linkFor">;
  activity: Pick<ActivityTracker, "markStopped">;
  costs: { spent(sessionID: string): SpentView | undefined };
  prompts: { closeRun(sessionID: string): Promise<void> };
  chat: Pick<Chat, "send" | "reply" | "answerCallback">;
  telegram: Pick<TelegramApi, "editMessage">;
  outbox: Pick<Outbox, "edit">;
  topics: Pick<SessionTopics, "threadOf">;
  log: Logger;
  t: Strings;
  /** HERMES_RUN_BUDGET; undefined: runs have no cap unless /budget sets one. */
  defaultCap: number | undefined;
  /** A run stopped at its budget (the digest records it: lib/bridge/walkaway/digest-feed.ts). */
  digest?: { budgetStopped(sessionID: string, directory: string, spent: number, cap: number): void };
}

/** What Continue sends the session. */
export const CONTINUE_PROMPT = "continue";
/** Stopped runs whose Continue is remembered. */
const STOPS_KEPT = 100;
const BUDGET_COMMAND = /^\/budget(?:@[A-Za-z0-9_]+)?(?:\s+(.*))?$/is;

interface Stop {
  owner: MessageOwner;
  spent: number;
  cap: number;
  step: number;
}

export class RunBudget {
  readonly #deps: RunBudgetDeps;
  readonly #budgets: Budgets;
  /** Root sessions running now, and those whose next run a Continue started. */
  readonly #running = new Set<string>();
  readonly #continuing = new Set<string>();
  /** Continue buttons, by key. */
  readonly #stops = new Map<string, Stop>();

  constructor(deps: RunBudgetDeps) {
    this.#deps = deps;
    this.#budgets = new Budgets(deps.defaultCap);
  }

  /** Feeds an event after the run's costs counted it. */
  observe(directory: string, event: HermesEvent): void {
    const { registry } = this.#deps;
    switch (event.type) {
      case "session.status": {
        const root = registry.sessions.rootOf(event.sessionID);
        if (root !== event.sessionID) return;
        if (event.status === "idle") return void this.#running.delete(root);
        if (this.#running.has(root)) return;
        this.#running.add(root);
        this.#budgets.startRun(root, this.#continuing.delete(root));
        return;
      }
      case "session.idle":
        this.#running.delete(event.sessionID);
        return;
      case "session.deleted":
        this.#budgets.forget(event.sessionID);
        this.#running.delete(event.sessionID);
        return;
      case "message.role": {
        if (!event.usage) return;
        const root = registry.sessions.rootOf(event.sessionID);
        const spent = this.#deps.costs.spent(root);
        const verdict = spent ? this.#budgets.check(root, spent) : undefined;
        if (verdict?.kind === "over") void this.#stop({ sessionID: root, directory }, verdict.spent, verdict.cap);
        if (verdict?.kind === "no-cost") void this.#say({ sessionID: root, directory }, this.#deps.t.approvals.budgetNoCost(budgetAmount(verdict.cap)));
        return;
      }
      default:
        return;
    }
  }

  /** The progress message's budget beside the cost ("💰 $0.12 of $2.00"); undefined without a cap. */
  line(sessionID: string): Html | undefined {
    const root = this.#deps.registry.sessions.rootOf(sessionID);
    const cap = this.#budgets.capOf(root);
    if (cap === undefined) return undefined;
    const spent = this.#budgets.spent(root, this.#deps.costs.spent(root)?.cost ?? 0);
    return this.#deps.t.approvals.budgetProgress(budgetAmount(spent), budgetAmount(cap));
  }

  /** `/budget …` as a reply to a session's message (it arrives as text). */
  claimText(intent: ActingText): Claim | undefined {
    const match = BUDGET_COMMAND.exec(intent.text.trim());
    if (!match || intent.replyTo === undefined) return undefined;
    const owner = this.#deps.registry.ownerOf({ chatId: intent.from.chatId, messageId: intent.replyTo });
    if (!owner) return undefined;
    return () => this.#set(owner, match[1] ?? "", intent.messageId);
  }

  /** `/budget` on its own (not a reply): how to use it. */
  unclaimedCommand(name: string, messageId: number): Promise<void> | undefined {
    if (name !== "budget") return undefined;
    return this.#deps.chat.reply(html`${this.#deps.t.approvals.budgetNoSession}\n${this.#deps.t.approvals.budgetUsage}`, messageId);
  }

  /** A Continue tap on a run this process stopped. */
  claimTap(intent: ActingTap): Claim | undefined {
    const data = decodeCallback(intent.data);
    if (data?.action !== "budgetContinue") return undefined;
    const stop = this.#stops.get(data.key);
    if (!stop) return undefined;
    return () => this.#continue(intent, data.key, stop);
  }

  unclaimedTap(intent: ActingTap): Promise<void> | undefined {
    if (decodeCallback(intent.data)?.action !== "budgetContinue") return undefined;
    return this.#deps.chat.answerCallback(intent.id, this.#deps.t.approvals.continueGone);
  }

  async #set(owner: MessageOwner, args: string, replyTo: number): Promise<void> {
    const { t, registry, chat, log } = this.#deps;
    const root = registry.sessions.rootOf(owner.sessionID);
    const parsed = parseBudget(args);
    if (parsed === undefined) return chat.reply(t.approvals.budgetUsage, replyTo);
    this.#budgets.set(root, parsed === "off" ? undefined : parsed);
    log.info({ sessionID: root, budget: parsed }, "run budget set from the phone");
    await chat.reply(parsed === "off" ? t.approvals.budgetOff : t.approvals.budgetSet(budgetAmount(parsed)), replyTo);
  }

  async #stop(owner: MessageOwner, spent: number, cap: number): Promise<void> {
    const { activity, links, prompts, log } = this.#deps;
    const link = links.linkFor(owner.directory);
    // No "Done" for a run stopped at its budget, however OpenCode orders idle and abort.
    const undo = activity.markStopped(owner.sessionID);
    const outcome = link ? await link.opencode.abortSession(owner.sessionID) : ({ ok: false, gone: false, error: this.#deps.t.talk.notRunning } as const);
    log.info({ sessionID: owner.sessionID, spent, cap, outcome }, "run stopped at its budget");
    if (!outcome.ok) {
      undo();
      this.#budgets.stopFailed(owner.sessionID);
      const error = outcome.gone ? this.#deps.t.talk.sessionGone : outcome.error;
      return void (await this.#post(owner, renderBudgetStop({ spent, cap, step: cap, directory: owner.directory, error }, this.#deps.t)));
    }
    this.#deps.digest?.budgetStopped(owner.sessionID, owner.directory, spent, cap);
    await prompts.closeRun(owner.sessionID);
    const key = randomBytes(6).toString("hex");
    const step = [...this.#stops.values()].find((stop) => stop.owner.sessionID === owner.sessionID)?.step ?? cap;
    this.#stops.set(key, { owner, spent, cap, step });
    while (this.#stops.size > STOPS_KEPT) this.#stops.delete(this.#stops.keys().next().value!);
    await this.#post(owner, renderBudgetStop({ spent, cap, step, directory: owner.directory, key }, this.#deps.t));
  }

  async #continue(intent: ActingTap, key: string, stop: Stop): Promise<void> {
    const { chat, links, log, t, outbox, telegram } = this.#deps;
    this.#stops.delete(key);
    const link = links.linkFor(stop.owner.directory);
    const root = stop.owner.sessionID;
    const cap = this.#budgets.raise(root, stop.step, stop.spent);
    this.#continuing.add(root);
    const outcome = link ? await link.opencode.prompt(root, [{ type: "text", text: CONTINUE_PROMPT }]) : ({ ok: false, gone: true } as const);
    log.info({ sessionID: root, cap, outcome }, "run continued past its budget");
    if (!outcome.ok) {
      this.#continuing.delete(root);
      return chat.answerCallback(intent.id, t.approvals.continueGone);
    }
    await chat.answerCallback(intent.id, t.approvals.continued(budgetAmount(cap)));
    const { chatId } = intent.from;
    const messageId = intent.messageId;
    if (chatId === undefined || messageId === undefined) return;
    const rendered = renderBudgetStop({ ...stop, directory: stop.owner.directory, continued: cap }, t);
    await outbox
      .edit(chatId, messageId, () => () => telegram.editMessage(chatId, messageId, rendered.text, rendered.keyboard))
      .catch((error) => log.warn({ err: errorText(error) }, "could not update a budget notice"));
  }

  async #say(owner: MessageOwner, text: Html): Promise<void> {
    await this.#post(owner, { text, keyboard: [] });
  }

  async #post(owner: MessageOwner, rendered: RenderedMessage): Promise<void> {
    const { topics, chat, registry, log } = this.#deps;
    const threadId = await topics.threadOf(owner.sessionID, owner.directory).catch(() => undefined);
    const sent = await chat.send(
      rendered.text,
      { keyboard: rendered.keyboard, ...(threadId !== undefined ? { threadId } : {}) },
      Priority.Answer,
      "could not send a budget notice",
    );
    // A reply to it reaches the session, as with any Hermes message.
    if (sent) registry.noteMessage(sent, owner);
    else log.debug({ sessionID: owner.sessionID }, "budget notice not sent");
  }
}
