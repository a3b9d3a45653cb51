// Parses the human durations users put in environment variables: "1500" (ms), "90s", "30m", "2h".
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** Returns milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? "ms").toLowerCase();
  const ms = Math.round(value * (UNIT_MS[unit] ?? 1));
  return Number.isSafeInteger(ms) ? ms : undefined;
}
