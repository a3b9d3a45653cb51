// A private directory of this user's: created 0700 (with any missing parent, also 0700), and refused
// unless it is a real directory (not a symlink) owned by this user that nobody else can enter or
// list. A directory someone else made first is never used: another local user could then reach or
// replace what is inside (the relay's socket, the schedules file).
import fs from "node:fs";

export function ensurePrivateDirectory(dir: string, uid: number | undefined = process.getuid?.()): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivateDirectory(dir, uid);
}

/** Throws unless `dir` is already a private real directory of `uid`'s; ENOENT when it does not exist. */
export function checkPrivateDirectory(dir: string, uid: number | undefined = process.getuid?.()): void {
  const stat = fs.lstatSync(dir);
  if (stat.isSymbolicLink()) throw new Error(`${dir} is a symlink, not a directory`);
  if (!stat.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (uid !== undefined && stat.uid !== uid) throw new Error(`${dir} belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) !== 0) throw new Error(`${dir} is open to other users (mode ${(stat.mode & 0o777).toString(8)}); make it 0700`);
}
