// The shape of the strings of rich messages (lib/rich/, docs/phone.md's "Rich messages"): part of
// the catalogue (strings.ts' `rich`), filled in by rich-en.ts and rich-zh.ts. Parameters typed
// Html come escaped; the rest are numbers.
import type { Html } from "../text/html.ts";

export interface RichStrings {
  /** Under a Done notice's answer when only its end fit in one rich message: how much shows, and where the rest is. */
  answerCut: (shown: number, total: number, file: Html) => Html;
  /** The summary line of a permission's whole diff in a collapsible block: the file, its added and removed lines. */
  diffSummary: (file: Html, added: number, removed: number) => Html;
}
