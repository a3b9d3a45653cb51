// The one logger: pino writing to a file, never to stdout/stderr (that would corrupt OpenCode's TUI).
import fs from "node:fs";
import path from "node:path";
import pino, { type Logger } from "pino";
import type { LogSettings } from "./config.ts";

export type { Logger };

/**
 * Secrets (the bot token) are scrubbed from every line as written, not only from known fields:
 * HTTP client errors embed the request URL, and Telegram's URLs carry the token.
 */
export function createLogger(settings: LogSettings, secrets: string[] = []): Logger {
  const scrub = makeScrubber(secrets);
  try {
    fs.mkdirSync(path.dirname(settings.file), { recursive: true });
    const destination = pino.destination({ dest: settings.file, sync: true, mkdir: true });
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

/** What must never reach a log: the bot token (and its secret half), plus any other secrets given. */
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
