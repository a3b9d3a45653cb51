// Hermes on OpenCode 2: what `setup(ctx)` does for one location (project directory), and the
// process-wide state every location shares. 2.x events are server-wide (every location's
// subscription sees every location's events), so each event is handled once, by id, and only for
// a location where Hermes was set up. The bridge, registry and Telegram side are the same as on 1.x
// (lib/plugin/hub.ts); only this edge differs. Never throws, never blocks: setup returns at once.
import fs from "node:fs";
import os from "node:os";
import { readConfig } from "../config/config.ts";
import { globalHermesOptions } from "../config/global-config.ts";
import { acquireBridge, setupOnlyConfig, type BridgeLease } from "./hub.ts";
import type { Logger } from "../system/log.ts";
import { loggerFor } from "./plugin-instance.ts";
import { escapeHtml } from "../text/html.ts";
import { errorText } from "../util/error-text.ts";
import type { InstanceLink } from "../bridge/core/desk.ts";
import { contextHost, Opencode2Endpoint, recordInBook, type Book, type PluginContext2 } from "../opencode2/endpoint.ts";
import { narrowEvent, type NarrowedEvent } from "../opencode2/events.ts";
import { processGlobal } from "../util/process-global.ts";
import { RecentIds } from "../util/recent-ids.ts";
import { OwnServerClient } from "../opencode2/server-client.ts";
import { SessionDirectories } from "../opencode2/session-directories.ts";
import { findOwnServer } from "../opencode2/own-server.ts";
import { registerSendFileTool } from "./opencode2-agent-tool.ts";
import type { AgentFileSender } from "../bridge/agent-tools/agent-files.ts";
import { withProcessSecrets } from "../config/process-secrets.ts";

interface Location {
  directory: string;
  link?: InstanceLink;
  lease: BridgeLease;
  stop: AbortController;
}

interface Process2State {
  book: Book;
  /** Event ids already handled, per bridge (one bridge per bot token). */
  seen: WeakMap<object, RecentIds<string>>;
  /** Where each session lives, learnt from events that name a location. */
  sessionDirectories: SessionDirectories;
  locations: Map<string, Location>;
  server?: OwnServerClient;
  reportedProblems: boolean;
  reportedServer: boolean;
}

const STATE_KEY = Symbol.for("hermes.opencode2");
/**
 * A location's pending prompts are listed this long after it starts, not at once: listing loads the
 * bridge (72 modules), which held the first long poll back by about 0.35 s on a loaded machine
 * (docs/performance.md, "Hermes' start cost"). An event or update meanwhile loads it at once.
 */
const LIST_PENDING_AFTER_MS = 1_000;
const state = processGlobal<Process2State>(STATE_KEY, () => ({
  book: { forms: new Map(), permissions: new Map() },
  seen: new WeakMap(),
  sessionDirectories: new SessionDirectories(),
  locations: new Map(),
  reportedProblems: false,
  reportedServer: false,
}));

export type Cleanup = () => Promise<void>;

/** True when `ctx` looks like OpenCode 2's plugin context (it has an event stream to follow). */
export function isContext2(ctx: unknown): ctx is PluginContext2 {
  const c = ctx as Partial<PluginContext2> | undefined;
  return (
    typeof c === "object" &&
    c !== null &&
    typeof c.event?.subscribe === "function" &&
    typeof c.location?.directory === "string" &&
    typeof c.permission?.reply === "function" &&
    typeof c.session?.get === "function"
  );
}

export function startLocation(ctx: PluginContext2, given: Record<string, string | undefined> = process.env): Cleanup | undefined {
  // The token and the key leave process.env (the agent's tools inherit it); later locations find them kept.
  const env = withProcessSecrets(given);
  // Options next to Hermes in the `plugins` entry arrive as ctx.options: read like 1.18's opencode.json options.
  const result = readConfig(env, ctx.options, globalHermesOptions(env));
  const { logger } = loggerFor(result.ok ? result.config.log : result.log, env);
  const directory = ctx.location.directory;
  // A reload runs setup again without the old cleanup: the newer setup replaces the older one.
  stopLocation(directory, logger);

  if (!result.ok) {
    if (!state.reportedProblems) {
      state.reportedProblems = true;
      // OpenCode 2.0.15 gives a plugin no toast: the log is the only place to say it.
      logger.error({ problems: result.problems }, `Hermes is off: ${result.problems.join("; ")}`);
    }
    if (!result.setupToken) return undefined;
    const lease = acquireBridge({ config: setupOnlyConfig(result.setupToken, result.apiRoot), logger });
    // Refused (hub.ts logged why; OpenCode 2 gives a plugin no toast).
    if ("refused" in lease) return undefined;
    return track({ directory, lease, stop: new AbortController() }, ctx, logger);
  }

  const lease = acquireBridge({ config: result.config, logger, notify: (message) => logger.warn(`Hermes: ${message}`) });
  if ("refused" in lease) return undefined;
  state.server ??= new OwnServerClient({
    pid: process.pid,
    find: () => findOwnServer({ argv: process.argv, env, pid: process.pid, home: os.homedir(), readFile: readText }),
  });
  const server = state.server;
  const link: InstanceLink = { directory, opencode: new Opencode2Endpoint(directory, contextHost(ctx), server, state.book) };
  const location: Location = { directory, link, lease, stop: new AbortController() };
  // Its pending prompts (a location reloaded while one waits) are listed once the long poll is under way.
  lease.bridge.attach(link, { listAfterMs: LIST_PENDING_AFTER_MS });
  if (result.config.agentTools) registerSendFileTool(ctx, locationSender(directory), directory, logger);
  logger.debug({ directory, opencode: appVersion(ctx) }, "plugin started on OpenCode 2");
  void reportServer(server, lease.bridge, logger);
  return track(location, ctx, logger);
}

