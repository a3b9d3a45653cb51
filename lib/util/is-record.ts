// The first step of reading untrusted JSON (a Telegram update, an OpenCode event, a relay frame):
// is it an object whose fields can be looked at?

/** A plain object: not null, not an array. Its fields are still unknown and are checked one by one. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
