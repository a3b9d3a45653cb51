import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { acquireBridge, setupOnlyConfig } from "../../lib/hub.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { socketPath, stopAll } from "../support/relay-rig.ts";

/** Counts long polls in flight; each waits until aborted. */
class PollCountingTelegram extends MemoryTelegram {
  inFlight = 0;
  override getUpdates(_offset: number, _timeout: number, signal: AbortSignal): Promise<unknown[]> {
    this.inFlight++;
    return new Promise((resolve) =>
      signal.addEventListener(
        "abort",
        () => {
          this.inFlight--;
          resolve([]);
        },
        { once: true },
      ),
    );
  }
}

const config = (token: string) => ({ token, apiRoot: "http://127.0.0.1:1", chatId: 1, allowedUsers: [], questionTtlMs: 0, permissionTtlMs: 0 });

afterEach(stopAll);

describe("acquireBridge", () => {
  it("shares one bridge per token; only the last release stops polling", async () => {
    const telegram = new PollCountingTelegram();
    const token = `1:${randomBytes(8).toString("hex")}`;
    const options = { config: config(token), logger: pino({ level: "silent" }), telegram, relayAddress: socketPath() };
    const first = acquireBridge(options);
    const second = acquireBridge(options);
    expect(second.bridge).toBe(first.bridge);
    await vi.waitFor(() => expect(telegram.inFlight).toBe(1));

    await first.release();
    await first.release(); // twice is harmless
    expect(second.relay.role).toBe("leader");
    expect(telegram.inFlight).toBe(1);

    await second.release();
    expect(second.relay.role).toBe("stopped");
    expect(telegram.inFlight).toBe(0);

    const third = acquireBridge(options);
    expect(third.bridge).not.toBe(first.bridge);
    await third.release();
  });

  it("keeps separate bridges for separate tokens", async () => {
    const logger = pino({ level: "silent" });
    const a = acquireBridge({
      config: config(`1:${randomBytes(8).toString("hex")}`),
      logger,
      telegram: new PollCountingTelegram(),
      relayAddress: socketPath(),
    });
    const b = acquireBridge({
      config: config(`2:${randomBytes(8).toString("hex")}`),
      logger,
      telegram: new PollCountingTelegram(),
      relayAddress: socketPath(),
    });
    expect(a.bridge).not.toBe(b.bridge);
    await Promise.all([a.release(), b.release()]);
  });

  it("a setup-only bridge has no chat: it says so with undefined, and nobody's tap is taken", async () => {
    const telegram = new MemoryTelegram();
    const config = setupOnlyConfig(`3:${randomBytes(8).toString("hex")}`, "http://127.0.0.1:1");
    expect(config.chatId).toBeUndefined();
    const lease = acquireBridge({ config, logger: pino({ level: "silent" }), telegram, relayAddress: socketPath() });
    expect(lease.bridge.chatId).toBeUndefined();
    await lease.bridge.handleUpdate({ update_id: 1, callback_query: { id: "cb", from: { id: 5 }, data: "x" } });
    expect(telegram.callbackAnswers).toEqual([expect.objectContaining({ id: "cb" })]);
    expect(telegram.messages).toHaveLength(0);
    await lease.release();
  });
});