/**
 * The agent's files go through the bridge of the location as it is at the call: a reload replaces
 * the location (and may replace the bridge) but keeps the tool registered before it.
 */
function locationSender(directory: string): AgentFileSender {
  return {
    sendAgentFile(owner, file, caption) {
      const location = state.locations.get(directory);
      if (!location?.link) return Promise.reject(new Error("Hermes is not running for this project"));
      return location.lease.bridge.sendAgentFile(owner, file, caption);
    },
  };
}

function track(location: Location, ctx: PluginContext2, logger: Logger): Cleanup {
  state.locations.set(location.directory, location);
  void follow(location, ctx, logger);
  return async () => {
    if (state.locations.get(location.directory) === location) stopLocation(location.directory, logger);
  };
}

function stopLocation(directory: string, logger: Logger): void {
  const location = state.locations.get(directory);
  if (!location) return;
  state.locations.delete(directory);
  location.stop.abort();
  logger.debug({ directory }, "plugin stopped on OpenCode 2");
  void (async () => {
    if (location.link) await location.lease.bridge.detach(location.link);
    await location.lease.release();
  })().catch((error) => logger.error({ err: errorText(error) }, "cleanup failed"));
}

/** Follows this location's subscription; every event goes to the bridge once, placed by location or session. */
async function follow(location: Location, ctx: PluginContext2, logger: Logger): Promise<void> {
  const bridge = location.lease.bridge;
  let seen = state.seen.get(bridge);
  if (!seen) {
    seen = new RecentIds<string>(10_000);
    state.seen.set(bridge, seen);
  }
  try {
    for await (const raw of ctx.event.subscribe({ signal: location.stop.signal })) {
      if (location.stop.signal.aborted) break;
      const narrowed = narrowEvent(raw);
      if (!narrowed || (narrowed.id !== undefined && !seen.add(narrowed.id))) continue;
      try {
        deliver(narrowed, bridge);
      } catch (error) {
        logger.error({ err: errorText(error) }, "event handling failed");
      }
    }
  } catch (error) {
    if (!location.stop.signal.aborted) logger.error({ err: errorText(error), directory: location.directory }, "the OpenCode 2 event stream failed");
  }
}

function deliver(narrowed: NarrowedEvent, bridge: BridgeLease["bridge"]): void {
  const directory = state.sessionDirectories.place(narrowed);
  recordInBook(state.book, narrowed);
  for (const event of narrowed.events) {
    // Events of a location where Hermes is not set up (another project's config) are not ours.
    if (directory === undefined || !state.locations.get(directory)?.link) continue;
    bridge.handleEvent(directory, event);
  }
}

/** Once per process: says whether questions can be answered from the phone (in the log, and on the phone when not). */
async function reportServer(server: OwnServerClient, bridge: BridgeLease["bridge"], logger: Logger): Promise<void> {
  if (state.reportedServer) return;
  state.reportedServer = true;
  const reached = await server.reach();
  if (reached.ok) {
    logger.debug({ url: reached.server.url, source: reached.server.source }, "answers questions through this OpenCode 2 server");
    return;
  }
  logger.error({ reason: reached.reason }, `questions cannot be answered from Telegram: ${reached.reason}. Permissions still can.`);
  await bridge.reply(bridge.t.host.formsUnreachable(escapeHtml(reached.reason)), 0);
}

function appVersion(ctx: PluginContext2): string | undefined {
  const version = (ctx as { app?: { version?: unknown } }).app?.version;
  return typeof version === "string" ? version : undefined;
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
