// What a run used, compactly: `12.4k tokens · $0.031` (the Done notice) and `🧠 41% of 200k` (how
// full the context is: the progress message, /status). Pure. Nothing when nothing was counted, and
// no dollar amount for a model without a price. The lines are Html: `<$0.001` is text, escaped.
import type { Strings } from "../../i18n/catalog.ts";
import { escapeHtml, type Html, joinHtml } from "../../text/html.ts";

/** A run's use as the renderers take it (lib/progress/run-usage.ts counts it). */
export interface SpentView {
  tokens: number;
  cost: number;
  /** Requests a session rule answered in the run (issue 42). */
  autoAllowed?: number;
}

/** The context's fill: the last answer's tokens, and the model's window when known. */
export interface ContextView {
  tokens: number;
  window?: number;
}

/** `850`, `12.4k`, `200k`, `1.2M`. */
export function compactCount(count: number): string {
  const n = Math.max(0, Math.round(count));
  if (n < 1_000) return String(n);
  if (n < 999_500) return `${short(n / 1_000)}k`;
  return `${short(n / 1_000_000)}M`;
}

/** `$0.031`, `$1.25`, `<$0.001`; undefined for nothing spent. */
export function dollars(cost: number): string | undefined {
  if (!(cost > 0) || !Number.isFinite(cost)) return undefined;
  if (cost < 0.001) return "<$0.001";
  if (cost < 0.995) {
    // Two significant digits ($0.031, $0.50), without zeros past the cents ($0.001, not $0.0010).
    const text = cost.toPrecision(2);
    return `$${text.length > 4 ? text.replace(/0+$/, "") : text}`;
  }
  return `$${cost.toFixed(2)}`;
}

/** `12.4k tokens · $0.031`; undefined when nothing was counted. */
export function spentLine(spent: SpentView | undefined, t: Strings): Html | undefined {
  if (!spent || (spent.tokens <= 0 && !(spent.cost > 0))) return undefined;
  const parts = spent.tokens > 0 ? [t.usage.tokens(compactCount(spent.tokens))] : [];
  const cost = dollars(spent.cost);
  if (cost) parts.push(cost);
  return joinHtml(parts.map(escapeHtml), " · ");
}

/** `🧠 41% of 200k`, or `🧠 8.2k tokens` when the model's window is unknown; undefined when nothing was counted. */
export function contextUse(context: ContextView | undefined, t: Strings): Html | undefined {
  if (!context || context.tokens <= 0) return undefined;
  if (!context.window) return escapeHtml(t.usage.contextTokens(compactCount(context.tokens)));
  const percent = Math.min(999, Math.round((context.tokens / context.window) * 100));
  return escapeHtml(t.usage.context(percent, compactCount(context.window)));
}

/** One decimal below 100 (12.4k), none above (200k). */
function short(value: number): string {
  return String(value < 99.95 ? Math.round(value * 10) / 10 : Math.round(value));
}
