// Which files going back would put back over a change made since by hand (issue 49, item 9): each
// file's content now against what the last run that touched it left (lib/opencode/run-left.ts).
// A file is read only inside the project (a symlink leading out of it, or a name that climbs out,
// is not followed) and only up to RUN_LEFT_LIMIT; beyond that, or when OpenCode kept no record of
// the run's result, the answer is "cannot tell", never "unchanged".
import fs from "node:fs";
import path from "node:path";
import { RUN_LEFT_LIMIT, textFingerprint } from "../../opencode/run-left.ts";
import { isInside } from "../../util/is-inside.ts";
import type { GoBackMark, PromptView } from "../../telegram/render/render-vocabulary.ts";

/** What the newest of `entries[0..index]` that changed `file` left in it (entries newest first); undefined: no record. */
export function lastLeft(entries: readonly PromptView[], index: number, file: string): string | null | undefined {
  const last = entries.slice(0, index + 1).find((entry) => entry.files.includes(file));
  return last?.left?.[file];
}

/** The file's content now, as run-left.ts fingerprints a text: `null` when it is gone; undefined when it cannot be read safely. */
export function currentFingerprint(root: string, file: string): string | null | undefined {
  const realRoot = safeRealpath(root);
  if (realRoot === undefined) return undefined;
  const absolute = path.resolve(realRoot, file);
  if (absolute === realRoot || !isInside(absolute, realRoot)) return undefined;
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch (error) {
    // Gone, unless a dangling symlink (or a parent that is no directory) stands there.
    return (error as NodeJS.ErrnoException).code === "ENOENT" && lstatMissing(absolute) ? null : undefined;
  }
  if (real === realRoot || !isInside(real, realRoot)) return undefined;
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(real, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(descriptor);
    if (!stat.isFile() || stat.size > RUN_LEFT_LIMIT) return undefined;
    const bytes = Buffer.alloc(stat.size);
    const read = fs.readSync(descriptor, bytes, 0, stat.size, 0);
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes.subarray(0, read));
    return textFingerprint(text);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}

/** Each of `files` (relative to the repository's top, `root`) that differs from what its last run left, or cannot be told. */
export function handMarks(entries: readonly PromptView[], index: number, files: readonly string[], root: string | undefined): Map<string, GoBackMark> {
  const marks = new Map<string, GoBackMark>();
  for (const file of files) {
    const left = lastLeft(entries, index, file);
    const now = root === undefined || left === undefined ? undefined : currentFingerprint(root, file);
    if (left === undefined || now === undefined) marks.set(file, "unknown");
    else if (now !== left) marks.set(file, "hand");
  }
  return marks;
}

function safeRealpath(directory: string): string | undefined {
  try {
    return fs.realpathSync(directory);
  } catch {
    return undefined;
  }
}

function lstatMissing(file: string): boolean {
  try {
    fs.lstatSync(file);
    return false;
  } catch {
    return true;
  }
}
