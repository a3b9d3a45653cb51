// Every HERMES_* variable Hermes reads, and the ones in an environment it does not: a misspelled
// name (HERMES_RUN_BUDJET) would otherwise be ignored in silence. Each unknown one is named with
// the known name closest to it, for the log, the toast, the phone and doctor. Pure.

/** Every variable Hermes reads (docs/configuration.md lists the user's; the last is the tests'). */
export const KNOWN_VARIABLES = [
  "HERMES_TELEGRAM_TOKEN",
  "HERMES_TELEGRAM_CHAT_ID",
  "HERMES_TELEGRAM_ALLOWED_USERS",
  "HERMES_TELEGRAM_API_ROOT",
  "HERMES_TELEGRAM_TOPICS",
  "HERMES_QUESTION_TTL",
  "HERMES_PERMISSION_TTL",
  "HERMES_NOTIFY",
  "HERMES_DONE_AFTER",
  "HERMES_STALL_AFTER",
  "HERMES_DESK_DELAY",
  "HERMES_LANGUAGE",
  "HERMES_MACHINE_NAME",
  "HERMES_PROGRESS",
  "HERMES_AGENT_TOOLS",
  "HERMES_RUN_BUDGET",
  "HERMES_TRANSCRIBE_URL",
  "HERMES_TRANSCRIBE_KEY",
  "HERMES_TRANSCRIBE_MODEL",
  "HERMES_TRANSCRIBE_LANGUAGE",
  "HERMES_STREAM",
  "HERMES_SHELL",
  "HERMES_RICH",
  "HERMES_SPEECH_URL",
  "HERMES_SPEECH_KEY",
  "HERMES_SPEECH_VOICE",
  "HERMES_SPEECH_MODEL",
  "HERMES_LOG_FILE",
  "HERMES_LOG_LEVEL",
  "HERMES_TEST_SCHEDULE_MINUTE_MS",
] as const;

const KNOWN = new Set<string>(KNOWN_VARIABLES);
/** Switches of Hermes' own tests and bench, never a user's setting. */
const TESTS_OWN = /^HERMES_(TEST|BENCH|E2E)_/;

export interface UnknownVariable {
  name: string;
  /** The known variable it is closest to, when one is close enough to be a likely typo. */
  closest?: string;
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
function distance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((d[i - 1]?.[j] ?? 0) + 1, (d[i]?.[j - 1] ?? 0) + 1, (d[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (d[i - 2]?.[j - 2] ?? 0) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return d[a.length]?.[b.length] ?? 0;
}

/** The one of `known` closest to `name` (letter case aside) within `allowed` edits, else none. */
export function closestName(name: string, known: readonly string[], allowed: number): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; edits: number } | undefined;
  for (const candidate of known) {
    const edits = distance(lower, candidate.toLowerCase());
    if (!best || edits < best.edits) best = { name: candidate, edits };
  }
  return best && best.edits <= allowed ? best.name : undefined;
}

/** The known name closest to `name`: within a third of its own length after the prefix (at least 2 edits), else none. */
export function closestVariable(name: string): string | undefined {
  return closestName(name, KNOWN_VARIABLES, Math.max(2, Math.floor((name.length - "HERMES_".length) / 3)));
}

/** The HERMES_* names in `env` that Hermes does not read (set, even to ""), in name order. */
export function unknownVariables(env: Record<string, string | undefined>): UnknownVariable[] {
  return Object.keys(env)
    .filter((name) => /^HERMES_/i.test(name) && !KNOWN.has(name) && !TESTS_OWN.test(name) && env[name] !== undefined)
    .sort()
    .map((name) => {
      const closest = closestVariable(name);
      return closest ? { name, closest } : { name };
    });
}

/** One sentence per unknown variable, as the log, the toast, the phone and doctor say it. */
export function unknownVariableText(variable: UnknownVariable): string {
  return variable.closest
    ? `${variable.name} is not a Hermes setting and is ignored: did you mean ${variable.closest}?`
    : `${variable.name} is not a Hermes setting and is ignored (docs/configuration.md lists them)`;
}
