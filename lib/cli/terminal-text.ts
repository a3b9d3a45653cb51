// Text from Telegram (a user's name, a group's title) on the terminal: anyone can pick a name, so
// control characters (ESC sequences that move the cursor, retitle the window or fake output),
// bidirectional overrides and line breaks are shown as visible escapes, never passed through.
import { graphemes } from "../text/html.ts";

const MAX_CHARS = 80;

/**
 * Control characters, DEL and C1, bidi marks and overrides, zero-width space and word joiners,
 * line/paragraph separators. (Zero-width joiners stay: emoji sequences need them.)
 */
const UNSAFE = /[\p{Cc}\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/gu;

/** `text` made safe to print: unsafe characters become `\u{…}`; cut at `max` characters as seen. */
export function forTerminal(text: string, max: number = MAX_CHARS): string {
  const escaped = text.replace(UNSAFE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
  const chars = graphemes(escaped);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : escaped;
}
