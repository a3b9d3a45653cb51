// The messages of approvals (issue 42), pure: the session rules /status lists, each with Revoke,
// and a run stopped at its budget, with Continue. Project and session names are escaped here.
import type { SessionRule } from "../../approvals/session-rules.ts";
import type { Strings } from "../../i18n/catalog.ts";
import { encodeCallback } from "../codec.ts";
import { cutHtml, escapeHtml, escapeWithin, html, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";
import { projectName } from "./render-context.ts";
import { scopeList } from "./render-flags.ts";
import { dollars } from "./render-usage.ts";

/** Rules listed with a button at most (Telegram shows up to 100 buttons; a phone far fewer). */
export const RULES_LISTED = 20;

/** /status' list of this process' session rules; `title` names each rule's session. */
export function renderRules(rules: readonly SessionRule[], title: (sessionID: string) => string | undefined, t: Strings): RenderedMessage {
  const shown = rules.slice(-RULES_LISTED);
  const lines: Html[] = [t.approvals.rulesTitle(rules.length)];
  const keyboard: InlineButton[][] = [];
  shown.forEach((rule, index) => {
    const session = escapeWithin(reveal(title(rule.sessionID) ?? rule.sessionID, t), 60);
    const permission = escapeWithin(reveal(rule.permission, t), 40);
    lines.push(t.approvals.rule(index + 1, escapeWithin(projectName(rule.directory), 60), session, permission, scopeList(rule.scope, t), rule.used));
    keyboard.push([{ text: t.approvals.revokeButton(index + 1), callback_data: encodeCallback({ key: rule.key, action: "revoke", question: 0, option: 0 }) }]);
  });
  return { text: cutHtml(joinHtml(lines, "\n")), keyboard };
}

/** "$2.00"; amounts below a cent as dollars() shows them. */
export function budgetAmount(amount: number): Html {
  return amount >= 0.995 || amount === 0 ? escapeHtml(`$${amount.toFixed(2)}`) : escapeHtml(dollars(amount) ?? "$0.00");
}

/** A run stopped at its budget: how far it got, and Continue (+step) while it can. */
export function renderBudgetStop(
  stop: { spent: number; cap: number; step: number; directory: string; key?: string; error?: string; continued?: number },
  t: Strings,
): RenderedMessage {
  const spent = budgetAmount(stop.spent);
  const cap = budgetAmount(stop.cap);
  const project = escapeWithin(projectName(stop.directory), 80);
  if (stop.error !== undefined) return { text: t.approvals.budgetStopFailed(spent, cap, escapeWithin(reveal(stop.error, t), 300)), keyboard: [] };
  const text = t.approvals.budgetStopped(spent, cap, project);
  if (stop.continued !== undefined) return { text: html`${text}\n${t.approvals.continued(budgetAmount(stop.continued))}`, keyboard: [] };
  const keyboard: InlineButton[][] = stop.key
    ? [
        [
          {
            text: t.approvals.continueButton(`$${stop.step.toFixed(2)}`),
            callback_data: encodeCallback({ key: stop.key, action: "budgetContinue", question: 0, option: 0 }),
          },
        ],
      ]
    : [];
  return { text, keyboard };
}
