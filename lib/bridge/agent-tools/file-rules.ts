// Which file the agent may send (telegram_send_file): only a file of the project. The path is
// resolved against the session's directory; after symlinks are resolved it must lie inside that
// directory or the session's worktree (a git worktree holding it; OpenCode's "/" for a project
// without git is no worktree). Refused before a byte is read, each under a named rule the model is
// told: outside paths, symlinks out, what does not exist, directories, devices, fifos and sockets,
// empty files and files over Telegram's upload limit. The file is then opened without following a
// symlink and without blocking, and checked again on the open descriptor: the same device and inode
// as the checked path, and (Linux) the kernel's own name for what was opened inside the project, so
// a file or a directory on the way swapped after the check is refused too. Every failure, a race's
// included, is a named rule.
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { UPLOAD_LIMIT_BYTES } from "../../telegram/wire/upload-kind.ts";
import { isInside } from "../../util/is-inside.ts";

/** Each rule by its name, as the tool's result names it. */
export type FileRule =
  | "no-path"
  | "outside-project"
  | "symlink-outside"
  | "not-found"
  | "directory"
  | "not-a-regular-file"
  | "empty"
  | "too-large"
  | "changed"
  | "env-file"
  | "busy";

export interface ProjectRoots {
  /** The session's directory. */
  directory: string;
  /** The session's worktree (a git worktree that holds `directory`); "/" or undefined: none. */
  worktree?: string | undefined;
}

export class FileRefused extends Error {
  constructor(
    readonly rule: FileRule,
    detail: string,
  ) {
    super(`not sent (rule "${rule}"): ${detail}`);
    this.name = "FileRefused";
  }
}

export interface ProjectFile {
  /** The file's real path (symlinks resolved). */
  path: string;
  bytes: Uint8Array;
}

/** A file that passed the rules: its real path and what it was when checked (nothing read yet). */
export interface CheckedFile {
  requested: string;
  real: string;
  stat: { dev: number; ino: number };
  allowed: string[];
}

/** Reads the file at `requested` if the rules allow it; throws FileRefused naming the rule otherwise. */
export async function readProjectFile(requested: string, roots: ProjectRoots, limit = UPLOAD_LIMIT_BYTES): Promise<ProjectFile> {
  return readCheckedFile(await checkProjectFile(requested, roots, limit), limit);
}

/** Opens and reads a checked file if it is still the file that was checked; throws FileRefused otherwise. */
export async function readCheckedFile(checked: CheckedFile, limit = UPLOAD_LIMIT_BYTES): Promise<ProjectFile> {
  const opened = await openCheckedFile(checked, limit);
  try {
    const parts: Uint8Array[] = [];
    for await (const chunk of opened.chunks()) parts.push(chunk.slice());
    return { path: opened.path, bytes: new Uint8Array(Buffer.concat(parts)) };
  } finally {
    await opened.close();
  }
}

/** A checked file, open: read a chunk at a time (as often as asked, from its start), never held whole. */
export interface OpenedFile {
  path: string;
  /** Its size when opened. */
  size: number;
  /**
   * Its bytes from the start, CHUNK_BYTES at a time, up to `size`, in one buffer reused for every
   * chunk (a chunk is valid until the next is asked for: a large file leaves no garbage behind);
   * throws FileRefused when it cannot be read.
   */
  chunks(): AsyncGenerator<Uint8Array>;
  close(): Promise<void>;
}

export const CHUNK_BYTES = 1024 * 1024;

