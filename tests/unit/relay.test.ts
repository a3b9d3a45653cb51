import { randomBytes } from "node:crypto";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isAbstract, relayAddress } from "../../lib/relay/address.ts";
import { RecentIds } from "../../lib/relay/recent-ids.ts";
import { Relay, type UpdateHandler } from "../../lib/relay/relay.ts";
import { decode, encode, LineDecoder } from "../../lib/relay/wire.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

const silent = pino({ level: "silent" });

/** A Telegram whose getUpdates long-polls a queue, confirming by offset like the real one. */
class QueueTelegram extends MemoryTelegram {
  readonly updates: Array<{ update_id: number; tag: string }> = [];
  readonly offsets: number[] = [];
  concurrent = 0;
  maxConcurrent = 0;
  #wake: Array<() => void> = [];

  push(tag: string): void {
    this.updates.push({ update_id: this.updates.length + 1, tag });
    for (const wake of this.#wake.splice(0)) wake();
  }

  override async getUpdates(offset: number, timeoutSeconds: number, signal: AbortSignal): Promise<unknown[]> {
    this.offsets.push(offset);
    this.maxConcurrent = Math.max(this.maxConcurrent, ++this.concurrent);
    const deadline = Date.now() + timeoutSeconds * 1000;
    try {
      for (;;) {
        const ready = this.updates.filter((update) => update.update_id >= offset);
        if (ready.length > 0 || Date.now() >= deadline) return ready;
        if (signal.aborted) throw signal.reason;
        await new Promise<void>((resolve) => {
          this.#wake.push(resolve);
          setTimeout(resolve, deadline - Date.now());
          signal.addEventListener("abort", () => resolve(), { once: true });
        });
      }
    } finally {
      this.concurrent--;
    }
  }
}

/** A process' bridge stand-in: claims the tags it owns and records what it handled. */
function handler(owns: string[]) {
  const claimed: string[] = [];
  const unclaimed: string[] = [];
  const h: UpdateHandler = {
    async claimUpdate(update) {
      const tag = (update as { tag: string }).tag;
      if (!owns.includes(tag)) return false;
      claimed.push(tag);
      return true;
    },
    async handleUnclaimed(update) {
      unclaimed.push((update as { tag: string }).tag);
    },
  };
  return { h, claimed, unclaimed };
}

const relays: Relay[] = [];
function relay(address: string, telegram: QueueTelegram, h: UpdateHandler): Relay {
  const r = new Relay({ address, telegram, handler: h, logger: silent, pollTimeoutSeconds: 1, offerTimeoutMs: 500 });
  relays.push(r);
  r.start();
  return r;
}
const uniqueAddress = () => `\0hermes-test-${randomBytes(6).toString("hex")}`;

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
});

describe("relayAddress", () => {
  it("is an abstract socket on Linux named by a hash, never the token", () => {
    const address = relayAddress("123:secret-token", "https://api.telegram.org", "linux");
    expect(isAbstract(address)).toBe(true);
    expect(address).toMatch(/^\0hermes-[0-9a-f]{24}$/);
    expect(address).not.toContain("secret");
  });

  it("differs per token and per Bot API server, and is stable", () => {
    const a = relayAddress("1:a", "https://api.telegram.org", "linux");
    expect(relayAddress("1:a", "https://api.telegram.org", "linux")).toBe(a);
    expect(relayAddress("1:b", "https://api.telegram.org", "linux")).not.toBe(a);
    expect(relayAddress("1:a", "http://127.0.0.1:8081", "linux")).not.toBe(a);
  });

  it("is a socket file in the runtime dir elsewhere", () => {
    expect(relayAddress("1:a", "x", "darwin", { XDG_RUNTIME_DIR: "/run/user/5" })).toMatch(/^\/run\/user\/5\/hermes-[0-9a-f]{24}\.sock$/);
  });
});

describe("relay wire format", () => {
  it("round-trips every message", () => {
    for (const message of [{ t: "offer", id: 3, update: { update_id: 9 } }, { t: "claim", id: 3, claimed: true }, { t: "offset", offset: 10 }] as const) {
      expect(decode(encode(message).trim())).toEqual(message);
    }
  });

  it("reassembles lines split across chunks and drops malformed ones", () => {
    const decoder = new LineDecoder();
    const line = encode({ t: "claim", id: 1, claimed: false });
    expect(decoder.push(line.slice(0, 5))).toEqual([]);
    expect(decoder.push(line.slice(5) + "not json\n" + '{"t":"claim","id":"x","claimed":true}\n' + encode({ t: "offset", offset: 2 }))).toEqual([
      { t: "claim", id: 1, claimed: false },
      { t: "offset", offset: 2 },
    ]);
  });

  it("RecentIds forgets the oldest beyond its limit", () => {
    const ids = new RecentIds(2);
    expect(ids.add(1)).toBe(true);
    expect(ids.add(1)).toBe(false);
    ids.add(2);
    ids.add(3);
    expect(ids.has(1)).toBe(false);
    expect(ids.has(3)).toBe(true);
  });
});

