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
 * Secrets (the bot token) are scrubbed from every line as written, not only from known fields:
 * HTTP client errors embed the request URL, and Telegram's URLs carry the token.
 */
export function createLogger(settings: LogSettings, secrets: string[] = []): Logger {
  const scrub = makeScrubber(secrets);
  try {
    prepareLogFile(settings.file);
    const destination = pino.destination({ dest: settings.file, sync: true, mode: LOG_FILE_MODE });
    return pino(
      {
        level: settings.level,
        base: { pid: process.pid },
        redact: { paths: ["token", "*.token", "config.token"], censor: "[redacted]" },
        hooks: { streamWrite: scrub },
      },
      destination,
    );
  } catch {
    // No writable log file: stay silent rather than write to the terminal.
    return pino({ level: "silent" });
  }
}

/**
 * Creates missing directories 0700 and the file 0600; an existing file that others may read (an
 * older Hermes created it 0644) is narrowed to 0600, since it is the user's own log.
 */
function prepareLogFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: LOG_DIR_MODE });
  const fd = fs.openSync(file, "a", LOG_FILE_MODE);
  try {
    if ((fs.fstatSync(fd).mode & 0o077) !== 0) fs.fchmodSync(fd, LOG_FILE_MODE);
  } finally {
    fs.closeSync(fd);
  }
}

/** What must never reach a log: the bot token (and its secret half), plus any other secrets given (a server password, the transcription key). */
export function secretsOf(token: string | undefined, ...others: Array<string | undefined>): string[] {
  return [token ?? "", token?.split(":")[1] ?? "", ...others.map((other) => other ?? "")].filter((secret) => secret !== "");
}

export function makeScrubber(secrets: string[]): (line: string) => string {
  const parts = secrets.filter((secret) => secret.length >= 6);
  if (parts.length === 0) return (line) => line;
  return (line) => {
    let out = line;
    for (const secret of parts) out = out.split(secret).join("[redacted]");
    return out;
  };
}
