// One bridge per bot token per process (loaded on first use: lib/bridge/on-demand-bridge.ts), shared by
// every plugin instance (OpenCode creates one per directory, sometimes two), and one relay that
// takes part in the machine-wide election of the process that polls Telegram. The last instance to
// leave stops both. An instance whose settings differ from the running bridge's (another project's
// chat, allow-list, API root, TTLs, notices) is refused, never joined: the bridge would apply the
// first project's settings to its prompts. (A second bridge for the same token in one process
// would poll against the first.)
import { OnDemandBridge } from "../bridge/on-demand-bridge.ts";
import { noticePolicyOf, type HermesConfig } from "../config/config.ts";
import { makeScrubber, secretsOf, type Logger } from "../system/log.ts";
import { relayAddress } from "../relay/address.ts";
import { relayKey } from "../relay/handshake.ts";
import { Relay } from "../relay/relay.ts";
import { createTelegramApi, type TelegramApi } from "../telegram/wire/api.ts";
import { scrubbedTelegram } from "../telegram/wire/scrubbed-api.ts";
import { machineLabel } from "../telegram/render/machine-label.ts";
import { processGlobal } from "../util/process-global.ts";
import { basicSecrets } from "../config/process-secrets.ts";
import { schedulePace } from "../schedules/pace.ts";
import { scheduleBotKey, scheduleFile } from "../schedules/store.ts";
import { ScheduleTimer } from "./schedule-timer.ts";
import { waitAtMost } from "../util/with-timeout.ts";

export interface HubOptions {
  /** `chatId` undefined: no chat configured yet (setupOnlyConfig). */
  config: Pick<HermesConfig, "token" | "apiRoot" | "allowedUsers" | "questionTtlMs" | "permissionTtlMs"> & { chatId: number | undefined } & Partial<
      Pick<
        HermesConfig,
        | "notify"
        | "doneAfterMs"
        | "stallAfterMs"
        | "deskDelayMs"
        | "language"
        | "topics"
        | "progress"
        | "machineName"
        | "transcription"
        | "stream"
        | "rich"
        | "speech"
        | "runBudget"
        | "ignored"
        | "shell"
      >
    >;
  logger: Logger;
  /** Shown to the user (an OpenCode toast) when something needs their attention. */
  notify?: (message: string) => void;
  telegram?: TelegramApi;
  /** The relay's socket file; by default derived from the token, in a private per-user directory (relay/address.ts). */
  relayAddress?: string;
  /** The schedules file; by default `$XDG_STATE_HOME/opencode-hermes/schedules.json` (lib/schedules/store.ts). */
  scheduleFile?: string;
}

export interface BridgeLease {
  /** Loads the bridge itself on first use (on-demand-bridge.ts). */
  bridge: OnDemandBridge;
  relay: Relay;
  /** Gives the lease back; the last one stops polling and settles what is still pending. */
  release(): Promise<void>;
}

/** The running bridge's settings did not match: why, in words for a log line and a toast. */
export interface BridgeRefused {
  refused: string;
}

interface Running {
  bridge: OnDemandBridge;
  relay: Relay;
  /** The schedules' wake-up timer (with a chat configured). */
  timer: ScheduleTimer | undefined;
  leases: number;
  config: HubOptions["config"];
}

const STOP_TIMEOUT_MS = 5_000;
// On globalThis so that a plugin module loaded twice (per instance) still shares one bridge.
const HUBS_KEY = Symbol.for("hermes.hubs");
const hubs = processGlobal(HUBS_KEY, () => new Map<string, Running>());

/** The bridge for a token whose chat is not configured yet: it only answers /start with the chat id. */
export function setupOnlyConfig(token: string, apiRoot: string): HubOptions["config"] {
  return { token, apiRoot, chatId: undefined, allowedUsers: [], questionTtlMs: 0, permissionTtlMs: 0 };
}

/** What a bridge is made of besides the token: every setting but the token itself and where this instance logs. */
const NOT_BRIDGE_SETTINGS = new Set(["token", "log", "ignored"]);

/** The settings (by name) in which two configurations for one token differ; an unset setting counts as its default's absence. */
export function differingSettings(a: HubOptions["config"], b: HubOptions["config"]): string[] {
  const normal = (config: HubOptions["config"]) =>
    new Map(
      Object.entries(config)
        .filter(([name, value]) => !NOT_BRIDGE_SETTINGS.has(name) && value !== undefined)
        .map(([name, value]) => [name, JSON.stringify(name === "allowedUsers" ? [...(value as number[])].sort((x, y) => x - y) : value)]),
    );
  const [left, right] = [normal(a), normal(b)];
  return [...new Set([...left.keys(), ...right.keys()])].filter((name) => left.get(name) !== right.get(name)).sort();
}

