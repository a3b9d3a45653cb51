// The key a button carries for something named by text (a project directory, a model, an agent):
// callback data carries no paths or names, only 12 hex digits of the text's SHA-256. Pure.
import { createHash } from "node:crypto";

const HEX_DIGITS = 12;
const SHORT_KEY = new RegExp(`^[0-9a-f]{${HEX_DIGITS}}$`);

export function shortKey(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, HEX_DIGITS);
}

/** Whether an untrusted value (from the relay, from callback data) has the shape `shortKey` gives. */
export function isShortKey(value: unknown): value is string {
  return typeof value === "string" && SHORT_KEY.test(value);
}
