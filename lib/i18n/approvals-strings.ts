// The shape of the strings of approvals (issue 42): risk flags' reasons, "Allow in this session"
// and its rules, the run budget. Part of the catalogue (strings.ts' `approvals`), filled in by
// approvals-en.ts and approvals-zh.ts. Parameters typed Html come escaped; amounts come formatted
// ("$2.00"). Plain strings are escaped where they are shown (or are button labels and tap answers).
import type { Html } from "../text/html.ts";

export interface ApprovalStrings {
  /** One reason per risk category (lib/approvals/risk.ts), shown as "⚠️ <reason>: <part>". */
  reasons: {
    "network-code": string;
    "runs-code": string;
    hidden: string;
    unreadable: string;
    deletes: string;
    "force-push": string;
    elevated: string;
    secrets: string;
    "runs-later": string;
    publishes: string;
    outside: string;
  };
  /** "… and 3 more flags" when the message has no room for all. */
  moreFlags: (count: number) => string;
  /** The button beside Allow once and Always. */
  sessionButton: string;
  /** The tap's answer. */
  sessionNote: string;
  /** A flagged request offers no session rule (a forged or stale tap). */
  flaggedNoSession: string;
  /** The confirmation on the message: allowed once, and what the session rule covers from now on. */
  allowedInSession: Html;
  sessionScope: (permission: Html, scope: Html) => Html;
  /** One item of a rule's scope, in words: a command's start with any arguments after it, a command exactly, a file. */
  scopeOpen: (code: Html) => Html;
  scopeExact: (code: Html) => Html;
  scopeFile: (code: Html) => Html;
  /** The progress line of a request a session rule answered. */
  autoAllowed: (permission: Html, what: Html) => Html;
  /** The Done notice's count. */
  autoAllowedCount: (count: number) => string;
  /** /status: this process' session rules, each with Revoke. */
  rulesTitle: (count: number) => Html;
  rule: (index: number, project: Html, session: Html, permission: Html, scope: Html, used: number) => Html;
  revokeButton: (index: number) => string;
  revoked: string;
  ruleGone: string;
  /** The run budget. */
  budgetSet: (amount: Html) => Html;
  budgetOff: Html;
  budgetUsage: Html;
  budgetNoSession: Html;
  /** On the progress message, beside the cost: "$0.12 of $2.00". */
  budgetProgress: (spent: Html, cap: Html) => Html;
  /** The run crossed its budget and was stopped. */
  budgetStopped: (spent: Html, cap: Html, project: Html) => Html;
  budgetStopFailed: (spent: Html, cap: Html, error: Html) => Html;
  continueButton: (step: string) => string;
  continued: (cap: Html) => Html;
  continueGone: string;
  /** The model has no prices: the budget can't be kept (said once per run). */
  budgetNoCost: (cap: Html) => Html;
  /** The menu's and /help's line of /budget. */
  budgetCommand: string;
}
