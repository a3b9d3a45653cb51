// The field checks both event narrowers (OpenCode 1.x in events.ts, OpenCode 2 in opencode2/events.ts)
// make on untrusted event data. Pure.

/** An OpenCode id (session, message, request): a non-empty string of sane length. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 200;
}

/** The strings of a list, anything else dropped; not a list: empty. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
