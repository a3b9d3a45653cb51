import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { relayAddress, relayDirectory } from "../../lib/relay/address.ts";
import { RecentIds } from "../../lib/util/recent-ids.ts";
import type { UpdateHandler } from "../../lib/relay/update-handler.ts";
import { decode, encode, LineDecoder } from "../../lib/relay/wire.ts";
import { Reachability } from "../../lib/telegram/wire/reachability.ts";
import { QueueTelegram } from "../support/queue-telegram.ts";
import { recorder, socketPath, startRelay as relay, stopAll } from "../support/relay-rig.ts";

afterEach(stopAll);

describe("relayAddress", () => {
  const runtime = os.tmpdir(); // any directory that exists stands for $XDG_RUNTIME_DIR

  it("is a socket file in $XDG_RUNTIME_DIR/hermes, named by a hash, never the token", () => {
    const address = relayAddress("123:secret-token", "https://api.telegram.org", { XDG_RUNTIME_DIR: runtime });
    expect(path.dirname(address)).toBe(path.join(runtime, "hermes"));
    expect(path.basename(address)).toMatch(/^[0-9a-f]{24}\.sock$/);
    expect(address).not.toContain("secret");
  });

  it("falls back to the user's own state directory, never a shared temp dir (no, a relative, or a missing runtime dir)", () => {
    expect(relayDirectory({ HOME: "/home/u" })).toBe("/home/u/.local/state/hermes/relay");
    expect(relayDirectory({ XDG_RUNTIME_DIR: "relative", XDG_STATE_HOME: "/state" })).toBe("/state/hermes/relay");
    expect(relayDirectory({ XDG_RUNTIME_DIR: "/run/user/does-not-exist-4242", XDG_STATE_HOME: "relative" }, "/home/v")).toBe(
      "/home/v/.local/state/hermes/relay",
    );
    expect(relayDirectory({}, "/home/w")).not.toContain(os.tmpdir());
  });

  it("differs per token and per Bot API server, and is stable", () => {
    const env = { XDG_RUNTIME_DIR: runtime };
    const a = relayAddress("1:a", "https://api.telegram.org", env);
    expect(relayAddress("1:a", "https://api.telegram.org", env)).toBe(a);
    expect(relayAddress("1:b", "https://api.telegram.org", env)).not.toBe(a);
    expect(relayAddress("1:a", "http://127.0.0.1:8081", env)).not.toBe(a);
  });
});