describe("Relay", () => {
  it("elects one leader; the leader offers each update until a process claims it", async () => {
    const address = uniqueAddress();
    const telegram = new QueueTelegram();
    const a = handler(["for-a"]);
    const b = handler(["for-b"]);
    const leader = relay(address, telegram, a.h);
    await vi.waitFor(() => expect(leader.role).toBe("leader"));
    const follower = relay(address, telegram, b.h);
    await vi.waitFor(() => expect(follower.role).toBe("follower"));

    telegram.push("for-a");
    telegram.push("for-b");
    telegram.push("stale");
    await vi.waitFor(() => expect(a.unclaimed).toEqual(["stale"]));
    expect(a.claimed).toEqual(["for-a"]);
    expect(b.claimed).toEqual(["for-b"]);
    expect(b.unclaimed).toEqual([]);
    expect(telegram.maxConcurrent).toBe(1);
  });

  it("fails over: a follower takes over from the last offset, nothing lost or handled twice", async () => {
    const address = uniqueAddress();
    const telegram = new QueueTelegram();
    const a = handler([]);
    const b = handler(["one", "two"]);
    const first = relay(address, telegram, a.h);
    await vi.waitFor(() => expect(first.role).toBe("leader"));
    const second = relay(address, telegram, b.h);
    await vi.waitFor(() => expect(second.role).toBe("follower"));
    telegram.push("one");
    await vi.waitFor(() => expect(b.claimed).toEqual(["one"]));

    await first.stop();
    const polledBefore = telegram.offsets.length;
    await vi.waitFor(() => expect(second.role).toBe("leader"));
    telegram.push("two");
    await vi.waitFor(() => expect(b.claimed).toEqual(["one", "two"]));
    expect(Math.min(...telegram.offsets.slice(polledBefore))).toBe(2); // resumed right after "one"
    expect(b.unclaimed).toEqual([]);
    expect(telegram.maxConcurrent).toBe(1);
  });

  it("an update delivered again (as after a failover) is not handled twice", async () => {
    const address = uniqueAddress();
    const telegram = new QueueTelegram();
    // Telegram re-sends what was not confirmed: here, it ignores the offset once.
    const getUpdates = telegram.getUpdates.bind(telegram);
    let calls = 0;
    telegram.getUpdates = (offset, timeout, signal) => getUpdates(++calls === 3 ? 0 : offset, timeout, signal);
    const b = handler(["once"]);
    const leader = relay(address, telegram, handler([]).h);
    await vi.waitFor(() => expect(leader.role).toBe("leader"));
    const follower = relay(address, telegram, b.h);
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    telegram.push("once");
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(4), { timeout: 5_000 });
    expect(b.claimed).toEqual(["once"]);
  });

  it("a command is answered once, with every process' part gathered by the leader", async () => {
    const address = uniqueAddress();
    const telegram = new QueueTelegram();
    const answers: unknown[][] = [];
    const gathering = (name: string): UpdateHandler => ({
      claimUpdate: async () => false,
      gathers: (update) => (update as { tag: string }).tag === "/status",
      partFor: async () => ({ from: name }),
      handleUnclaimed: async (_update, parts) => void answers.push(parts ?? []),
    });
    const leader = relay(address, telegram, gathering("leader"));
    await vi.waitFor(() => expect(leader.role).toBe("leader"));
    const follower = relay(address, telegram, gathering("follower"));
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    telegram.push("/status");
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    expect(answers[0]).toEqual([{ from: "leader" }, { from: "follower" }]);
  });

  it("stop() ends polling and frees the address for the next process", async () => {
    const address = uniqueAddress();
    const telegram = new QueueTelegram();
    const first = relay(address, telegram, handler([]).h);
    await vi.waitFor(() => expect(first.role).toBe("leader"));
    await first.stop();
    expect(first.role).toBe("stopped");
    expect(telegram.concurrent).toBe(0);
    const next = relay(address, telegram, handler([]).h);
    await vi.waitFor(() => expect(next.role).toBe("leader"));
  });
});
