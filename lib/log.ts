// The one logger: pino writing to a file, never to stdout/stderr (that would corrupt OpenCode's TUI).
import fs from "node:fs";
import path from "node:path";
import pino, { type Logger } from "pino";
import type { LogSettings } from "./config.ts";

export type { Logger };

/** The log holds chat and user ids, session titles and paths: readable by its owner only. */
const LOG_FILE_MODE = 0o600;
/** Directories Hermes creates for its log. An existing directory is left as it is (it may be shared, like /tmp). */
const LOG_DIR_MODE = 0o700;
/**
 * Appending, created if missing, never through a symlink (which could point at any of the user's
 * files), and never waiting (a FIFO without a reader would block OpenCode's start: it fails instead).
 */
const LOG_OPEN_FLAGS = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;
/** Shorter secrets would shred every line (and are not secrets). */
const MIN_SECRET_LENGTH = 6;

/**
 * The environment variables that hold secrets: whenever one is set, its value is scrubbed from every
 * log line and every toast, whatever state the rest of the configuration is in.
 */
const SECRET_VARIABLES = ["HERMES_TELEGRAM_TOKEN", "HERMES_TRANSCRIBE_KEY"] as const;

/**
 * Secrets (the bot token) are scrubbed from every line as written, not only from known fields:
 * HTTP client errors embed the request URL, and Telegram's URLs carry the token.
 */
export function createLogger(settings: LogSettings, secrets: string[] | SecretList = []): Logger {
  const list = secrets instanceof SecretList ? secrets : new SecretList(secrets);
  try {
    const fd = openLogFile(settings.file);
    const destination = pino.destination({ dest: fd, sync: true });
    return pino(
      {
        level: settings.level,
        base: { pid: process.pid },
        redact: { paths: ["token", "*.token", "config.token"], censor: "[redacted]" },
        hooks: { streamWrite: list.scrub },
      },
      destination,
    );
  } catch {
    // No writable log file: stay silent rather than write to the terminal.
    return pino({ level: "silent" });
  }
}

/**
 * Creates missing directories 0700 and the file 0600, and opens it without following a symlink; an
 * existing file that others may read (an older Hermes created it 0644) is narrowed to 0600, since
 * it is the user's own log. Anything but a regular file is refused.
 */
function openLogFile(file: string): number {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: LOG_DIR_MODE });
  const fd = fs.openSync(file, LOG_OPEN_FLAGS, LOG_FILE_MODE);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
    if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) fs.fchmodSync(fd, LOG_FILE_MODE);
    return fd;
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** What must never reach a log: the bot token (and its secret half), plus any other secrets given (a server password, the transcription key). */
export function secretsOf(token: string | undefined, ...others: Array<string | undefined>): string[] {
  return [token ?? "", token?.split(":")[1] ?? "", ...others.map((other) => other ?? "")].filter((secret) => secret !== "");
}

/** The secrets the environment holds (SECRET_VARIABLES), whether or not the rest of the configuration is valid. */
export function environmentSecrets(env: Record<string, string | undefined>): string[] {
  const [token, ...others] = SECRET_VARIABLES.map((name) => env[name]?.trim());
  return secretsOf(token, ...others);
}

/** The secrets one logger scrubs; more can be added to a logger that is shared (loggers are cached per file). */
export class SecretList {
  #secrets: string[] = [];

  constructor(secrets: string[] = []) {
    this.add(secrets);
  }

  add(secrets: string[]): void {
    const fresh = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH && !this.#secrets.includes(secret));
    if (fresh.length === 0) return;
    // Longest first: the whole token goes before its secret half.
    this.#secrets = [...this.#secrets, ...fresh].sort((a, b) => b.length - a.length);
  }

  readonly scrub = (line: string): string => {
    let out = line;
    for (const secret of this.#secrets) out = out.split(secret).join("[redacted]");
    return out;
  };
}

export function makeScrubber(secrets: string[]): (line: string) => string {
  return new SecretList(secrets).scrub;
}
