// The strings of approvals in English: risk flags, "Allow in this session", the run budget.
import type { ApprovalStrings } from "./approvals-strings.ts";
import { html } from "../text/html.ts";

export const approvalsEn: ApprovalStrings = {
  reasons: {
    "network-code": "Runs code from the network",
    hidden: "Hides what it runs",
    unreadable: "Hermes could not read this command",
    deletes: "Deletes or discards",
    "force-push": "Rewrites what others see",
    elevated: "Runs with more rights",
    secrets: "Reads secrets",
    "runs-later": "Edits something that runs later",
    publishes: "Changes what others see",
    outside: "Leaves the project",
  },
  moreFlags: (count) => `⚠️ … and ${count} more`,
  sessionButton: "✅ Allow in this session",
  sessionNote: "Allowed, and for the rest of this session",
  flaggedNoSession: "A flagged request is never allowed for the session",
  allowedInSession: html`✅ <b>Allowed in this session</b>`,
  sessionScope: (permission, scope) =>
    html`Until the session ends or /status revokes it, Hermes answers “once” by itself to ${permission}: ${scope} (never to a flagged request).`,
  autoAllowed: (permission, what) => html`✔ auto-allowed in this session: ${permission} <code>${what}</code>`,
  autoAllowedCount: (count) => `✔ ${count} ${count === 1 ? "request" : "requests"} auto-allowed in this session`,
  rulesTitle: (count) => html`🔓 <b>Allowed in this session</b> (${count})`,
  rule: (index, project, session, permission, scope, used) => html`${index}. <code>${project}</code> · ${session} · ${permission}: ${scope} · used ${used}×`,
  revokeButton: (index) => `✖ Revoke ${index}`,
  revoked: "Revoked: the next such request asks again",
  ruleGone: "That rule is gone already",
  budgetSet: (amount) => html`💰 This session's runs stop at <b>${amount}</b>.`,
  budgetOff: html`💰 No budget for this session's runs.`,
  budgetUsage: html`💰 Reply to a session's message with <code>/budget 2.50</code> (dollars) or <code>/budget off</code>.`,
  budgetNoSession: html`💰 Reply with /budget to a message of the session it is for.`,
  budgetProgress: (spent, cap) => html`💰 ${spent} of ${cap}`,
  budgetStopped: (spent, cap, project) => html`💰 <b>Stopped at ${spent} of a ${cap} budget</b> · ${project}`,
  budgetStopFailed: (spent, cap, error) => html`💰 <b>Over budget: ${spent} of ${cap}</b>, but the run could not be stopped: ${error}`,
  continueButton: (step) => `▶️ Continue (+${step})`,
  continued: (cap) => html`▶️ Continued with a budget of ${cap}`,
  continueGone: "This run can't be continued from here any more",
  budgetNoCost: (cap) => html`💰 This model reports no cost: the ${cap} budget can't be kept for this run.`,
  budgetCommand: "Cap a session's spending per run: reply /budget 2.50 or /budget off",
};