/**
 * Optional settings that were wrong (and run on their defaults) and unknown HERMES_* variables: said
 * once per process, in the log, the toast and one message in the chat, so a typo is not silent.
 * Sent at start without waiting (start-up never waits for Telegram).
 */
function sayIgnored(ignored: string[], to: { bridge: OnDemandBridge; logger: Logger; notify: HubOptions["notify"] }): void {
  to.logger.warn({ ignored }, `Hermes ignored settings: ${ignored.join("; ")}`);
  to.notify?.(`${to.bridge.t.note.settingsIgnored} ${ignored.join("; ")}`);
  to.bridge.sayIgnored(ignored);
}

export function acquireBridge(options: HubOptions): BridgeLease | BridgeRefused {
  const { config, logger } = options;
  let running = hubs.get(config.token);
  const differing = running ? differingSettings(running.config, config) : [];
  if (differing.length > 0) {
    const refused =
      `this OpenCode process already runs Hermes for the same bot with other settings (${differing.join(", ")} differ), ` +
      "and one process serves one set of settings per bot: give this project the same Hermes settings, or run it in an OpenCode process of its own";
    logger.error({ differing }, `Hermes is off here: ${refused}`);
    return { refused };
  }
  if (!running) {
    // Nothing sent to Telegram carries the token, the transcription key or the speech key (the agent can print either).
    const secrets = secretsOf(config.token, config.transcription?.key, config.speech?.key, ...basicSecrets(config.transcription?.basic));
    const telegram = scrubbedTelegram(options.telegram ?? createTelegramApi(config.token, config.apiRoot, { rich: config.rich !== false }), secrets);
    // The label is cut to its length on top of the scrubbed API: scrubbed whole first, so no cut secret gets past.
    const machine = machineLabel(config);
    const { pace, refused: paceRefused } = schedulePace(process.env, config.apiRoot);
    if (paceRefused) logger.warn({}, `a schedule's minute stays a minute: ${paceRefused}`);
    const timer =
      config.chatId === undefined
        ? undefined
        : new ScheduleTimer({
            file: options.scheduleFile ?? scheduleFile(),
            bot: scheduleBotKey(config.token, config.apiRoot),
            chatId: config.chatId,
            logger,
            pace,
          });
    const bridge = new OnDemandBridge({
      telegram,
      logger,
      access: { chatId: config.chatId, allowedUsers: config.allowedUsers },
      questionTtlMs: config.questionTtlMs,
      permissionTtlMs: config.permissionTtlMs,
      notices: noticePolicyOf(config),
      language: config.language ?? "en",
      topics: config.topics ?? false,
      progress: config.progress ?? false,
      ...(config.runBudget !== undefined ? { runBudget: config.runBudget } : {}),
      ...(config.stallAfterMs !== undefined ? { stallAfterMs: config.stallAfterMs } : {}),
      ...(config.deskDelayMs !== undefined ? { deskDelayMs: config.deskDelayMs } : {}),
      machine: machine === undefined ? undefined : makeScrubber(secrets)(machine),
      transcription: config.transcription,
      stream: config.stream,
      ...(config.shell === false ? { shell: false } : {}),
      // Nor is any of them read aloud in a spoken answer.
      speech: config.speech && { ...config.speech, withheld: secrets },
      ...(timer ? { schedules: timer.setup, servedChanged: () => timer.refresh() } : {}),
    });
    timer?.serve(bridge);
    const relay = new Relay({
      address: options.relayAddress ?? relayAddress(config.token, config.apiRoot),
      key: relayKey(config.token),
      telegram,
      handler: bridge,
      logger,
      onConflict: () => options.notify?.(bridge.t.note.pollConflict),
      onUnavailable: (reason) => options.notify?.(bridge.t.note.relayUnavailable(reason)),
    });
    relay.start();
    if (config.ignored?.length) sayIgnored(config.ignored, { bridge, logger, notify: options.notify });
    running = { bridge, relay, timer, leases: 0, config };
    hubs.set(config.token, running);
    logger.debug({ chatId: config.chatId }, "Telegram bridge started");
  }
  running.leases++;
  const lease = running;
  let released = false;
  return {
    bridge: lease.bridge,
    relay: lease.relay,
    async release() {
      if (released) return;
      released = true;
      lease.leases--;
      if (lease.leases > 0) return;
      hubs.delete(config.token);
      // No run starts now; settle prompts (their edits need no poller), then hand polling over.
      lease.timer?.stop();
      await waitAtMost(lease.bridge.stop(), STOP_TIMEOUT_MS);
      await waitAtMost(lease.relay.stop(), STOP_TIMEOUT_MS);
      logger.debug("Telegram bridge stopped");
    },
  };
}
