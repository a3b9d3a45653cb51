// One bridge per bot token per process, shared by every plugin instance (OpenCode creates one per
// directory, sometimes two), and one relay that takes part in the machine-wide election of the
// process that polls Telegram. The last instance to leave stops both.
import { Bridge } from "./bridge/bridge.ts";
import { noticePolicyOf, type HermesConfig } from "./config.ts";
import type { Logger } from "./log.ts";
import { relayAddress } from "./relay/address.ts";
import { relayKey } from "./relay/handshake.ts";
import { Relay } from "./relay/relay.ts";
import { Registry } from "./registry/registry.ts";
import { createTelegramApi, type TelegramApi } from "./telegram/api.ts";
import { machineLabel } from "./telegram/machine-label.ts";
import { processGlobal } from "./process-global.ts";
import { waitAtMost } from "./with-timeout.ts";

export interface HubOptions {
  /** `chatId` undefined: no chat configured yet (setupOnlyConfig). */
  config: Pick<HermesConfig, "token" | "apiRoot" | "allowedUsers" | "questionTtlMs" | "permissionTtlMs"> & { chatId: number | undefined } & Partial<
      Pick<HermesConfig, "notify" | "doneAfterMs" | "language" | "topics" | "machineName" | "transcription">
    >;
  logger: Logger;
  /** Shown to the user (an OpenCode toast) when something needs their attention. */
  notify?: (message: string) => void;
  telegram?: TelegramApi;
  /** The relay's socket file; by default derived from the token, in a private per-user directory (relay/address.ts). */
  relayAddress?: string;
}

export interface BridgeLease {
  bridge: Bridge;
  relay: Relay;
  /** Gives the lease back; the last one stops polling and settles what is still pending. */
  release(): Promise<void>;
}

interface Running {
  bridge: Bridge;
  relay: Relay;
  leases: number;
}

const STOP_TIMEOUT_MS = 5_000;
// On globalThis so that a plugin module loaded twice (per instance) still shares one bridge.
const HUBS_KEY = Symbol.for("hermes.hubs");
const hubs = processGlobal(HUBS_KEY, () => new Map<string, Running>());

/** The bridge for a token whose chat is not configured yet: it only answers /start with the chat id. */
export function setupOnlyConfig(token: string, apiRoot: string): HubOptions["config"] {
  return { token, apiRoot, chatId: undefined, allowedUsers: [], questionTtlMs: 0, permissionTtlMs: 0 };
}

export function acquireBridge(options: HubOptions): BridgeLease {
  const { config, logger } = options;
  let running = hubs.get(config.token);
  if (!running) {
    const telegram = options.telegram ?? createTelegramApi(config.token, config.apiRoot);
    const bridge = new Bridge({
      telegram,
      registry: new Registry(),
      logger,
      access: { chatId: config.chatId, allowedUsers: config.allowedUsers },
      questionTtlMs: config.questionTtlMs,
      permissionTtlMs: config.permissionTtlMs,
      notices: noticePolicyOf(config),
      language: config.language ?? "en",
      topics: config.topics ?? false,
      machine: machineLabel(config),
      transcription: config.transcription,
    });
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
    running = { bridge, relay, leases: 0 };
    hubs.set(config.token, running);
    logger.info({ chatId: config.chatId }, "Telegram bridge started");
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
      // Settle prompts first (their edits need no poller), then hand polling over.
      await waitAtMost(lease.bridge.stop(), STOP_TIMEOUT_MS);
      await waitAtMost(lease.relay.stop(), STOP_TIMEOUT_MS);
      logger.info("Telegram bridge stopped");
    },
  };
}
