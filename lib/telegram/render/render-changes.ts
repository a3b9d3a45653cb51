// What a run changed, for its Done notice: one line per file with the lines added and removed (as
// OpenCode counted them), and the whole diff as a `.diff` file. Pure.
import type { Strings } from "../../i18n/catalog.ts";
import type { FileChange } from "../../hermes-events.ts";
import { escapeHtml, escapeWithin, html, type Html, joinHtml } from "../../text/html.ts";
import { unifiedDiff } from "../../text/line-diff.ts";
import { reveal } from "../../text/reveal.ts";

export const CHANGES_FILE = "changes.diff";
/** Files listed in the notice; the rest are counted (the .diff file has them all). */
const LISTED_FILES = 12;
const FILE_NAME_LIMIT = 120;
/** The .diff file stays far below Telegram's 50 MB upload limit. */
const DIFF_FILE_LIMIT = 5_000_000;

export function renderChanges(changes: readonly FileChange[], t: Strings): Html {
  const added = changes.reduce((sum, change) => sum + change.additions, 0);
  const removed = changes.reduce((sum, change) => sum + change.deletions, 0);
  const lines = [t.changes.title(changes.length, added, removed)];
  for (const change of changes.slice(0, LISTED_FILES)) {
    const status = change.status === "added" ? t.changes.added : change.status === "deleted" ? t.changes.deleted : "";
    lines.push(html`<code>${escapeWithin(reveal(change.file, t), FILE_NAME_LIMIT)}</code> +${change.additions} −${change.deletions}${escapeHtml(status)}`);
  }
  if (changes.length > LISTED_FILES) lines.push(t.changes.more(changes.length - LISTED_FILES));
  return joinHtml(lines, "\n");
}

/** The run's diff: OpenCode's patches, or diffs of the texts before and after; undefined if none. */
export function changesDiff(changes: readonly FileChange[]): string | undefined {
  const parts: string[] = [];
  for (const change of changes) {
    if (change.patch) parts.push(change.patch.endsWith("\n") ? change.patch : `${change.patch}\n`);
    else if (change.before !== undefined || change.after !== undefined) {
      const diff = unifiedDiff(change.file, change.before ?? "", change.after ?? "");
      if (diff) parts.push(diff);
    }
  }
  const whole = parts.join("");
  if (whole === "") return undefined;
  return whole.length > DIFF_FILE_LIMIT ? `${whole.slice(0, DIFF_FILE_LIMIT)}\n` : whole;
}
