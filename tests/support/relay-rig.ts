// Relays under test: each test gets its own private socket directory and key, and handlers that
// record what they were given. Shared by the relay unit tests.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { relayKey } from "../../lib/relay/handshake.ts";
import { Relay, type RelayOptions } from "../../lib/relay/relay.ts";
import type { UpdateHandler } from "../../lib/relay/update-handler.ts";
import type { QueueTelegram } from "./queue-telegram.ts";

export const silent = pino({ level: "silent" });
export const TOKEN = "123456:relay-test-token";
export const KEY = relayKey(TOKEN);

const relays: Relay[] = [];
const dirs: string[] = [];

/** A fresh socket path in a fresh (not yet created) private directory. */
export function socketPath(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-relay-"));
  dirs.push(root);
  return path.join(root, "run", `${randomBytes(4).toString("hex")}.sock`);
}

export function startRelay(address: string, telegram: QueueTelegram, handler: UpdateHandler, options: Partial<RelayOptions> = {}): Relay {
  const relay = new Relay({ address, key: KEY, telegram, handler, logger: silent, pollTimeoutSeconds: 1, offerTimeoutMs: 500, ...options });
  relays.push(relay);
  relay.start();
  return relay;
}

export async function stopAll(): Promise<void> {
  await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A process' bridge stand-in: claims the tags it owns (acting only when granted) and records what it handled. */
export function recorder(owns: string[]) {
  const claimed: string[] = [];
  const unclaimed: string[] = [];
  const unanswered: string[] = [];
  const handler: UpdateHandler = {
    async claimUpdate(update) {
      const tag = (update as { tag: string }).tag;
      return owns.includes(tag) ? async () => void claimed.push(tag) : undefined;
    },
    async handleUnclaimed(update, _parts, silentPeer) {
      const tag = (update as { tag: string }).tag;
      (silentPeer ? unanswered : unclaimed).push(tag);
    },
  };
  return { handler, claimed, unclaimed, unanswered };
}
