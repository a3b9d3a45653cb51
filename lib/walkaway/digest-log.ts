// What happened while the person was away (pure, in memory, bounded): every run with who started
// it, how it ended, what it cost and how many files it changed, and every decision in order: each
// question and its answer, each permission with what it asked and who or what decided it. /digest
// reads it; the same decisions go to the log as one structured `decision` line each. Bounded by
// age (the last day) and by count (2,000 decisions, 2,000 runs), whichever is smaller.

export const DIGEST_MAX_AGE_MS = 24 * 3_600_000;
export const DIGEST_MAX_DECISIONS = 2_000;
export const DIGEST_MAX_RUNS = 2_000;

/** Who started a run. */
export type RunStarter = "phone" | "terminal" | "schedule";

/** How a run ended; `running` while it has not. */
export type RunOutcome = "running" | "done" | "failed" | "stopped" | "paused" | "stalled";

export interface RunRecord {
  sessionID: string;
  /** The project's directory, when known. */
  directory?: string;
  title?: string;
  startedBy: RunStarter;
  startedAt: number;
  endedAt?: number;
  outcome: RunOutcome;
  /** Dollars, as OpenCode counted them. */
  cost: number;
  filesChanged: number;
}

/** Who or what decided a prompt. */
export type DecisionSource =
  /** A person on the phone, by name. */
  | { kind: "phone"; by: string }
  | { kind: "terminal" }
  /** "Allow in this session": a rule made on the phone answered it. */
  | { kind: "session-rule"; rule: string }
  /** OpenCode's own Always (an earlier "always" reply covered it). */
  | { kind: "opencode-always" }
  /** The run budget stopped the run. */
  | { kind: "budget-stop" }
  /** Its run was stopped (Stop on the phone, the budget): nobody answered it. */
  | { kind: "run-stopped" }
  /** Nobody answered in time: Hermes dismissed or rejected it (HERMES_QUESTION_TTL, HERMES_PERMISSION_TTL). */
  | { kind: "timeout" }
  /** Nobody: the run ended or the request went away unanswered. */
  | { kind: "unanswered" };

export type AnswerKind = "labels" | "once" | "always" | "reject" | "dismissed" | "gone" | "stopped";

export interface Decision {
  at: number;
  sessionID: string;
  /** The project's directory. */
  directory?: string;
  requestID: string;
  kind: "question" | "permission" | "budget";
  /** What it asked: the question, or the permission and its patterns. */
  asked: string;
  /** The answer: labels (a question), once/always/reject (a permission), dismissed, or the stop (a budget). */
  answer: string;
  /** What kind of answer, for the phone's words: the labels as they are, the others translated. */
  answerKind: AnswerKind;
  source: DecisionSource;
}

export interface DigestBounds {
  maxAgeMs: number;
  maxDecisions: number;
  maxRuns: number;
}

export interface DigestSlice {
  since: number;
  runs: RunRecord[];
  decisions: Decision[];
}

const DEFAULT_BOUNDS: DigestBounds = { maxAgeMs: DIGEST_MAX_AGE_MS, maxDecisions: DIGEST_MAX_DECISIONS, maxRuns: DIGEST_MAX_RUNS };

export class DigestLog {
  readonly #bounds: DigestBounds;
  /** By start, oldest first; a session's current run is the last of its records. */
  #runs: RunRecord[] = [];
  #decisions: Decision[] = [];
  /** Age is pruned at most once a minute of the log's clock (a busy log is not filtered on every event). */
  #agePrunedAt = Number.NEGATIVE_INFINITY;

  constructor(bounds: Partial<DigestBounds> = {}) {
    this.#bounds = { ...DEFAULT_BOUNDS, ...bounds };
  }

