// Attach mode for an OpenCode 2 server: the same bridge, fed from outside by `GET /api/event`
// (every location's events, in the envelope the plugin's ctx.event.subscribe gives) and answering
// over HTTP: forms through their routes, permissions through
// `POST /api/session/:id/permission/:id/reply`. Measured on 2.0.15.
//
// Locations: those given with --directory, the server's own (`GET /api/location`), and every
// location an event names. Each gets one link unless the Hermes plugin is loaded there
// (`GET /api/plugin?location[directory]=…` lists a plugin with id "hermes"). After a reconnect,
// every linked location is resynced from the pending lists.
import { DirectoryLinks } from "./directory-links.ts";
import {
  type AttachError,
  bridgeRefused,
  pluginLoadedEverywhere,
  runningHandle,
  stopAttachment,
  streamFailed,
  type AttachHandle,
  type AttachOptions,
} from "./attach-mode.ts";
import { startUnconfigured } from "./unconfigured.ts";
import { deferred } from "../util/deferred.ts";
import { readConfig } from "../config/config.ts";
import { acquireBridge, type BridgeLease } from "../plugin/hub.ts";
import { createLogger, environmentSecrets, secretsOf, type Logger } from "../system/log.ts";
import { authHeaders, serverUrl } from "../opencode/http-transport.ts";
import { openEventStream, type EventStream } from "../sse/stream.ts";
import { errorText } from "../util/error-text.ts";
import { sleep } from "../util/sleep.ts";
import { httpHost, Opencode2Endpoint, recordInBook, type Book } from "../opencode2/endpoint.ts";
import { narrowEvent, type NarrowedEvent } from "../opencode2/events.ts";
import { OwnServerClient } from "../opencode2/server-client.ts";
import { SessionDirectories } from "../opencode2/session-directories.ts";
import { PLUGIN_ID } from "../plugin/opencode2-setup.ts";

const PLUGIN_LIST_TRIES = 20;
const PLUGIN_LIST_DELAY_MS = 250;

export function startAttach2(options: AttachOptions): AttachHandle {
  const env = options.env ?? process.env;
  const result = readConfig(env);
  // A configuration problem, or setup mode (only the chat id missing: answer /start): neither
  // touches the server, whichever OpenCode it is.
  if (!result.ok) return startUnconfigured(options, result);
  const logger = options.logger ?? createLogger(result.config.log, [...environmentSecrets(env), ...secretsOf(result.config.token, options.auth?.password)]);
  const lease = acquireBridge({
    config: result.config,
    logger,
    notify: (message) => logger.warn(`Hermes: ${message}`),
    ...(options.telegram ? { telegram: options.telegram } : {}),
  });
  if ("refused" in lease) return bridgeRefused(lease);
  return new Attachment2(options, result.config.chatId, logger, lease).handle;
}

class Attachment2 {
  readonly handle: AttachHandle;
  readonly #options: AttachOptions;
  readonly #chatId: number;
  readonly #log: Logger;
  readonly #report: (line: string) => void;
  readonly #lease: BridgeLease;
  readonly #server: OwnServerClient;
  readonly #stream: EventStream;
  readonly #book: Book = { forms: new Map(), permissions: new Map() };
  readonly #sessions = new SessionDirectories();
  readonly #links: DirectoryLinks;
  readonly #ready = deferred();
  readonly #done = deferred();
  #stopping: Promise<void> | undefined;

