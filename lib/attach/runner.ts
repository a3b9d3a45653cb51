// Attach mode: the same bridge as the plugin, fed by a running `opencode serve` over HTTP instead
// of from inside it. One Hermes covers every directory of that server:
//
//   GET /global/event ──stream.ts──▶ per directory: check, link, feed ──▶ Bridge (hub.ts, shared)
//                                                                           │
//   replies, pending lists ◀── OpencodeApi over http-transport.ts ◀─────────┘
//
// Directories: the server's own (`GET /path`), those given with --directory, those of sessions
// updated lately (`GET /session?start=…`), and every directory an event names. Each gets one
// InstanceLink, unless the Hermes plugin is loaded there (then the plugin bridges it).
// After a reconnect every known directory is resynced from OpenCode's pending lists.
import { acquireBridge, setupOnlyConfig, type BridgeLease } from "../hub.ts";
import { readConfig, type HermesConfig } from "../config.ts";
import { createLogger, secretsOf, type Logger } from "../log.ts";
import { authHeaders, serverUrl, type ServerAuth } from "../opencode/http-transport.ts";
import type { ParsedEvent } from "../opencode/events.ts";
import { REQUEST_TIMEOUT_MS } from "../opencode/transport.ts";
import { openEventStream, StreamError, type EventStream, type EventStreamOptions } from "../sse/stream.ts";
import type { TelegramApi } from "../telegram/api.ts";
import { errorText } from "../error-text.ts";
import { httpLink, serverTransport, type ServerTarget } from "./link.ts";
import { deferred, type Deferred } from "../deferred.ts";
import { DirectoryLinks, type LinkStatus } from "./directory-links.ts";
import { hermesPluginIn } from "./plugin-check.ts";

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

const DEFAULT_RECENT_SESSIONS_MS = 30 * 60_000;

export function startAttach(options: AttachOptions): AttachHandle {
  const env = options.env ?? process.env;
  const report = options.report ?? (() => undefined);
  const result = readConfig(env);
  if (!result.ok) {
    const token = result.setupToken;
    const logger = options.logger ?? createLogger(result.log, secretsOf(token, options.auth?.password));
    const message = `Hermes is off: ${result.problems.join("; ")}`;
    logger.error({ problems: result.problems }, message);
    if (!token) return failed(new AttachError("config", message));
    // Only the chat is missing: answer /start so the user can find their chat id.
    const lease = acquireBridge({
      config: setupOnlyConfig(token, result.apiRoot),
      logger,
      ...(options.telegram ? { telegram: options.telegram } : {}),
    });
    report("Hermes: HERMES_TELEGRAM_CHAT_ID is not set. Send /start to your bot: it replies with the chat id. (Ctrl-C to stop)");
    return setupMode(lease);
  }
  const logger = options.logger ?? createLogger(result.config.log, secretsOf(result.config.token, options.auth?.password));
  return new Attachment(options, result.config, logger, report).handle;
}

class Attachment {
  readonly handle: AttachHandle;
  readonly #options: AttachOptions;
  readonly #config: HermesConfig;
  readonly #log: Logger;
  readonly #report: (line: string) => void;
  readonly #server: ServerTarget;
  readonly #lease: BridgeLease;
  readonly #stream: EventStream;
  readonly #links: DirectoryLinks;
  readonly #ready: Deferred;
  readonly #done: Deferred;
  #stopping: Promise<void> | undefined;
  #waitingReported = false;
  #quietReconnect = false;

