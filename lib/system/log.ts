// The one logger: pino writing to a file, never to stdout/stderr (that would corrupt OpenCode's TUI).
// pino itself is loaded on the first line the level lets through, or when a run starts (prepareLoggerSoon):
// a healthy start writes nothing at the default level (start-up lines are debug), and loading pino
// costs about 1 MB of OpenCode's memory and 30–40 ms of its thread (docs/performance.md).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type pinoModule from "pino";
import type { LogLevel, LogSettings } from "../config/config.ts";
import { credentialSecrets, SECRET_VARIABLES } from "../config/process-secrets.ts";

type Pino = typeof pinoModule;
type PinoLogger = ReturnType<Pino>;

/** One level's method, as pino's: fields first (optional), then the message. */
export interface LogMethod {
  (fields: object, message?: string, ...values: unknown[]): void;
  (message: string, ...values: unknown[]): void;
}

/** What Hermes logs through; a pino logger is one (tests pass `pino({ level: "silent" })`). */
export interface Logger {
  readonly level: string;
  fatal: LogMethod;
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  trace: LogMethod;
}

/** pino's numeric levels (config.ts names them); a line is written when its level is at least the logger's. */
const LEVEL_VALUES: Record<LogLevel, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Number.POSITIVE_INFINITY };
type Method = Exclude<LogLevel, "silent">;

/** pino, loaded when first needed (it is CommonJS: `require` loads it synchronously in Node and in Bun). */
export function requirePino(): Pino {
  const require = createRequire(import.meta.url);
  return require("pino") as Pino;
}

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

/**
 * Secrets (the bot token) are scrubbed from every line as written, not only from known fields:
 * HTTP client errors embed the request URL, and Telegram's URLs carry the token. The file is opened
 * (and created 0600) now; pino is loaded by `loadPino` on the first line written or by prepareLoggerSoon.
 */
export function createLogger(settings: LogSettings, secrets: string[] | SecretList = [], loadPino: () => Pino = requirePino): Logger {
  const list = secrets instanceof SecretList ? secrets : new SecretList(secrets);
  let fd: number;
  try {
    fd = openLogFile(settings.file);
  } catch {
    // No writable log file: stay silent rather than write to the terminal.
    return SILENT;
  }
  return new FileLogger(settings.level, () => {
    const pino = loadPino();
    return pino(
      {
        level: settings.level,
        base: { pid: process.pid },
        redact: { paths: ["token", "*.token", "config.token"], censor: "[redacted]" },
        hooks: { streamWrite: list.scrub },
      },
      pino.destination({ dest: fd, sync: true }),
    );
  });
}

const ignore = (): void => undefined;

/** Writes nothing and loads nothing. */
const SILENT: Logger = { level: "silent", fatal: ignore, error: ignore, warn: ignore, info: ignore, debug: ignore, trace: ignore };

/**
 * A run started, and its prompts may follow: loads what writing needs on a timer, so that neither
 * the event that asked (OpenCode's hook returns first) nor a prompt's own line waits for it.
 */
export function prepareLoggerSoon(logger: Logger): void {
  if (logger instanceof FileLogger) logger.prepareSoon();
}

/** A pino logger made on first use: lines below the level return at once, without loading pino. */
class FileLogger implements Logger {
  readonly level: string;
  readonly fatal: LogMethod;
  readonly error: LogMethod;
  readonly warn: LogMethod;
  readonly info: LogMethod;
  readonly debug: LogMethod;
  readonly trace: LogMethod;
  readonly #threshold: number;
  readonly #make: () => PinoLogger;
  #pino: PinoLogger | undefined;
  #scheduled = false;

  constructor(level: LogLevel, make: () => PinoLogger) {
    this.level = level;
    this.#threshold = LEVEL_VALUES[level];
    this.#make = make;
    const method = (name: Method): LogMethod => {
      if (LEVEL_VALUES[name] < this.#threshold) return ignore;
      return ((...args: Parameters<PinoLogger[Method]>) => this.#logger()[name](...args)) as LogMethod;
    };
    this.fatal = method("fatal");
    this.error = method("error");
    this.warn = method("warn");
    this.info = method("info");
    this.debug = method("debug");
    this.trace = method("trace");
  }

  prepareSoon(): void {
    if (this.#pino || this.#scheduled || this.#threshold === LEVEL_VALUES.silent) return;
    this.#scheduled = true;
    setTimeout(() => this.#logger(), 0).unref?.();
  }

  #logger(): PinoLogger {
    this.#pino ??= this.#make();
    return this.#pino;
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
  return secretsOf(token, ...others, ...credentialSecrets(env.HERMES_TRANSCRIBE_URL));
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