  constructor(options: AttachOptions, chatId: number, logger: Logger, lease: BridgeLease) {
    this.#options = options;
    this.#chatId = chatId;
    this.#log = logger;
    this.#report = (line) => {
      logger.info(line);
      options.report?.(line);
    };
    this.#lease = lease;
    const auth = options.auth;
    this.#server = new OwnServerClient({
      find: () => ({ ok: true, server: { url: options.url, ...(auth ? { auth } : {}), source: "attach" } }),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.#links = new DirectoryLinks({
      bridge: lease.bridge,
      log: logger,
      noun: "location",
      pluginLoaded: async (directory) => ({ loaded: await this.#pluginLoaded(directory) }),
      link: (directory) => ({ directory, opencode: new Opencode2Endpoint(directory, httpHost(this.#server), this.#server, this.#book) }),
      report: this.#report,
      started: () => this.#ready.settled,
      // A location's plugins are listed once: OpenCode 2 reads its config when the location starts.
      recheck: false,
    });
    this.#stream = openEventStream<NarrowedEvent>({
      url: serverUrl(options.url, "/api/event").href,
      headers: authHeaders(auth),
      ...options.stream,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      parse: narrowEvent,
      onEvent: (narrowed) => this.#onEvent(narrowed),
      onConnect: ({ reconnect }) => void this.#onConnect(reconnect),
      onDisconnect: (reason) => this.#report(`Hermes: lost the event stream of ${options.url} (${reason}); reconnecting`),
      onConnectFailed: ({ attempt, error }) => this.#log.warn({ attempt, err: error.message }, "could not open the event stream"),
    });
    this.#stream.done.then(
      () => undefined,
      (error: unknown) => void this.#stop(streamFailed(error, options.url)),
    );
    this.handle = runningHandle(this.#ready, this.#done, this.#links, () => this.#stop());
    this.#log.info({ url: options.url, auth: Boolean(auth) }, "attach mode started (OpenCode 2)");
  }

  #onEvent(narrowed: NarrowedEvent): void {
    if (this.#stopping) return;
    const directory = this.#sessions.place(narrowed);
    recordInBook(this.#book, narrowed);
    if (!directory || narrowed.events.length === 0) return;
    this.#links.deliver(directory, narrowed.events);
  }

  async #onConnect(reconnect: boolean): Promise<void> {
    const found = new Set(this.#options.directories ?? []);
    try {
      const own = (await this.#server.get("/api/location")) as { directory?: unknown } | undefined;
      if (typeof own?.directory === "string" && own.directory) found.add(own.directory);
    } catch (error) {
      this.#log.warn({ err: errorText(error) }, "GET /api/location failed");
    }
    await Promise.all([...new Set([...found, ...this.#links.directories()])].map((directory) => this.#links.visit(directory, reconnect)));
    if (this.#stopping) return;
    if (reconnect) return this.#report(`Hermes: reconnected to ${this.#options.url}; resynced ${this.#links.list("attached").length} location(s)`);
    const initial = [...found];
    if (initial.length > 0 && initial.every((directory) => this.#links.status(directory) === "skipped")) {
      const error = pluginLoadedEverywhere(this.#options.url, initial);
      this.#report(error.message);
      return void this.#stop(error);
    }
    const attached = this.#links.list("attached");
    this.#report(
      `Hermes attached to OpenCode 2 at ${this.#options.url}: bridging ` +
        `${attached.length > 0 ? attached.join(", ") : "every location that becomes active"} to Telegram chat ${this.#chatId}`,
    );
    this.#ready.resolve();
  }

  /** Measured: the first listing of a location that was not active yet is empty (it activates it); its builtins show once loaded. */
  async #pluginLoaded(directory: string): Promise<boolean> {
    for (let attempt = 0; attempt < PLUGIN_LIST_TRIES; attempt++) {
      try {
        const body = (await this.#server.get("/api/plugin", { "location[directory]": directory })) as { data?: unknown } | undefined;
        const plugins = Array.isArray(body?.data) ? body.data : [];
        if (plugins.length > 0) return plugins.some((plugin) => (plugin as { id?: unknown } | null)?.id === PLUGIN_ID);
      } catch (error) {
        this.#log.warn({ directory, err: errorText(error) }, "could not list the location's plugins");
      }
      await sleep(PLUGIN_LIST_DELAY_MS);
    }
    this.#log.warn({ directory }, "could not tell whether the Hermes plugin is loaded there; bridging it");
    return false;
  }

  #stop(failure?: AttachError): Promise<void> {
    this.#stopping ??= stopAttachment(
      { stream: this.#stream, links: this.#links, lease: this.#lease, ready: this.#ready, done: this.#done, log: this.#log, url: this.#options.url },
      failure,
    );
    return this.#stopping;
  }
}
