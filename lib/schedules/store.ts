// The one file Hermes keeps on disk: the schedules, in `$XDG_STATE_HOME/opencode-hermes/schedules.json`
// (else ~/.local/state/…). The directory is created 0700, the file written 0600 and atomically (a
// temporary file beside it, then a rename: a reader sees the old file or the new one, never half
// of one). Either is refused, and schedules are off (logged, and said on the phone when asked), if
// it is a symlink, belongs to another user, or (the directory) is open to others: another local
// user must not be able to plant schedules, which run instructions in your projects.
//
// Every change is a read-modify-write under a lock file beside it (`schedules.json.lock`, created
// exclusively, holding a random token of its holder), so processes sharing the file never lose
// each other's changes, and the claim on a run (due.ts: moving a schedule's next run on) is made by
// exactly one of them. The lock is held only for a few synchronous file operations; one left by a
// process killed inside them is taken for stale after LOCK_STALE_MS and broken by renaming it
// aside (one process wins the rename) and checking that what was renamed is the stale lock looked
// at; a fresh lock renamed by mistake goes back. A holder writes only while the lock still holds
// its token and removes only its own. A change whose file would pass MAX_FILE_BYTES (what the
// reader takes) is refused and the old file kept: never write what will not be read back.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkPrivateDirectory, ensurePrivateDirectory } from "../system/private-dir.ts";
import { errorText } from "../util/error-text.ts";
import { sleep } from "../util/sleep.ts";
import { parseStoreText, storeText, type Schedule } from "./schedule.ts";

const LOCK_STALE_MS = 10_000;
const LOCK_RETRY_MS = 20;
const LOCK_WAIT_MS = 5_000;
/** A file larger than this is not a schedules file Hermes wrote: refused. */
const MAX_FILE_BYTES = 1_000_000;

export type StoreRead = { ok: true; schedules: Schedule[] } | { ok: false; refused: string };
/** `full`: the change was refused because the file would grow past what is read back (the old file stands). */
export type StoreChange<T> = { ok: true; result: T } | { ok: false; refused: string; full?: true };

export interface StoreOptions {
  /** This user's id; undefined where the platform has none (then ownership is not checked). */
  uid?: number | undefined;
  /** Where refusals and dropped entries are logged. */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

/** The schedules file's path for an environment. */
export function scheduleFile(env: Record<string, string | undefined> = process.env, home: string = os.homedir()): string {
  const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME || home, ".local", "state");
  return path.join(state, "opencode-hermes", "schedules.json");
}

/** A bot's key in the file: a hash of its token and API root (never the token). */
export function scheduleBotKey(token: string, apiRoot: string): string {
  return createHash("sha256").update(`schedules\n${apiRoot}\n${token}`).digest("hex").slice(0, 16);
}

export class ScheduleStore {
  readonly file: string;
  readonly #uid: number | undefined;
  readonly #warn: NonNullable<StoreOptions["warn"]>;
  /** The last refusal logged: the same one is logged once. */
  #refusedLogged?: string;

  constructor(file: string, options: StoreOptions = {}) {
    this.file = file;
    this.#uid = "uid" in options ? options.uid : process.getuid?.();
    this.#warn = options.warn ?? (() => undefined);
  }

