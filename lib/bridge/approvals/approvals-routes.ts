// Approvals that know what they approve (issue 42), as the bridge sees them: risk flags and
// "Allow in this session" (session-allow.ts), the run budget (run-budget.ts), the run events they
// read (the runs' events) and their routes on the gate: Revoke on /status' list of rules, Continue
// on a run stopped at its budget, `/budget` as a reply to a session's message (it arrives as text)
// or on its own (how to use it).
import type { HermesEvent } from "../../hermes-events.ts";
import type { Html } from "../../text/html.ts";
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

  /** `progress`: the bridge's live progress, if it has one (each auto-answer is shown there). */
  constructor(
    deps: Omit<SessionAllowDeps & RunBudgetDeps, "progress" | "defaultCap">,
    options: ApprovalOptions,
    progress: () => { note(sessionID: string, html: Html): boolean } | undefined,
  ) {
    this.allow = new SessionAllow({ ...deps, progress: { note: (sessionID, html) => progress()?.note(sessionID, html) ?? false } });
    this.budget = new RunBudget({ ...deps, defaultCap: options.runBudget });
  }

  /** Feeds a run's event (runs/run-notices.ts does, after run-costs.ts counted it). */
  observe(directory: string, event: HermesEvent): void {
    this.allow.observe(event);
    this.budget.observe(directory, event);
  }

  /** How many requests session rules answered in the session's run (its Done notice takes the count). */
  takeAnswered(sessionID: string): number {
    return this.allow.takeAnswered(sessionID);
  }

  /** Adds the routes to the gate; returns what offers /status the session rules (commands.ts). */
  route(gate: Gate): SessionAllow {
    const { allow, budget } = this;
    gate.route("callback", { claim: (tap) => allow.claimTap(tap), unclaimed: (tap) => allow.unclaimedTap(tap) });
    gate.route("callback", { claim: (tap) => budget.claimTap(tap), unclaimed: (tap) => budget.unclaimedTap(tap) });
    gate.route("text", { claim: (text) => budget.claimText(text) });
    gate.route("command", { unclaimed: (command) => budget.unclaimedCommand(command.name, command.messageId) });
    return allow;
  }
}
