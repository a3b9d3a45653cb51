// One line of `opencode-hermes doctor`: what was checked, whether it is fine, and for a problem the
// fix. Pure: the checks build these, doctor.ts prints them (and scrubs every line of the secrets).

/** `ok` ✅, `problem` ❌ (exit status 1), `skipped` ➖ (nothing to check, or nothing wrong either way). */
export type CheckState = "ok" | "problem" | "skipped";

export interface Check {
  state: CheckState;
  /** What was found, one sentence. */
  text: string;
  /** For a problem: what to do about it. */
  fix?: string;
}

export const ok = (text: string): Check => ({ state: "ok", text });
export const problem = (text: string, fix: string): Check => ({ state: "problem", text, fix });
export const skipped = (text: string): Check => ({ state: "skipped", text });

const MARK: Record<CheckState, string> = { ok: "✅", problem: "❌", skipped: "➖" };

/** The line printed for one check: `✅ text`, `❌ text Fix: …`. */
export function checkLine(check: Check): string {
  const text = /[.!?]$/.test(check.text) ? check.text : `${check.text}.`;
  return `${MARK[check.state]} ${text}${check.fix ? ` Fix: ${check.fix}` : ""}`;
}