  /** The schedules as the file has them now (none when there is no file yet). */
  read(): StoreRead {
    try {
      this.#checkDirectory(false);
      return { ok: true, schedules: this.#readFile() };
    } catch (error) {
      return this.#refused(error);
    }
  }

  /** A cheap sign of change (size and modification time), to re-read only when the file changed. */
  stamp(): string {
    try {
      const stat = fs.lstatSync(this.file);
      return `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
    } catch {
      return "none";
    }
  }

  /** Reads, changes and writes the schedules under the lock; `change` returns the new list (unchanged: nothing is written). */
  async update<T>(change: (schedules: Schedule[]) => { schedules: Schedule[]; result: T }): Promise<StoreChange<T>> {
    try {
      this.#checkDirectory(true);
      const lock = await this.#lock();
      try {
        const before = this.#readFile();
        const { schedules, result } = change(before);
        if (schedules !== before) {
          const text = storeText(schedules);
          const bytes = Buffer.byteLength(text);
          if (bytes > MAX_FILE_BYTES) return { ok: false, refused: `the schedules file would grow to ${bytes} bytes, past ${MAX_FILE_BYTES}`, full: true };
          this.#write(text, lock.held);
        }
        return { ok: true, result };
      } finally {
        lock.release();
      }
    } catch (error) {
      return this.#refused(error);
    }
  }

  #refused(error: unknown): { ok: false; refused: string } {
    const refused = errorText(error);
    if (this.#refusedLogged !== refused) this.#warn({ file: this.file, refused }, "schedules are off: the schedules file was refused");
    this.#refusedLogged = refused;
    return { ok: false, refused };
  }

  /** The directory: created 0700 when asked (`create`), and refused unless a private real directory of this user's. */
  #checkDirectory(create: boolean): void {
    const dir = path.dirname(this.file);
    try {
      if (create) ensurePrivateDirectory(dir, this.#uid);
      else checkPrivateDirectory(dir, this.#uid);
    } catch (error) {
      if (!create && (error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
  }

  #readFile(): Schedule[] {
    let fd: number;
    try {
      // O_NOFOLLOW: a symlink put in the file's place is refused by the kernel, not followed.
      fd = fs.openSync(this.file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return [];
      if (code === "ELOOP") throw new Error(`${this.file} is a symlink`);
      throw error;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw new Error(`${this.file} is not a file`);
      if (this.#uid !== undefined && stat.uid !== this.#uid) throw new Error(`${this.file} belongs to another user (uid ${stat.uid})`);
      if (stat.size > MAX_FILE_BYTES) throw new Error(`${this.file} is larger than ${MAX_FILE_BYTES} bytes`);
      const { schedules, dropped } = parseStoreText(fs.readFileSync(fd, "utf8"));
      if (dropped > 0) this.#warn({ file: this.file, dropped }, "dropped malformed entries of the schedules file");
      return schedules;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Writes `text` in the file's place, if the lock is still this holder's when the new file is ready. */
  #write(text: string, held: () => boolean): void {
    const temporary = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    const fd = fs.openSync(temporary, "wx", 0o600);
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      if (!held()) throw new Error(`${this.file}.lock was broken as stale and taken by another process; nothing was written`);
      fs.renameSync(temporary, this.file);
    } catch (error) {
      fs.rmSync(temporary, { force: true });
      throw error;
    }
  }

  /** Takes the lock file (waiting for another process' turn), writing this holder's token into it. */
  async #lock(): Promise<{ held(): boolean; release(): void }> {
    const lock = `${this.file}.lock`;
    const token = randomBytes(16).toString("hex");
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const fd = fs.openSync(lock, "wx", 0o600);
        try {
          fs.writeSync(fd, token);
        } finally {
          fs.closeSync(fd);
        }
        const held = () => readLock(lock) === token;
        return { held, release: () => held() && fs.rmSync(lock, { force: true }) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      if (this.#breakStale(lock)) continue;
      if (Date.now() > deadline) throw new Error(`${lock} stayed locked for ${LOCK_WAIT_MS / 1000} s`);
      await sleep(LOCK_RETRY_MS);
    }
  }

  /**
   * A lock older than LOCK_STALE_MS was left by a process that died holding it: renamed aside (of
   * processes breaking it at once, one wins the rename) and removed if what was renamed is the lock
   * looked at and still stale; another process' fresh lock, renamed because it was broken and
   * taken in between, goes back. True: try to take the lock again now.
   */
  #breakStale(lock: string): boolean {
    let looked: fs.Stats;
    try {
      looked = fs.lstatSync(lock);
    } catch {
      return true;
    }
    if (Date.now() - looked.mtimeMs < LOCK_STALE_MS) return false;
    const aside = `${lock}.${process.pid}.${randomBytes(4).toString("hex")}.stale`;
    try {
      fs.renameSync(lock, aside);
    } catch {
      return true;
    }
    const renamed = fs.lstatSync(aside);
    if (renamed.ino === looked.ino && renamed.dev === looked.dev && Date.now() - renamed.mtimeMs >= LOCK_STALE_MS) {
      this.#warn({ lock }, "removed a stale lock of the schedules file");
      fs.rmSync(aside, { force: true });
      return true;
    }
    // Not the one looked at: its holder is working. Back in place, unless a lock was taken since.
    try {
      fs.linkSync(aside, lock);
    } catch {}
    fs.rmSync(aside, { force: true });
    return false;
  }
}

/** The token in a lock file ("" when it is gone or unreadable). */
function readLock(lock: string): string {
  try {
    return fs.readFileSync(lock, "utf8");
  } catch {
    return "";
  }
}
