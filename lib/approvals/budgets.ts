// Run budgets, pure: the cap every run has (HERMES_RUN_BUDGET, off by default) or the one /budget
// set for a session, and each run's verdict as its cost grows: over the cap (once per run, until
// Continue raises it or the stop fails: then the next crossing says it again), or no cost counted at all though tokens were (a model without prices: said
// once per run). Continue carries what the stopped run spent into the run it starts, so the raised
// cap means what it says.

/** Sessions whose budget or carry is remembered; the oldest goes first. */
export const BUDGETS_KEPT = 500;

export type BudgetVerdict = { kind: "over"; spent: number; cap: number } | { kind: "no-cost"; cap: number };

interface SessionBudget {
  /** Set by /budget; null: switched off for this session. */
  cap?: number | null;
  /** What earlier runs of this budget spent (Continue). */
  carry: number;
  /** Said already in this run. */
  over: boolean;
  noCost: boolean;
}

export class Budgets {
  readonly #sessions = new Map<string, SessionBudget>();

  constructor(private readonly defaultCap: number | undefined) {}

  /** The cap of the session's runs, in dollars; undefined: none. */
  capOf(root: string): number | undefined {
    const cap = this.#sessions.get(root)?.cap;
    return cap === null ? undefined : (cap ?? this.defaultCap);
  }

  /** /budget: a cap for this session's runs (undefined: off). */
  set(root: string, cap: number | undefined): void {
    this.#session(root).cap = cap ?? null;
  }

  /** A new run of the session: its verdicts may be said again (a Continue's carry stays for it). */
  startRun(root: string, continued: boolean): void {
    const session = this.#sessions.get(root);
    if (!session) return;
    session.over = false;
    session.noCost = false;
    if (!continued) session.carry = 0;
  }

  /** What the run spent with what the runs it continues spent. */
  spent(root: string, runCost: number): number {
    return (this.#sessions.get(root)?.carry ?? 0) + runCost;
  }

  /** The run's verdict now, once each; undefined: nothing to say. */
  check(root: string, run: { cost: number; tokens: number }): BudgetVerdict | undefined {
    const cap = this.capOf(root);
    if (cap === undefined) return undefined;
    const session = this.#session(root);
    const spent = session.carry + run.cost;
    if (spent >= cap && run.cost > 0) {
      if (session.over) return undefined;
      session.over = true;
      return { kind: "over", spent, cap };
    }
    if (run.cost <= 0 && run.tokens > 0 && !session.noCost) {
      session.noCost = true;
      return { kind: "no-cost", cap };
    }
    return undefined;
  }

  /**
   * Continue: the cap grows by `step`, and what was spent carries into the next run. The next
   * crossing stops again, even when the stopped run never went idle (no new run was seen).
   */
  raise(root: string, step: number, spent: number): number {
    const session = this.#session(root);
    const cap = (this.capOf(root) ?? 0) + step;
    session.cap = cap;
    session.carry = spent;
    session.over = false;
    return cap;
  }

  /** The stop failed (OpenCode refused the abort, or could not be reached): the next crossing tries again. */
  stopFailed(root: string): void {
    const session = this.#sessions.get(root);
    if (session) session.over = false;
  }

  forget(root: string): void {
    this.#sessions.delete(root);
  }

  #session(root: string): SessionBudget {
    let session = this.#sessions.get(root);
    if (!session) {
      session = { carry: 0, over: false, noCost: false };
      this.#sessions.set(root, session);
      while (this.#sessions.size > BUDGETS_KEPT) this.#sessions.delete(this.#sessions.keys().next().value!);
    }
    return session;
  }
}

/** `/budget 2.50`, `/budget $2`, `/budget off`: dollars, "off", or undefined when not understood. */
export function parseBudget(text: string): number | "off" | undefined {
  const value = text.trim().toLowerCase();
  if (value === "off" || value === "0" || value === "none") return "off";
  const amount = Number(value.startsWith("$") ? value.slice(1) : value);
  return Number.isFinite(amount) && amount > 0 && amount <= 100_000 && value !== "" ? amount : undefined;
}
