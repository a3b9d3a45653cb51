import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { acquireBridge, differingSettings, setupOnlyConfig, type HubOptions } from "../../lib/plugin/hub.ts";
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

/** A lease, or the test fails with the refusal. */
function leaseOf(options: HubOptions) {
  const result = acquireBridge(options);
  if ("refused" in result) throw new Error(result.refused);
  return result;
}

describe("acquireBridge", () => {
  it("shares one bridge per token; only the last release stops polling", async () => {
    const telegram = new PollCountingTelegram();
    const token = `1:${randomBytes(8).toString("hex")}`;
    const options = { config: config(token), logger: pino({ level: "silent" }), telegram, relayAddress: socketPath() };
    const first = leaseOf(options);
    const second = leaseOf(options);
    expect(second.bridge).toBe(first.bridge);
    await vi.waitFor(() => expect(telegram.inFlight).toBe(1));

    await first.release();
    await first.release(); // twice is harmless
    expect(second.relay.role).toBe("leader");
    expect(telegram.inFlight).toBe(1);

    await second.release();
    expect(second.relay.role).toBe("stopped");
    expect(telegram.inFlight).toBe(0);

    const third = leaseOf(options);
    expect(third.bridge).not.toBe(first.bridge);
    await third.release();
  });

  it("keeps separate bridges for separate tokens", async () => {
    const logger = pino({ level: "silent" });
    const a = leaseOf({
      config: config(`1:${randomBytes(8).toString("hex")}`),
      logger,
      telegram: new PollCountingTelegram(),
      relayAddress: socketPath(),
    });
    const b = leaseOf({
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
    const lease = leaseOf({ config, logger: pino({ level: "silent" }), telegram, relayAddress: socketPath() });
    expect(lease.bridge.chatId).toBeUndefined();
    await lease.bridge.handleUpdate({ update_id: 1, callback_query: { id: "cb", from: { id: 5 }, data: "x" } });
    expect(telegram.callbackAnswers).toEqual([expect.objectContaining({ id: "cb" })]);
    expect(telegram.messages).toHaveLength(0);
    await lease.release();
  });

  it("two instances with different chats never share a bridge: the second is refused, naming what differs", async () => {
    const token = `4:${randomBytes(8).toString("hex")}`;
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    const telegram = new MemoryTelegram();
    const relayAddress = socketPath();
    const a = leaseOf({ config: { ...config(token), chatId: -1001 }, logger, telegram, relayAddress });
    const b = acquireBridge({ config: { ...config(token), chatId: 42 }, logger, telegram, relayAddress });
    expect(b).toEqual({ refused: expect.stringContaining("(chatId differ)") });
    expect(lines.filter((line) => line.includes("Hermes is off here"))).toHaveLength(1);
    // The first bridge keeps its own chat; nothing of the second's reached it.
    expect(a.bridge.chatId).toBe(-1001);
    await a.release();
    // Once the first is gone, the second project gets a bridge of its own, with its own chat.
    const later = leaseOf({ config: { ...config(token), chatId: 42 }, logger, telegram, relayAddress });
    expect(later.bridge).not.toBe(a.bridge);
    expect(later.bridge.chatId).toBe(42);
    await later.release();
  });

  it("a looser allow-list, another API root, other TTLs, notices or language: refused too; the same settings in another order join", async () => {
    const token = `5:${randomBytes(8).toString("hex")}`;
    const options = { logger: pino({ level: "silent" }), telegram: new MemoryTelegram(), relayAddress: socketPath() };
    const strict = { ...config(token), chatId: -1002, allowedUsers: [7, 8], language: "en" as const };
    const lease = leaseOf({ ...options, config: strict });
    const looserSettings: Array<[Partial<HubOptions["config"]>, string]> = [
      [{ allowedUsers: [] }, "allowedUsers"],
      [{ allowedUsers: [7, 8, 9] }, "allowedUsers"],
      [{ apiRoot: "http://127.0.0.1:2" }, "apiRoot"],
      [{ questionTtlMs: 1 }, "questionTtlMs"],
      [{ permissionTtlMs: 1 }, "permissionTtlMs"],
      [{ notify: "off" }, "notify"],
      [{ language: "zh" }, "language"],
      [{ topics: true }, "topics"],
      [{ machineName: "other" }, "machineName"],
    ];
    for (const [looser, setting] of looserSettings) {
      expect(acquireBridge({ ...options, config: { ...strict, ...looser } }), setting).toEqual({ refused: expect.stringContaining(`(${setting} differ)`) });
    }
    const same = leaseOf({ ...options, config: { ...strict, allowedUsers: [8, 7], log: { file: "/elsewhere.log", level: "debug" } } as HubOptions["config"] });
    expect(same.bridge).toBe(lease.bridge);
    await Promise.all([same.release(), lease.release()]);
  });

  it("a setup-only bridge (no chat yet) is not joined by a configured instance, nor the other way round", async () => {
    const token = `6:${randomBytes(8).toString("hex")}`;
    const options = { logger: pino({ level: "silent" }), telegram: new MemoryTelegram(), relayAddress: socketPath() };
    const setupOnly = leaseOf({ ...options, config: setupOnlyConfig(token, "http://127.0.0.1:1") });
    expect(acquireBridge({ ...options, config: config(token) })).toEqual({ refused: expect.stringContaining("chatId") });
    await setupOnly.release();
    const configured = leaseOf({ ...options, config: config(token) });
    expect(acquireBridge({ ...options, config: setupOnlyConfig(token, "http://127.0.0.1:1") })).toHaveProperty("refused");
    await configured.release();
  });

  it("differingSettings: names each setting that differs, ignoring the token and the log", () => {
    const base = { ...config("1:a"), log: { file: "/a", level: "info" } } as HubOptions["config"];
    expect(differingSettings(base, { ...base, token: "1:b", log: { file: "/b", level: "debug" } } as HubOptions["config"])).toEqual([]);
    expect(differingSettings(base, { ...base, chatId: 2, language: "zh" })).toEqual(["chatId", "language"]);
  });
});