  /** A run starts (a session went busy when it was not). A run already going is left as it is. */
  runStarted(run: { sessionID: string; directory?: string; title?: string; startedBy: RunStarter }, now: number): void {
    if (this.#current(run.sessionID)) return;
    this.#runs.push({ ...run, startedAt: now, outcome: "running", cost: 0, filesChanged: 0 });
    this.#prune(now);
  }

  /** What the run has cost so far and the files it changed, when OpenCode says. */
  runUsage(sessionID: string, usage: { cost?: number; filesChanged?: number }): void {
    const run = this.#current(sessionID);
    if (!run) return;
    if (usage.cost !== undefined) run.cost = usage.cost;
    if (usage.filesChanged !== undefined) run.filesChanged = usage.filesChanged;
  }

  /** How many files the session's last ended run changed (read just after its end: lib/bridge/runs/run-notices.ts). */
  runFiles(sessionID: string, count: number): void {
    for (let i = this.#runs.length - 1; i >= 0; i--) {
      const run = this.#runs[i]!;
      if (run.sessionID !== sessionID || run.outcome === "running") continue;
      run.filesChanged = count;
      return;
    }
  }

  /** A session's title, once known. */
  titled(sessionID: string, title: string): void {
    for (const run of this.#runs) if (run.sessionID === sessionID) run.title = title;
  }

  /**
   * How the run ended. A later outcome replaces an earlier one only when it says more (a run
   * `paused` by a limit and then stopped is stopped; `failed` then `done` stays failed).
   */
  runEnded(sessionID: string, outcome: Exclude<RunOutcome, "running">, now: number): void {
    const run = this.#current(sessionID) ?? this.#last(sessionID);
    if (!run) return;
    if (run.outcome === "running" || rank(outcome) > rank(run.outcome)) run.outcome = outcome;
    run.endedAt = now;
  }

  decided(decision: Decision, now: number): void {
    this.#decisions.push(decision);
    this.#prune(now);
  }

  /** Everything since `since` (a run that started before it but went on after it too), for one session or all. */
  slice(since: number, now: number, sessionID?: string): DigestSlice {
    this.#prune(now, true);
    const mine = (id: string) => sessionID === undefined || id === sessionID;
    return {
      since,
      runs: this.#runs.filter((run) => mine(run.sessionID) && (run.startedAt >= since || (run.endedAt ?? now) >= since)).map((run) => ({ ...run })),
      decisions: this.#decisions.filter((d) => mine(d.sessionID) && d.at >= since).map((d) => ({ ...d })),
    };
  }

  /** Who started the session's last run. */
  startedBy(sessionID: string): RunStarter | undefined {
    return this.#last(sessionID)?.startedBy;
  }

  /** Whether the session's last run is still going. */
  running(sessionID: string): boolean {
    return this.#current(sessionID) !== undefined;
  }

  get sizes(): { runs: number; decisions: number } {
    return { runs: this.#runs.length, decisions: this.#decisions.length };
  }

  #current(sessionID: string): RunRecord | undefined {
    const run = this.#last(sessionID);
    return run?.outcome === "running" ? run : undefined;
  }

  #last(sessionID: string): RunRecord | undefined {
    for (let i = this.#runs.length - 1; i >= 0; i--) if (this.#runs[i]!.sessionID === sessionID) return this.#runs[i];
    return undefined;
  }

  #prune(now: number, force = false): void {
    if (this.#decisions.length > this.#bounds.maxDecisions) this.#decisions.splice(0, this.#decisions.length - this.#bounds.maxDecisions);
    if (this.#runs.length > this.#bounds.maxRuns) this.#runs.splice(0, this.#runs.length - this.#bounds.maxRuns);
    if (!force && now - this.#agePrunedAt < AGE_PRUNE_EVERY_MS) return;
    this.#agePrunedAt = now;
    const oldest = now - this.#bounds.maxAgeMs;
    if (this.#decisions.length > 0 && this.#decisions[0]!.at < oldest) this.#decisions = this.#decisions.filter((d) => d.at >= oldest);
    this.#runs = this.#runs.filter((run) => run.outcome === "running" || (run.endedAt ?? run.startedAt) >= oldest);
  }
}

const AGE_PRUNE_EVERY_MS = 60_000;

const RANKS: Record<RunOutcome, number> = { running: 0, done: 1, paused: 2, stalled: 3, failed: 4, stopped: 5 };

function rank(outcome: RunOutcome): number {
  return RANKS[outcome];
}

/** The decision as one structured log line's fields (`decision`, the session, the request, the answer and its source). */
export function decisionLogFields(decision: Decision): Record<string, unknown> {
  const source =
    decision.source.kind === "phone"
      ? `phone:${decision.source.by}`
      : decision.source.kind === "session-rule"
        ? `session-rule:${decision.source.rule}`
        : decision.source.kind;
  return {
    decision: decision.kind,
    sessionID: decision.sessionID,
    requestID: decision.requestID,
    asked: decision.asked,
    answer: decision.answer,
    source,
  };
}
