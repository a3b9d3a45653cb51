// Approvals that know what they approve (issue 42), as the bridge sees them: risk flags and
// "Allow in this session" (session-allow.ts), the run budget (run-budget.ts), their events and their
// routes on the gate: Revoke on /status' list of rules, Continue on a run stopped at its budget,
// `/budget` as a reply to a session's message (it arrives as text) or on its own (how to use it).
// Routed before the bridge's own routes: Commands answers any command it does not know with /help,
// UserInput calls any tap it does not know stale, TypedText takes any reply as the session's next message.
import type { HermesEvent } from "../../hermes-events.ts";
import type { Gate } from "../core/gate.ts";
import { RunBudget, type RunBudgetDeps } from "./run-budget.ts";
import { SessionAllow, type SessionAllowDeps } from "./session-allow.ts";

/** The bridge's options for approvals. */
export interface ApprovalOptions {
  /** HERMES_RUN_BUDGET: dollars every run may spend before it is stopped; undefined: no cap (/budget may set one). */
  runBudget?: number;
}

export class Approvals {
  readonly allow: SessionAllow;
  readonly budget: RunBudget;

  constructor(deps: SessionAllowDeps & RunBudgetDeps) {
    this.allow = new SessionAllow(deps);
    this.budget = new RunBudget(deps);
  }

  /**
   * Feeds an event. The budget reads the run's cost after runs/run-costs.ts counted the same event,
   * which the bridge does after this call, in the same turn: its check waits a microtask.
   */
  observe(directory: string, event: HermesEvent): void {
    this.allow.observe(event);
    queueMicrotask(() => this.budget.observe(directory, event));
  }

  route(gate: Gate): void {
    const { allow, budget } = this;
    gate.route("callback", { claim: (tap) => allow.claimTap(tap), unclaimed: (tap) => allow.unclaimedTap(tap) });
    gate.route("callback", { claim: (tap) => budget.claimTap(tap), unclaimed: (tap) => budget.unclaimedTap(tap) });
    gate.route("text", { claim: (text) => budget.claimText(text) });
    gate.route("command", { unclaimed: (command) => budget.unclaimedCommand(command.name, command.messageId) });
  }
}
