// What feeds the digest (lib/walkaway/digest-log.ts) in this process: each run of its sessions
// (who started it, how it ended, what it cost) read from the run's events, and each prompt as it
// ends with who or what decided it (lib/bridge/prompts/prompt-life.ts hands every settled prompt here), each budget
// stop. Every decision also goes to Hermes' log as one structured `decision` line: the audit trail.
import type { HermesEvent } from "../../hermes-events.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { Prompt, Registry } from "../../registry/registry.ts";
import { DigestLog, decisionLogFields, type Decision, type DigestSlice, type RunOutcome, type RunStarter } from "../../walkaway/digest-log.ts";
import { decisionOf } from "../../walkaway/prompt-decision.ts";
import { DeskQuiet } from "./desk-quiet.ts";

export interface DigestFeedDeps {
  registry: Registry;
  /** Whether the busy run ends early (Stop, the budget): read before the activity tracker sees the idle. */
  activity: Pick<ActivityTracker, "endsEarly">;
  /** What the run cost so far (read at its end, before the Done notice takes it). */
  costs: { spent(sessionID: string): { cost: number } | undefined };
  log: Logger;
  t: Strings;
  now: () => number;
  /** HERMES_DESK_DELAY (ms; undefined: off): the desk's signs are read here (desk-quiet.ts). */
  deskDelayMs?: number | undefined;
}

const ABORTED = "MessageAbortedError";

export class DigestFeed {
  readonly #deps: DigestFeedDeps;
  readonly #log = new DigestLog();
  /** Sessions the phone (or a schedule, through the same links) just sent a prompt: their next run is theirs. */
  readonly #fromPhone = new Set<string>();
  /** How each running root's run is ending, from its errors, until its idle. */
  readonly #ending = new Map<string, Exclude<RunOutcome, "running">>();
  /** Quiet while the person is at the desk: its signs are the runs started and the prompts answered there. */
  readonly desk: DeskQuiet;

  constructor(deps: DigestFeedDeps) {
    this.#deps = deps;
    this.desk = new DeskQuiet({ delayMs: deps.deskDelayMs, now: deps.now, log: deps.log });
  }

  /** A prompt the phone sends a session (lib/bridge/core/instance-links.ts calls this before sending it). */
  promptedFromPhone(sessionID: string): void {
    this.#fromPhone.add(this.#deps.registry.sessions.rootOf(sessionID));
    while (this.#fromPhone.size > 500) this.#fromPhone.delete(this.#fromPhone.values().next().value!);
  }

  observe(directory: string, event: HermesEvent): void {
    const { registry, now } = this.#deps;
    switch (event.type) {
      case "session.status": {
        const root = registry.sessions.rootOf(event.sessionID);
        if (root !== event.sessionID) return;
        if (event.status === "idle") {
          this.#ended(root);
          return;
        }
        if (this.#isRunning(root)) return;
        this.#ending.delete(root);
        const title = registry.sessions.title(root);
        const startedBy = this.#starter(root, title);
        this.#log.runStarted({ sessionID: root, directory, startedBy, ...(title ? { title } : {}) }, now());
        this.#fromPhone.delete(root);
        if (startedBy === "terminal") this.desk.sign("a prompt typed at the desk");
        return;
      }
      case "session.idle":
        if (registry.sessions.rootOf(event.sessionID) === event.sessionID) this.#ended(event.sessionID);
        return;
      case "session.error": {
        const root = registry.sessions.rootOf(event.sessionID);
        if (root !== event.sessionID || !this.#isRunning(root)) return;
        this.#ending.set(root, event.limit ? "paused" : event.name === ABORTED ? "stopped" : "failed");
        return;
      }
      case "session.upserted":
        if (event.info.title) this.#log.titled(event.info.id, event.info.title);
        return;
      default:
        return;
    }
  }

  /** A prompt ended (prompt-life.ts' settle): its decision, recorded and logged. */
  settled(prompt: Prompt): void {
    const decision = decisionOf(prompt, this.#deps.now());
    if (decision) this.#decided(decision);
    if (decision?.source.kind === "terminal") this.desk.sign("a prompt answered at the desk");
  }

  /** Before a new prompt reaches the phone (lib/bridge/prompts/prompt-life.ts): the desk's delay, if the person is there. */
  delivering(): Promise<void> {
    return this.desk.wait();
  }

  /** The Done notice of a run started at the desk goes silently while the person is there (HERMES_DESK_DELAY set). */
  quietDone(sessionID: string): boolean {
    return this.desk.atDesk() && this.#log.startedBy(this.#deps.registry.sessions.rootOf(sessionID)) === "terminal";
  }

  /** How many files a session's run changed, read just after its end (lib/bridge/runs/run-notices.ts). */
  filesChanged(sessionID: string, count: number): void {
    if (this.#deps.registry.sessions.rootOf(sessionID) === sessionID) this.#log.runFiles(sessionID, count);
  }

  /** The stall alert went up for a run (stall-alerts.ts): it ends as stalled unless it is stopped, fails or is paused. */
  stalled(sessionID: string): void {
    const root = this.#deps.registry.sessions.rootOf(sessionID);
    if (this.#isRunning(root) && !this.#ending.has(root)) this.#ending.set(root, "stalled");
  }

  /** The run budget stopped a run (lib/bridge/approvals/run-budget.ts). */
  budgetStopped(sessionID: string, directory: string, spent: number, cap: number): void {
    const asked = `$${spent.toFixed(2)} of $${cap.toFixed(2)}`;
    const at = this.#deps.now();
    this.#decided({
      at,
      sessionID,
      directory,
      requestID: "",
      kind: "budget",
      asked,
      answer: "stopped",
      answerKind: "stopped",
      source: { kind: "budget-stop" },
    });
  }

  /** Everything since `since`, for one session or all (/digest). */
  slice(since: number, sessionID?: string): DigestSlice {
    return this.#log.slice(since, this.#deps.now(), sessionID);
  }

  get sizes(): { runs: number; decisions: number } {
    return this.#log.sizes;
  }

  #decided(decision: Decision): void {
    this.#log.decided(decision, decision.at);
    this.#deps.log.info(decisionLogFields(decision), "decision");
  }

  #isRunning(root: string): boolean {
    return this.#log.running(root);
  }

  #ended(root: string): void {
    if (!this.#isRunning(root)) return;
    const { activity, costs, now } = this.#deps;
    const early = activity.endsEarly(root) ? "stopped" : "done";
    const ending = this.#ending.get(root);
    // A stalled run stopped (its alert's Stop, or /stop) ended stopped; one that went on by itself stays stalled.
    const outcome = ending === undefined || (ending === "stalled" && early === "stopped") ? early : ending;
    this.#ending.delete(root);
    const cost = costs.spent(root)?.cost;
    if (cost !== undefined) this.#log.runUsage(root, { cost });
    this.#log.runEnded(root, outcome, now());
    this.#fromPhone.delete(root);
  }

  #starter(root: string, title: string | undefined): RunStarter {
    // A scheduled run starts a session titled "⏰ …" (lib/bridge/schedules/schedule-runner.ts) through the phone's links.
    if (title?.startsWith(this.#deps.t.schedule.title(""))) return "schedule";
    return this.#fromPhone.has(root) ? "phone" : "terminal";
  }
}