/** Opens a checked file if it is still the file that was checked (closed again on a refusal); throws FileRefused otherwise. */
export async function openCheckedFile(checked: CheckedFile, limit = UPLOAD_LIMIT_BYTES): Promise<OpenedFile> {
  const { requested, real } = checked;
  // O_NOFOLLOW: a symlink swapped in since the check is not followed; O_NONBLOCK: a fifo swapped in does not hang the open.
  const handle = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    if (code === "ELOOP") throw changed(requested, "its last part became a symlink");
    throw new FileRefused(code === "ENOENT" ? "not-found" : "changed", `${requested} could not be opened (${code})`);
  });
  const unreadable = (error: unknown) =>
    error instanceof FileRefused ? error : new FileRefused("changed", `${requested} could not be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  let size: number;
  try {
    const stat = await handle.stat();
    // The directories on the way are not covered by O_NOFOLLOW: the open file must be the checked one.
    if (stat.dev !== checked.stat.dev || stat.ino !== checked.stat.ino) throw changed(requested, "another file is there now");
    const opened = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
    if (opened !== undefined && !checked.allowed.some((root) => isInside(opened, root))) throw changed(requested, "what was opened lies outside the project");
    checkKind(requested, stat, limit);
    size = stat.size;
  } catch (error) {
    await handle.close();
    throw unreadable(error);
  }
  let closed: Promise<void> | undefined;
  return {
    path: real,
    size,
    async *chunks() {
      let read = 0;
      const buffer = new Uint8Array(Math.min(CHUNK_BYTES, size));
      while (read < size) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - read), read).catch((error: unknown) => {
          throw unreadable(error);
        });
        if (bytesRead === 0) break;
        read += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    },
    close: () => (closed ??= handle.close()),
  };
}

function changed(requested: string, why: string): FileRefused {
  return new FileRefused("changed", `${requested} changed between the check and the open (${why}); nothing was sent`);
}

/** The file at `requested` when every rule allows sending it (nothing is read); throws FileRefused otherwise. */
export async function checkProjectFile(requested: string, roots: ProjectRoots, limit = UPLOAD_LIMIT_BYTES): Promise<CheckedFile> {
  if (typeof requested !== "string" || requested.trim() === "") throw new FileRefused("no-path", "give the path of a file in the project");
  const allowed = await realRoots(roots);
  const resolved = path.resolve(roots.directory, requested);
  const named = [path.resolve(roots.directory), ...(usableWorktree(roots) ? [path.resolve(roots.worktree!)] : [])];
  const where = describeRoots(roots);
  if (!named.some((root) => isInside(resolved, root)) && !allowed.some((root) => isInside(resolved, root)))
    throw new FileRefused("outside-project", `${requested} resolves to ${resolved}, outside ${where}; only files of the project can be sent`);
  const missing = (error: unknown) => new FileRefused("not-found", `${requested} does not exist (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  let real: string;
  try {
    real = await fs.realpath(resolved);
  } catch (error) {
    throw missing(error);
  }
  if (!allowed.some((root) => isInside(real, root)))
    throw new FileRefused("symlink-outside", `${requested} is a symlink (or lies under one) that leads to ${real}, outside ${where}`);
  // lstat: the real path holds no symlink, unless one was swapped in since (then the open refuses it).
  const stat = await fs.lstat(real).catch((error: unknown) => {
    throw missing(error);
  });
  checkKind(requested, stat, limit);
  return { requested, real, stat: { dev: stat.dev, ino: stat.ino }, allowed };
}

function checkKind(requested: string, stat: { isFile(): boolean; isDirectory(): boolean; size: number }, limit: number): void {
  if (stat.isDirectory()) throw new FileRefused("directory", `${requested} is a directory; send a file (an archive of it, for instance)`);
  if (!stat.isFile()) throw new FileRefused("not-a-regular-file", `${requested} is not a regular file (a device, fifo or socket)`);
  if (stat.size === 0) throw new FileRefused("empty", `${requested} is empty; Telegram does not take empty files`);
  if (stat.size > limit) throw new FileRefused("too-large", `${requested} is ${megabytes(stat.size)}; a bot can send at most ${megabytes(limit)} to Telegram`);
}

/** The roots with their symlinks resolved (a project opened through a symlink is still that project). */
async function realRoots(roots: ProjectRoots): Promise<string[]> {
  const candidates = [roots.directory, ...(usableWorktree(roots) ? [roots.worktree!] : [])];
  const real = await Promise.all(candidates.map((root) => fs.realpath(root).catch(() => undefined)));
  return real.filter((root): root is string => root !== undefined);
}

/** OpenCode gives "/" as the worktree of a project without git: that is no worktree (it would allow every file). */
function usableWorktree(roots: ProjectRoots): boolean {
  const worktree = roots.worktree;
  if (!worktree || !path.isAbsolute(worktree)) return false;
  const resolved = path.resolve(worktree);
  return resolved !== path.parse(resolved).root && isInside(path.resolve(roots.directory), resolved);
}

function describeRoots(roots: ProjectRoots): string {
  return usableWorktree(roots) && path.resolve(roots.worktree!) !== path.resolve(roots.directory)
    ? `the session's directory ${roots.directory} and its worktree ${roots.worktree}`
    : `the session's directory ${roots.directory}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
