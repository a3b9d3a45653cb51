// The shape of the strings of rich messages (lib/rich/, docs/phone.md's "Rich messages"): part of
// the catalogue (strings.ts' `rich`), filled in by rich-en.ts and rich-zh.ts. Parameters typed
// Html come escaped; the rest are numbers.
import type { Html } from "../text/html.ts";

export interface RichStrings {
  /** Under a Done notice's answer when only its end fit in one rich message: how much shows, and where the rest is. */
  answerCut: (shown: number, total: number, file: Html) => Html;
  /** The summary line of a permission's whole diff in a collapsible block: the file, its added and removed lines. */
  diffSummary: (file: Html, added: number, removed: number) => Html;
  /** A file's collapsible block in /diff: its name, what kind of change (" (new)"), its added and removed lines. */
  fileSummary: (file: Html, kind: Html, added: number, removed: number) => Html;
  /** Under /diff's blocks when some files' changes did not fit: how many, and the file holding the whole diff. */
  diffLeftOut: (count: number, file: Html) => Html;
  /** The header row of /schedules' table: number, when, project, next run, instruction. */
  scheduleColumns: readonly [string, string, string, string, string];
  /** The header row of /history's table: number, prompt, the files its run changed. */
  historyColumns: readonly [string, string, string];
}
