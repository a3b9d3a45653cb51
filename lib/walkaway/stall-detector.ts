// Which busy runs are stalled (pure; the caller owns the clock and calls `check` on a timer). A
// run is stalled when it has shown no new event for `afterMs`, or one of its tool calls has been
// running that long (OpenCode publishes nothing at all during a long tool call: a `sleep 600`
// is as silent as a hung one). A run waiting on a question or permission that is on the phone is
// not stalled, and the time it waited does not count. One alert per stall: `check` raises it once,
// the next event that ends the stall says it moves again, and Keep waiting silences the run for
// another window. Keyed by the run's root session: the caller counts a sub-agent's events as its
// root's, and a `task` (2.0.15: `subagent`) call's own time is its sub-agent's, not a stall.

/** HERMES_STALL_AFTER's default. */
export const DEFAULT_STALL_AFTER_MS = 10 * 60_000;

/** Tools whose long running is someone else's progress (a sub-agent's events come on its own session). */
const DELEGATING_TOOLS = new Set(["task", "subagent"]);

export interface RunningTool {
  callID: string;
  tool: string;
  /** What it runs, as the phone shows it (a command, a path), when known. */
  detail?: string;
  since: number;
}

/** A stall as the alert tells it. */
export interface Stall {
  sessionID: string;
  /** Since the run's last event. */
  quietMs: number;
  /** The tool call running longest, when one runs. */
  tool?: RunningTool & { runningMs: number };
}

interface RunWatch {
  lastEventAt: number;
  tools: Map<string, RunningTool>;
  /** Prompts of the run on the phone, waiting. */
  prompts: number;
  alerted: boolean;
  silencedUntil: number;
}

export class StallDetector {
  readonly #afterMs: number;
  readonly #runs = new Map<string, RunWatch>();

  constructor(afterMs: number) {
    this.#afterMs = afterMs;
  }

  get afterMs(): number {
    return this.#afterMs;
  }

  /** The run is busy (a run starts, or goes on): watched from now. */
  busy(sessionID: string, now: number): void {
    if (!this.#runs.has(sessionID)) this.#runs.set(sessionID, { lastEventAt: now, tools: new Map(), prompts: 0, alerted: false, silencedUntil: 0 });
  }

  /** The run ended. Returns true when an alert of it was up (the caller says it ended). */
  idle(sessionID: string): boolean {
    const run = this.#runs.get(sessionID);
    this.#runs.delete(sessionID);
    return run?.alerted ?? false;
  }

  /** Any sign of progress (text, tokens, a tool's state). Returns true when it ends a stall that was alerted. */
  event(sessionID: string, now: number): boolean {
    const run = this.#runs.get(sessionID);
    if (!run) return false;
    run.lastEventAt = now;
    return this.#endsAlert(run, now);
  }

  /** A tool call's state; `running` starts its clock (once), `completed`/`failed` stops it. Counts as an event. */
  tool(sessionID: string, call: { callID: string; tool?: string; detail?: string; state: "running" | "completed" | "failed" }, now: number): boolean {
    const run = this.#runs.get(sessionID);
    if (!run) return false;
    if (call.state === "running") {
      const known = run.tools.get(call.callID);
      if (known) {
        if (call.tool) known.tool = call.tool;
        if (call.detail) known.detail = call.detail;
      } else run.tools.set(call.callID, { callID: call.callID, tool: call.tool ?? "tool", since: now, ...(call.detail ? { detail: call.detail } : {}) });
    } else run.tools.delete(call.callID);
    return this.event(sessionID, now);
  }

  /** A prompt of the run reached the phone: no stall while it waits. */
  promptOpened(sessionID: string): void {
    const run = this.#runs.get(sessionID);
    if (run) run.prompts++;
  }

  /** The prompt was settled: the run's clocks start again from now (the wait was the person's, not the run's). */
  promptClosed(sessionID: string, now: number): void {
    const run = this.#runs.get(sessionID);
    if (!run) return;
    run.prompts = Math.max(0, run.prompts - 1);
    run.lastEventAt = now;
    for (const tool of run.tools.values()) tool.since = Math.max(tool.since, now);
  }

  /** Keep waiting: the alert is down, and no other for another window. */
  keepWaiting(sessionID: string, now: number): boolean {
    const run = this.#runs.get(sessionID);
    if (!run) return false;
    run.alerted = false;
    run.silencedUntil = now + this.#afterMs;
    return true;
  }

  isAlerted(sessionID: string): boolean {
    return this.#runs.get(sessionID)?.alerted ?? false;
  }

  /** The runs newly stalled at `now`: each raised once until it moves again or is silenced. */
  check(now: number): Stall[] {
    const stalls: Stall[] = [];
    for (const [sessionID, run] of this.#runs) {
      if (run.alerted || run.prompts > 0 || now < run.silencedUntil) continue;
      const stall = this.#stallOf(sessionID, run, now);
      if (!stall) continue;
      run.alerted = true;
      stalls.push(stall);
    }
    return stalls;
  }

  /** When `check` could next find a stall, if ever (for the caller's timer). */
  nextCheck(): number | undefined {
    let next: number | undefined;
    for (const run of this.#runs.values()) {
      if (run.alerted || run.prompts > 0) continue;
      let at = run.lastEventAt + this.#afterMs;
      for (const tool of run.tools.values()) if (!DELEGATING_TOOLS.has(tool.tool)) at = Math.min(at, tool.since + this.#afterMs);
      at = Math.max(at, run.silencedUntil);
      next = Math.min(next ?? Infinity, at);
    }
    return next;
  }

  get size(): number {
    return this.#runs.size;
  }

  #stallOf(sessionID: string, run: RunWatch, now: number): Stall | undefined {
    const quietMs = now - run.lastEventAt;
    let longest: RunningTool | undefined;
    for (const tool of run.tools.values()) if (!DELEGATING_TOOLS.has(tool.tool) && (!longest || tool.since < longest.since)) longest = tool;
    const toolStalled = longest !== undefined && now - longest.since >= this.#afterMs;
    if (quietMs < this.#afterMs && !toolStalled) return undefined;
    return { sessionID, quietMs, ...(longest ? { tool: { ...longest, runningMs: now - longest.since } } : {}) };
  }

  #endsAlert(run: RunWatch, now: number): boolean {
    if (!run.alerted) return false;
    for (const tool of run.tools.values()) if (!DELEGATING_TOOLS.has(tool.tool) && now - tool.since >= this.#afterMs) return false;
    run.alerted = false;
    return true;
  }
}
