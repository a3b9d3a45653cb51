// The key a button carries for something named by text (a project directory, a model, an agent):
// callback data carries no paths or names, only 12 hex digits of the text's SHA-256. Pure.
import { createHash } from "node:crypto";

export function shortKey(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}
