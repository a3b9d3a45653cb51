// What a run left in each file it changed, as OpenCode records it (issue 49, item 9): 1.1.53's
// FileDiff carries the whole text after the run (`after`); 1.18.33's and 2.0.15's carry a patch made
// with the whole file as context (measured 2026-12-02, docs/compatibility.md), whose new side is that
// text. Kept as a fingerprint (sha256 of the text's UTF-8), `null` for a file the run deleted;
// undefined when the record does not say (no patch, a binary file, a patch of several hunks, or a
// text over RUN_LEFT_LIMIT). Pure.
import { createHash } from "node:crypto";
import { isRecord } from "../util/is-record.ts";

/** The largest text whose fingerprint is kept (and file read to compare it): beyond it, "cannot tell". */
export const RUN_LEFT_LIMIT = 1_000_000;

/** A text's fingerprint, as the file on disk is compared with it. */
export function textFingerprint(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** One FileDiff's record of what the run left: a fingerprint, `null` (deleted), or undefined (unknown). */
export function leftByRun(diff: unknown): string | null | undefined {
  if (!isRecord(diff)) return undefined;
  if (diff.status === "deleted") return null;
  const text = typeof diff.after === "string" ? diff.after : typeof diff.patch === "string" ? patchNewSide(diff.patch) : undefined;
  return text === undefined || text.length > RUN_LEFT_LIMIT ? undefined : textFingerprint(text);
}

/** Each file's record in a list of FileDiffs (`{ file, … }`); files without one are left out. */
export function leftByRunOf(diffs: readonly unknown[]): Record<string, string | null> {
  const left: Record<string, string | null> = {};
  for (const diff of diffs) {
    if (!isRecord(diff) || typeof diff.file !== "string") continue;
    const record = leftByRun(diff);
    if (record !== undefined) left[diff.file] = record;
  }
  return left;
}

const HUNK = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/**
 * The new side of a unified patch that is the whole file: one hunk starting at its first line (or
 * an empty new side). Any other shape (several hunks, a binary notice, counts that do not add up)
 * says only part of the file: undefined.
 */
export function patchNewSide(patch: string): string | undefined {
  const lines = patch.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const starts = lines.flatMap((line, index) => (line.startsWith("@@") ? [index] : []));
  if (starts.length !== 1) return undefined;
  const head = HUNK.exec(lines[starts[0]!]!);
  if (!head) return undefined;
  const start = Number(head[1]);
  const count = head[2] === undefined ? 1 : Number(head[2]);
  if (count === 0 ? start !== 0 : start !== 1) return undefined;
  const kept: string[] = [];
  let noFinalNewline = false;
  let last: string | undefined;
  for (const line of lines.slice(starts[0]! + 1)) {
    if (line.startsWith("\\")) {
      if (last === " " || last === "+") noFinalNewline = true;
      continue;
    }
    last = line[0];
    if (last === " " || last === "+") kept.push(line.slice(1));
    else if (last !== "-") return undefined;
  }
  if (kept.length !== count) return undefined;
  if (count === 0) return "";
  return kept.join("\n") + (noFinalNewline ? "" : "\n");
}
