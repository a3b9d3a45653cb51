// What starting attach mode takes and gives back, whichever OpenCode the server runs (runner.ts for
// 1.x, opencode2-runner.ts for 2; dispatch.ts picks): its options, its handle, and how it fails.
import type { Deferred } from "../util/deferred.ts";
import { errorText } from "../util/error-text.ts";
import type { Logger } from "../system/log.ts";
import type { ServerAuth } from "../opencode/http-transport.ts";
import { StreamError, type EventStreamOptions } from "../sse/stream.ts";
import type { TelegramApi } from "../telegram/wire/api.ts";
import type { DirectoryLinks } from "./directory-links.ts";
import type { OwnerCheck } from "../system/listener-owner.ts";

type Env = Record<string, string | undefined>;

export interface AttachOptions {
  /** Base URL of `opencode serve` / `opencode web`, e.g. http://127.0.0.1:4096 */
  url: string;
  auth?: ServerAuth | undefined;
  /** Directories to bridge from the start, besides the server's own. */
  directories?: string[];
  /** Hermes' settings (HERMES_*). Default: process.env. */
  env?: Env;
  /** Short status lines for a human (the CLI prints them on stderr). Everything also goes to the log. */
  report?: (line: string) => void;
  logger?: Logger;
  /** Tests: a Telegram client instead of the real Bot API one. */
  telegram?: TelegramApi;
  /** Tuning of the event stream (timeouts, backoff). */
  stream?: Pick<EventStreamOptions, "connectTimeoutMs" | "heartbeatTimeoutMs" | "backoff">;
  /** Sessions updated this recently name directories to bridge at each (re)connect. Default 30 min; 0 turns it off. */
  recentSessionsMs?: number;
  fetch?: typeof fetch;
  /** Tests: whose loopback listener may get the credentials (this process' uid and /proc by default). */
  ownerCheck?: OwnerCheck;
}

export type AttachFailure = "config" | "auth" | "not-found" | "plugin-loaded";

export class AttachError extends Error {
  override readonly name = "AttachError";
  readonly kind: AttachFailure;

  constructor(kind: AttachFailure, message: string) {
    super(message);
    this.kind = kind;
  }
}

export interface AttachHandle {
  /** Resolves once connected and the first directories are linked (or at once in setup mode). */
  readonly ready: Promise<void>;
  /** Resolves after stop(); rejects with an AttachError when attach mode can't run. */
  readonly done: Promise<void>;
  /** Directories bridged now. */
  attached(): string[];
  /** Directories left to the Hermes plugin loaded there. */
  skipped(): string[];
  stop(): Promise<void>;
}

/** OpenCode answered 401/403: the same words whichever way attach mode found out. */
export function credentialsRefused(url: string, status: number): AttachError {
  return new AttachError(
    "auth",
    `Hermes: OpenCode at ${url} refused the credentials (HTTP ${status}). Set OPENCODE_SERVER_PASSWORD ` +
      `(and OPENCODE_SERVER_USERNAME if it is not "opencode"), or pass --password / --username.`,
  );
}

/** Every directory found at the start is bridged by a Hermes plugin loaded there: attach mode has nothing to do. */
export function pluginLoadedEverywhere(url: string, directories: string[]): AttachError {
  return new AttachError(
    "plugin-loaded",
    `Hermes: the Hermes plugin is already loaded in the OpenCode server at ${url} ` +
      `(${directories.join(", ")}); it bridges that server itself, so attach mode exits.`,
  );
}

/** This process runs Hermes for the same bot with other settings already (hub.ts): attach mode can't start. */
export function bridgeRefused(refusal: { refused: string }): AttachHandle {
  return failedHandle(new AttachError("config", `Hermes is off: ${refusal.refused}`));
}

/** A handle for attach mode that could not start: `ready` and `done` reject with the error. */
export function failedHandle(error: AttachError): AttachHandle {
  const done = Promise.reject(error);
  done.catch(() => undefined);
  return { ready: done, done, attached: () => [], skipped: () => [], stop: async () => undefined };
}

/** The handle of an attachment that started: ready and done as it settles them, its directories as its links list them. */
export function runningHandle(ready: Deferred, done: Deferred, links: Pick<DirectoryLinks, "list">, stop: () => Promise<void>): AttachHandle {
  return { ready: ready.promise, done: done.promise, attached: () => links.list("attached"), skipped: () => links.list("skipped"), stop };
}

/** What a running attachment closes when it stops, in this order, and the deferreds its handle settles. */
export interface AttachmentParts {
  stream: { stop(): Promise<void> };
  links: Pick<DirectoryLinks, "close">;
  lease: { release(): Promise<void> };
  ready: Deferred;
  done: Deferred;
  log: Logger;
  url: string;
}

/**
 * Stops an attachment: the event stream, then its links, then its share of the bridge; then settles
 * the handle, rejecting with `failure` if there is one (a stop before the first connect is not a failure).
 */
export async function stopAttachment(parts: AttachmentParts, failure?: AttachError): Promise<void> {
  await parts.stream.stop();
  await parts.links.close();
  await parts.lease.release();
  parts.log.info({ url: parts.url, failure: failure?.kind }, "attach mode stopped");
  if (failure) {
    parts.ready.reject(failure);
    parts.done.reject(failure);
  } else {
    parts.ready.resolve();
    parts.done.resolve();
  }
}

/**
 * The event stream failed for good: the error attach mode ends with. `notFound` words a 404 where
 * the server kind can say what it means; otherwise a 404 fails like any other error.
 */
export function streamFailed(error: unknown, url: string, notFound?: (url: string) => AttachError): AttachError {
  if (error instanceof StreamError && (error.status === 401 || error.status === 403)) return credentialsRefused(url, error.status);
  if (error instanceof StreamError && error.status === 404 && notFound) return notFound(url);
  return new AttachError("not-found", `Hermes: the event stream of ${url} failed for good: ${errorText(error)}`);
}