describe("relay wire format", () => {
  it("round-trips every message", () => {
    const nonce = "n".repeat(43);
    for (const message of [
      { t: "offer", id: 3, update: { update_id: 9 } },
      { t: "claim", id: 3, claimed: true },
      { t: "grant", id: 3, ok: false },
      { t: "offset", offset: 10 },
      { t: "hello", nonce },
      { t: "auth", nonce, proof: nonce },
      { t: "welcome", proof: nonce, offset: 0 },
      { t: "gather", id: 1, update: { update_id: 2 } },
      { t: "part", id: 1, part: null },
    ] as const) {
      expect(decode(encode(message).trim())).toEqual(message);
    }
  });

  it("reassembles lines split across chunks", () => {
    const decoder = new LineDecoder();
    const line = encode({ t: "claim", id: 1, claimed: false });
    expect(decoder.push(line.slice(0, 5))).toEqual([]);
    expect(decoder.push(line.slice(5) + encode({ t: "offset", offset: 2 }))).toEqual([
      { t: "claim", id: 1, claimed: false },
      { t: "offset", offset: 2 },
    ]);
  });

  it("rejects malformed frames, forged offsets and ids, and over-long lines", () => {
    for (const bad of [
      "not json",
      '{"t":"claim","id":"x","claimed":true}',
      '{"t":"claim","id":0,"claimed":true}',
      '{"t":"offset","offset":9007199254740991}',
      '{"t":"offset","offset":-1}',
      '{"t":"offset","offset":1.5}',
      '{"t":"offer","id":1,"update":{"update_id":2147483648}}',
      '{"t":"offer","id":1,"update":[1]}',
      '{"t":"offer","id":1}',
      '{"t":"hello","nonce":"short"}',
      `{"t":"welcome","proof":"${"x".repeat(43)}","offset":1e20}`,
      '{"t":"whatever"}',
    ]) {
      expect(decode(bad), bad).toBeUndefined();
      const decoder = new LineDecoder();
      expect(decoder.push(`${encode({ t: "offset", offset: 1 }) + bad}\n${encode({ t: "offset", offset: 2 })}`), bad).toEqual([{ t: "offset", offset: 1 }]);
      expect(decoder.violation).toBe("a malformed frame");
    }
    const short = new LineDecoder(100);
    expect(short.push("x".repeat(101))).toEqual([]);
    expect(short.violation).toMatch(/longer than 100/);
  });

  it("RecentIds forgets the oldest beyond its limit", () => {
    const ids = new RecentIds<number>(2);
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
    const address = socketPath();
    const telegram = new QueueTelegram();
    const a = recorder(["for-a"]);
    const b = recorder(["for-b"]);
    const leader = relay(address, telegram, a.handler);
    await vi.waitFor(() => expect(leader.role).toBe("leader"));
    const follower = relay(address, telegram, b.handler);
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

  it("a follower hears that Telegram is back when the leader's poll gets through, so its own waiting sends go at once", async () => {
    const address = socketPath();
    const polled = Object.assign(new QueueTelegram(), { reachability: new Reachability() });
    const leader = relay(address, polled, recorder([]).handler);
    await vi.waitFor(() => expect(leader.role).toBe("leader"));
    const own = Object.assign(new QueueTelegram(), { reachability: new Reachability() });
    const follower = relay(address, own, recorder([]).handler);
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    let back = 0;
    own.reachability.onBack(() => back++);
    own.reachability.failed(0); // the follower's own sends found Telegram unreachable
    polled.reachability.failed(0); // and so did the leader's poll
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(back).toBe(0);
    polled.reachability.answered(); // the leader's poll gets through
    await vi.waitFor(() => expect(back).toBe(1));
    expect(own.reachability.troubled).toBe(false);
  });

  it("fails over: a follower takes over from the last offset, nothing lost or handled twice", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const a = recorder([]);
    const b = recorder(["one", "two"]);
    const first = relay(address, telegram, a.handler);
    await vi.waitFor(() => expect(first.role).toBe("leader"));
    const second = relay(address, telegram, b.handler);
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
    const address = socketPath();
    const telegram = new QueueTelegram();
    // Telegram re-sends what was not confirmed: here, it ignores the offset once.
    const getUpdates = telegram.getUpdates.bind(telegram);
    let calls = 0;
    telegram.getUpdates = (offset, timeout, signal) => getUpdates(++calls === 3 ? 0 : offset, timeout, signal);
    const b = recorder(["once"]);
    const leader = relay(address, telegram, recorder([]).handler, { offerTimeoutMs: 2_000 });
    await vi.waitFor(() => expect(leader.role).toBe("leader"));
    const follower = relay(address, telegram, b.handler);
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    telegram.push("once");
    await vi.waitFor(() => expect(calls).toBeGreaterThanOrEqual(4), { timeout: 5_000 });
    expect(b.claimed).toEqual(["once"]);
  });

  it("a command is answered once, with every process' part gathered by the leader", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const answers: unknown[][] = [];
    const gathering = (name: string): UpdateHandler => ({
      claimUpdate: async () => undefined,
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
    const address = socketPath();
    const telegram = new QueueTelegram();
    const first = relay(address, telegram, recorder([]).handler);
    await vi.waitFor(() => expect(first.role).toBe("leader"));
    await first.stop();
    expect(first.role).toBe("stopped");
    expect(telegram.concurrent).toBe(0);
    const next = relay(address, telegram, recorder([]).handler);
    await vi.waitFor(() => expect(next.role).toBe("leader"));
  });
});