  constructor(options: AttachOptions, config: HermesConfig, logger: Logger, report: (line: string) => void) {
    this.#options = options;
    this.#config = config;
    this.#log = logger;
    this.#report = (line) => {
      logger.info(line);
      report(line);
    };
    this.#server = { url: options.url, auth: options.auth, fetch: options.fetch };
    this.#ready = deferred();
    this.#done = deferred();
    this.#lease = acquireBridge({
      config,
      logger,
      notify: (message) => this.#report(`Hermes: ${message}`),
      ...(options.telegram ? { telegram: options.telegram } : {}),
    });
    this.#links = new DirectoryLinks({
      bridge: this.#lease.bridge,
      log: logger,
      noun: "directory",
      pluginLoaded: (directory) => this.#pluginLoaded(directory),
      link: (directory) => httpLink(this.#server, directory),
      report: this.#report,
      started: () => this.#ready.settled,
      recheck: true,
    });
    this.#stream = openEventStream({
      url: serverUrl(options.url, "/global/event").href,
      headers: authHeaders(this.#server.auth),
      ...options.stream,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onEvent: (parsed) => this.#onEvent(parsed),
      onConnect: ({ reconnect }) => void this.#onConnect(reconnect),
      onDisconnect: (reason, { idle }) => {
        // A server without heartbeats (1.1.53) has its quiet stream reopened now and then: routine.
        this.#quietReconnect = idle;
        if (idle) this.#log.info({ reason }, "event stream silent (this server sends no heartbeat); reopening it");
        else this.#report(`Hermes: lost the event stream of ${options.url} (${reason}); reconnecting`);
      },
      onConnectFailed: ({ attempt, error }) => {
        this.#log.warn({ attempt, err: error.message }, "could not open the event stream");
        if (this.#waitingReported) return;
        this.#waitingReported = true;
        this.#report(`Hermes: waiting for OpenCode at ${options.url} (${error.message})`);
      },
    });
    this.#stream.done.then(
      () => undefined,
      (error: unknown) => void this.#fail(toAttachError(error, options.url)),
    );
    this.handle = {
      ready: this.#ready.promise,
      done: this.#done.promise,
      attached: () => this.#list("attached"),
      skipped: () => this.#list("skipped"),
      stop: () => this.#stop(),
    };
    this.#log.info({ url: options.url, auth: Boolean(options.auth) }, "attach mode started");
  }

  #list(status: LinkStatus): string[] {
    return this.#links.list(status);
  }

  #onEvent(parsed: ParsedEvent): void {
    const directory = parsed.directory;
    if (!directory || this.#stopping) return;
    this.#links.deliver(directory, [parsed.event]);
  }

  async #onConnect(reconnect: boolean): Promise<void> {
    if (this.#waitingReported) this.#quietReconnect = false; // it was not routine after all
    this.#waitingReported = false;
    try {
      const found = await this.#discover();
      await Promise.all([...new Set([...found, ...this.#links.directories()])].map((directory) => this.#links.visit(directory, reconnect)));
      if (this.#stopping) return;
      if (!reconnect) return this.#onFirstConnect(found);
      const count = this.#list("attached").length;
      const line = `Hermes: reconnected to ${this.#options.url}; resynced ${count} director${count === 1 ? "y" : "ies"}`;
      if (this.#quietReconnect) this.#log.info(line);
      else this.#report(line);
    } catch (error) {
      this.#log.error({ err: errorText(error) }, "could not set up the directories after connecting");
      if (!reconnect) this.#ready.resolve();
    }
  }

  #onFirstConnect(found: string[]): void {
    const initial = found.filter((directory) => this.#links.status(directory) !== undefined);
    if (initial.length > 0 && initial.every((directory) => this.#links.status(directory) === "skipped")) {
      void this.#fail(
        new AttachError(
          "plugin-loaded",
          `Hermes: the Hermes plugin is already loaded in the OpenCode server at ${this.#options.url} (${initial.join(", ")}); it bridges that server itself, so attach mode exits.`,
        ),
      );
      return;
    }
    const attached = this.#list("attached");
    const skipped = this.#list("skipped");
    const where = attached.length > 0 ? `bridging ${attached.join(", ")}` : "bridging every directory that becomes active";
    const left = skipped.length > 0 ? `; leaving ${skipped.join(", ")} to the Hermes plugin loaded there` : "";
    this.#report(`Hermes attached to ${this.#options.url}: ${where} to Telegram chat ${this.#config.chatId}${left}`);
    this.#ready.resolve();
  }

  /** The server's own directory, the configured ones, and those of recently active sessions. */
  async #discover(): Promise<string[]> {
    const found = new Set(this.#options.directories ?? []);
    const server = serverTransport(this.#server);
    try {
      const path = await server.request("GET", "/path", { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      const directory = (path.data as { directory?: unknown } | undefined)?.directory;
      if (path.status === 200 && typeof directory === "string" && directory) found.add(directory);
    } catch (error) {
      this.#log.warn({ err: errorText(error) }, "GET /path failed");
    }
    const recentMs = this.#options.recentSessionsMs ?? DEFAULT_RECENT_SESSIONS_MS;
    if (recentMs > 0) {
      try {
        const sessions = await server.request("GET", `/session?start=${Date.now() - recentMs}&limit=100`, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        if (sessions.status === 200 && Array.isArray(sessions.data)) {
          for (const session of sessions.data as Array<{ directory?: unknown }>) {
            if (typeof session?.directory === "string" && session.directory) found.add(session.directory);
          }
        }
      } catch (error) {
        this.#log.warn({ err: errorText(error) }, "GET /session failed");
      }
    }
    return [...found];
  }

  /** Whether the Hermes plugin is loaded there, from the directory's config; unsure counts as no. */
  async #pluginLoaded(directory: string): Promise<{ loaded: boolean; what?: string }> {
    const check = await hermesPluginIn(serverTransport(this.#server, directory));
    if (check.loaded === undefined) this.#log.warn({ directory, err: check.error }, "could not read the directory's config; bridging it anyway");
    return check.loaded ? { loaded: true, what: check.spec } : { loaded: false };
  }

  async #fail(error: AttachError): Promise<void> {
    if (this.#stopping) return;
    this.#report(error.message);
    await this.#stop(error);
  }

  #stop(failure?: AttachError): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#stream.stop();
      await this.#links.close();
      await this.#lease.release();
      this.#log.info({ url: this.#options.url, failure: failure?.kind }, "attach mode stopped");
      if (failure) {
        this.#ready.reject(failure);
        this.#done.reject(failure);
      } else {
        this.#ready.resolve(); // a stop before the first connect is not a failure
        this.#done.resolve();
      }
    })();
    return this.#stopping;
  }
}

function toAttachError(error: unknown, url: string): AttachError {
  if (error instanceof StreamError && (error.status === 401 || error.status === 403)) {
    return new AttachError(
      "auth",
      `Hermes: OpenCode at ${url} refused the credentials (HTTP ${error.status}). Set OPENCODE_SERVER_PASSWORD (and OPENCODE_SERVER_USERNAME if it is not "opencode"), or pass --password / --username.`,
    );
  }
  if (error instanceof StreamError && error.status === 404) {
    return new AttachError("not-found", `Hermes: ${url} has no /global/event (HTTP 404). Is it an OpenCode server (opencode serve or opencode web, 1.1.53 or later)?`);
  }
  return new AttachError("not-found", `Hermes: the event stream of ${url} failed for good: ${errorText(error)}`);
}

function failed(error: AttachError): AttachHandle {
  const done = Promise.reject(error);
  done.catch(() => undefined);
  return { ready: done, done, attached: () => [], skipped: () => [], stop: async () => undefined };
}

function setupMode(lease: BridgeLease): AttachHandle {
  const done = deferred();
  let stopping: Promise<void> | undefined;
  return {
    ready: Promise.resolve(),
    done: done.promise,
    attached: () => [],
    skipped: () => [],
    stop() {
      stopping ??= lease.release().then(() => done.resolve());
      return stopping;
    },
  };
}
