// Attach mode: the same bridge as the plugin, fed by a running `opencode serve` over HTTP instead
// of from inside it. One Hermes covers every directory of that server:
//
//   GET /global/event ──lib/sse/stream.ts──▶ per directory: check, link, feed ──▶ Bridge (lib/plugin/hub.ts, shared)
//                                                                           │
//   replies, pending lists ◀── OpencodeApi over lib/opencode/http-transport.ts ◀─────────┘
//
// Directories: the server's own (`GET /path`), those given with --directory, those of sessions
// updated lately (`GET /session?start=…`), and every directory an event names. Each gets one
// InstanceLink, unless the Hermes plugin is loaded there (then the plugin bridges it).
// After a reconnect every known directory is resynced from OpenCode's pending lists.
//
// What it takes and gives back is attach-mode.ts; without a complete configuration, unconfigured.ts
// runs instead; which directories a connect finds is server-directories.ts.
import { acquireBridge, type BridgeLease } from "../plugin/hub.ts";
import { readConfig, type HermesConfig } from "../config/config.ts";
import { createLogger, environmentSecrets, secretsOf, type Logger } from "../system/log.ts";
import { authHeaders, serverUrl } from "../opencode/http-transport.ts";
import type { ParsedEvent } from "../opencode/events.ts";
import { openEventStream, type EventStream } from "../sse/stream.ts";
import { errorText } from "../util/error-text.ts";
import { httpLink, serverTransport, type ServerTarget } from "./link.ts";
import { deferred, type Deferred } from "../util/deferred.ts";
import {
  AttachError,
  bridgeRefused,
  pluginLoadedEverywhere,
  runningHandle,
  stopAttachment,
  streamFailed,
  type AttachHandle,
  type AttachOptions,
} from "./attach-mode.ts";
import { DirectoryLinks } from "./directory-links.ts";
import { hermesPluginIn } from "./plugin-check.ts";
import { discoverDirectories } from "./server-directories.ts";
import { startUnconfigured } from "./unconfigured.ts";

export function startAttach(options: AttachOptions): AttachHandle {
  const env = options.env ?? process.env;
  const report = options.report ?? (() => undefined);
  const result = readConfig(env);
  if (!result.ok) return startUnconfigured(options, result);
  const logger = options.logger ?? createLogger(result.config.log, [...environmentSecrets(env), ...secretsOf(result.config.token, options.auth?.password)]);
  const lease = acquireBridge({
    config: result.config,
    logger,
    notify: (message) => {
      logger.info(`Hermes: ${message}`);
      report(`Hermes: ${message}`);
    },
    ...(options.telegram ? { telegram: options.telegram } : {}),
  });
  if ("refused" in lease) return bridgeRefused(lease);
  return new Attachment(options, result.config, logger, report, lease).handle;
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

  constructor(options: AttachOptions, config: HermesConfig, logger: Logger, report: (line: string) => void, lease: BridgeLease) {
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
    this.#lease = lease;
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
      (error: unknown) => void this.#fail(streamFailed(error, options.url, noEventRoute)),
    );
    this.handle = runningHandle(this.#ready, this.#done, this.#links, () => this.#stop());
    this.#log.info({ url: options.url, auth: Boolean(options.auth) }, "attach mode started");
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
      const found = await discoverDirectories(this.#server, this.#options, this.#log);
      await Promise.all([...new Set([...found, ...this.#links.directories()])].map((directory) => this.#links.visit(directory, reconnect)));
      if (this.#stopping) return;
      if (!reconnect) return this.#onFirstConnect(found);
      const count = this.#links.list("attached").length;
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
      void this.#fail(pluginLoadedEverywhere(this.#options.url, initial));
      return;
    }
    const attached = this.#links.list("attached");
    const skipped = this.#links.list("skipped");
    const where = attached.length > 0 ? `bridging ${attached.join(", ")}` : "bridging every directory that becomes active";
    const left = skipped.length > 0 ? `; leaving ${skipped.join(", ")} to the Hermes plugin loaded there` : "";
    this.#report(`Hermes attached to ${this.#options.url}: ${where} to Telegram chat ${this.#config.chatId}${left}`);
    this.#ready.resolve();
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
    this.#stopping ??= stopAttachment(
      { stream: this.#stream, links: this.#links, lease: this.#lease, ready: this.#ready, done: this.#done, log: this.#log, url: this.#options.url },
      failure,
    );
    return this.#stopping;
  }
}

/** A 1.x server without /global/event is not what the user thinks it is. */
const noEventRoute = (url: string) =>
  new AttachError("not-found", `Hermes: ${url} has no /global/event (HTTP 404). Is it an OpenCode server (opencode serve or opencode web, 1.1.53 or later)?`);
