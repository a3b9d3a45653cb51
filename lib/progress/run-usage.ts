// What each run used, pure: the assistant messages' usage in (OpenCode repeats a message's counts as
// they grow: the latest of each message wins), per run of a root session (its sub-agents' messages
// count in it) the tokens and dollars so far out, and how full the root's context is (its last
// answer's tokens). A new run of the session starts from zero. Bounded: a run keeps the latest
// counts of its last few messages and the sum of the ones before; the runs of the last
// RUNS_KEPT sessions are kept, the oldest forgotten first.
import type { MessageUsage, ModelRef } from "../hermes-events.ts";

/** A run's use so far. `tokens`: every token counted (input, output, reasoning, cache read and write). */
export interface RunSpent {
  tokens: number;
  /** Dollars; 0 when the model has no price. */
  cost: number;
  /** The root's last answer: its tokens (what the context holds) and its model, if named. */
  context?: { tokens: number; model?: ModelRef };
}

/** Sessions whose run is remembered (a run is forgotten once its Done is rendered, or with its session). */
export const RUNS_KEPT = 200;
/** Messages of one run whose counts may still grow (a run's parallel sub-agents each have one). */
const OPEN_MESSAGES = 16;

interface Run {
  /** The messages that stopped growing, summed. */
  settled: { tokens: number; cost: number };
  /** The latest counts of the newest messages, oldest first. */
  open: Map<string, MessageUsage>;
  context?: { tokens: number; model?: ModelRef };
}

export class RunUsage {
  readonly #runs = new Map<string, Run>();

  /** The root session starts a run: it counts from zero. */
  start(root: string): void {
    this.#runs.delete(root);
    this.#runs.set(root, { settled: { tokens: 0, cost: 0 }, open: new Map() });
    while (this.#runs.size > RUNS_KEPT) this.#runs.delete(this.#runs.keys().next().value!);
  }

  /** One assistant message's counts so far; `ofRoot`: the root session's own (not a sub-agent's). */
  note(root: string, messageID: string, usage: MessageUsage, ofRoot: boolean, model?: ModelRef): void {
    let run = this.#runs.get(root);
    if (!run) {
      this.start(root);
      run = this.#runs.get(root)!;
    }
    run.open.delete(messageID);
    run.open.set(messageID, usage);
    if (run.open.size > OPEN_MESSAGES) {
      const [oldest, counts] = run.open.entries().next().value!;
      run.open.delete(oldest);
      run.settled = { tokens: run.settled.tokens + tokensOf(counts), cost: run.settled.cost + counts.cost };
    }
    const tokens = tokensOf(usage);
    if (ofRoot && tokens > 0) run.context = { tokens, ...((model ?? run.context?.model) ? { model: model ?? run.context!.model! } : {}) };
  }

  /** The run's use so far; undefined when nothing was counted. */
  spent(root: string): RunSpent | undefined {
    const run = this.#runs.get(root);
    if (!run) return undefined;
    let { tokens, cost } = run.settled;
    for (const usage of run.open.values()) {
      tokens += tokensOf(usage);
      cost += usage.cost;
    }
    if (tokens === 0 && cost === 0) return undefined;
    return { tokens, cost, ...(run.context ? { context: run.context } : {}) };
  }

  forget(root: string): void {
    this.#runs.delete(root);
  }

  /** How many runs are remembered. */
  get size(): number {
    return this.#runs.size;
  }
}

/** The counts' sum, clamped to 2^53 − 1 (a provider may report more: the count then still travels as a safe integer). */
function tokensOf(usage: MessageUsage): number {
  return Math.min(Math.round(usage.input + usage.output + usage.reasoning + usage.cacheRead + usage.cacheWrite), Number.MAX_SAFE_INTEGER);
}
