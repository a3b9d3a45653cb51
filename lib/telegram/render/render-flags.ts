// A permission's risk flags as the phone shows them, before its buttons: one line each, most severe
// first, "⚠️ <reason>: <the part that earned it>"; and what "Allow in this session" covers. Pure.
// The part is the agent's text: revealed, escaped and cut.
import type { RiskFlag } from "../../approvals/risk.ts";
import type { ShownScope } from "../../approvals/rule-scope.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import { escapeHtml, escapeWithin, html, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";

/** Flag lines shown at most; the rest are counted. */
export const FLAGS_SHOWN = 6;
/** Escaped length of each flag's part. */
const PART_LIMIT = 120;
/** Escaped length of a session rule's scope. */
const SCOPE_LIMIT = 300;

export function flagLines(flags: readonly RiskFlag[], t: Strings): Html[] {
  const lines = flags
    .slice(0, FLAGS_SHOWN)
    .map((flag) => html`⚠️ <b>${escapeHtml(t.approvals.reasons[flag.category])}</b>: <code>${escapeWithin(reveal(flag.part, t), PART_LIMIT)}</code>`);
  if (flags.length > FLAGS_SHOWN) lines.push(escapeHtml(t.approvals.moreFlags(flags.length - FLAGS_SHOWN)));
  return lines;
}

/** "Allow in this session" is offered for a request that was read, carries no flag and is not dynamic (a rule can be made of it). */
export function offersSession(prompt: PermissionPrompt): boolean {
  return prompt.flags !== undefined && prompt.flags.length === 0 && prompt.ruleScope !== undefined;
}

/** What a session rule covers, in words. */
export function sessionScopeLine(permission: string, scope: readonly ShownScope[], t: Strings): Html {
  return t.approvals.sessionScope(escapeWithin(reveal(permission, t), 40), scopeList(scope, t));
}

/** A rule's scope in words, each item's text in a code span (its start and end when long). */
export function scopeList(scope: readonly ShownScope[], t: Strings): Html {
  const each = Math.max(40, Math.floor(SCOPE_LIMIT / Math.max(1, scope.length)));
  const words = { open: t.approvals.scopeOpen, exact: t.approvals.scopeExact, file: t.approvals.scopeFile };
  return joinHtml(
    scope.map((item) => words[item.kind](escapeWithin(reveal(item.text, t), each))),
    html`; `,
  );
}
