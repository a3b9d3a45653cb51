// The relay socket is a trust boundary (issue #10 item 1): only the owner's processes can reach it,
// every connection proves it holds the bot token both ways before any update crosses it, every
// frame is checked, and no silent or slow peer holds up the others.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { relayKey } from "../../lib/relay/handshake.ts";
import { TelegramApiError } from "../../lib/telegram/wire/api.ts";
import { ensurePrivateDirectory } from "../../lib/system/private-dir.ts";
import type { UpdateHandler } from "../../lib/relay/update-handler.ts";
import { QueueTelegram } from "../support/queue-telegram.ts";
import { connectAuthenticated, connectRaw, fakeLeader } from "../support/relay-peer.ts";
import { KEY, recorder, socketPath, startRelay, stopAll } from "../support/relay-rig.ts";

afterEach(stopAll);

const isRoot = process.getuid?.() === 0;

describe("who can reach the relay", () => {
  it("a connection without the token proof sees only a nonce, is closed, and can neither read nor claim an update", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const leader = recorder([]);
    const owner = recorder(["for-owner"]);
    startRelay(address, telegram, leader.handler, { handshakeMs: 200 });
    await vi.waitFor(() => expect(fs.existsSync(address)).toBe(true));
    // The stranger claims whatever it is offered, and answers the handshake with garbage.
    const stranger = await connectRaw(address, (frame, self) => {
      if (frame.t === "hello") self.send({ t: "auth", nonce: frame.nonce, proof: "A".repeat(43) });
      if (frame.t === "offer") self.send({ t: "claim", id: frame.id, claimed: true });
    });
    const follower = startRelay(address, telegram, owner.handler);
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    telegram.push("for-owner", { text: "private text" });
    telegram.push("nobody's", { text: "more private text" });
    await vi.waitFor(() => expect(leader.unclaimed).toEqual(["nobody's"]));
    expect(owner.claimed).toEqual(["for-owner"]);
    await stranger.closed;
    expect(stranger.frames().map((frame) => frame.t)).toEqual(["hello"]);
    expect(stranger.lines.join("\n")).not.toContain("private");
  });

  it("a connection that stays silent is closed after the handshake deadline", async () => {
    const address = socketPath();
    startRelay(address, new QueueTelegram(), recorder([]).handler, { handshakeMs: 100 });
    await vi.waitFor(() => expect(fs.existsSync(address)).toBe(true));
    const silent = await connectRaw(address);
    await silent.closed;
    expect(silent.frames().map((frame) => frame.t)).toEqual(["hello"]);
  });

  it("a follower holding another token is refused", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const leader = recorder([]);
    startRelay(address, telegram, leader.handler, { handshakeMs: 200 });
    await vi.waitFor(() => expect(fs.existsSync(address)).toBe(true));
    const impostor = await connectRaw(address);
    const other = recorder(["x"]);
    const wrongKey = startRelay(address, telegram, other.handler, { key: relayKey("999:another-token"), handshakeMs: 200 });
    telegram.push("x");
    await vi.waitFor(() => expect(leader.unclaimed).toEqual(["x"]));
    expect(wrongKey.role).not.toBe("follower");
    expect(other.claimed).toEqual([]);
    impostor.socket.destroy();
  });

  it("a fake leader without the proof is not followed: nothing it offers is handled", async () => {
    const address = socketPath();
    ensurePrivateDirectory(path.dirname(address));
    const handled = recorder(["bait"]);
    const fake = await fakeLeader(address, undefined, (peer) => peer.send({ t: "offer", id: 1, update: { update_id: 5, tag: "bait" } }));
    const relay = startRelay(address, new QueueTelegram(), handled.handler, { handshakeMs: 200 });
    await vi.waitFor(() => expect(fake.peers.length).toBeGreaterThanOrEqual(2)); // it tried, gave up, tried again
    expect(relay.role).toBe("electing");
    expect(handled.claimed).toEqual([]);
    // What it heard from the victim: a nonce and a proof bound to the fake's nonce, never the token.
    const said = fake.peers.flatMap((peer) => peer.lines).join("\n");
    expect(said).not.toContain("relay-test-token");
    await fake.close();
    await vi.waitFor(() => expect(relay.role).toBe("leader"));
  });

  it("a forged offset from the leader closes the connection and is not adopted", async () => {
    const address = socketPath();
    ensurePrivateDirectory(path.dirname(address));
    const telegram = new QueueTelegram();
    const fake = await fakeLeader(address, KEY, (peer) => {
      peer.send({ t: "offset", offset: 41 });
      peer.send({ t: "offset", offset: 9007199254740991 });
    });
    const relay = startRelay(address, telegram, recorder([]).handler);
    await vi.waitFor(() => expect(fake.peers.length).toBeGreaterThanOrEqual(1));
    await fake.peers[0]!.closed; // the follower hung up on the forged frame
    await fake.close();
    await vi.waitFor(() => expect(relay.role).toBe("leader"));
    await vi.waitFor(() => expect(telegram.offsets.length).toBeGreaterThan(0));
    expect(telegram.offsets[0]).toBe(41); // the last valid offset, not the forged one
  });

  it("the socket's directory is 0700 and the socket file 0600: group and others get nothing", async () => {
    const address = socketPath();
    const relay = startRelay(address, new QueueTelegram(), recorder([]).handler);
    await vi.waitFor(() => expect(relay.role).toBe("leader"));
    expect(fs.statSync(path.dirname(address)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(address).mode & 0o077).toBe(0);
    expect(fs.statSync(address).isSocket()).toBe(true);
  });

  it("refuses a directory others can enter, or that is a symlink; this process then still polls, on its own", async () => {
    const address = socketPath();
    fs.mkdirSync(path.dirname(address), { mode: 0o755 });
    fs.chmodSync(path.dirname(address), 0o755);
    const reasons: string[] = [];
    const telegram = new QueueTelegram();
    const owner = recorder(["mine"]);
    const relay = startRelay(address, telegram, owner.handler, { onUnavailable: (reason) => reasons.push(reason) });
    await vi.waitFor(() => expect(reasons).toHaveLength(1));
    expect(reasons[0]).toMatch(/open to other users/);
    expect(relay.role).toBe("solo");
    expect(fs.existsSync(address)).toBe(false);
    // Not deaf: its own updates are handled, the rest answered by itself, each once.
    telegram.push("mine");
    telegram.push("nobody's");
    await vi.waitFor(() => expect(owner.unclaimed).toEqual(["nobody's"]));
    expect(owner.claimed).toEqual(["mine"]);
    await vi.waitFor(() => expect(telegram.offsets.at(-1)).toBe(3));
    await relay.stop();
    expect(relay.role).toBe("stopped");
    expect(telegram.concurrent).toBe(0);

    const linked = socketPath();
    const real = path.join(path.dirname(path.dirname(linked)), "elsewhere");
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync(real, path.dirname(linked));
    expect(() => ensurePrivateDirectory(path.dirname(linked))).toThrow(/not a directory/);
  });

  it.skipIf(!isRoot)("refuses a directory another user created first, and polls on its own instead of going deaf", async () => {
    const address = socketPath();
    const dir = path.dirname(address);
    fs.mkdirSync(dir, { mode: 0o700 });
    fs.chownSync(dir, 65534, 65534);
    expect(() => ensurePrivateDirectory(dir)).toThrow(/belongs to another user/);
    const telegram = new QueueTelegram();
    const owner = recorder(["mine"]);
    const relay = startRelay(address, telegram, owner.handler);
    await vi.waitFor(() => expect(relay.role).toBe("solo"));
    telegram.push("mine");
    await vi.waitFor(() => expect(owner.claimed).toEqual(["mine"]));
  });

  it("a socket path too long for a Unix socket: no relay, and this process polls on its own", async () => {
    const root = path.dirname(path.dirname(socketPath()));
    const address = path.join(root, "d".repeat(80), "relay.sock");
    const reasons: string[] = [];
    const telegram = new QueueTelegram();
    const owner = recorder(["mine"]);
    const relay = startRelay(address, telegram, owner.handler, { onUnavailable: (reason) => reasons.push(reason) });
    await vi.waitFor(() => expect(relay.role).toBe("solo"));
    expect(reasons[0]).toMatch(/too long for a Unix socket/);
    telegram.push("mine");
    await vi.waitFor(() => expect(owner.claimed).toEqual(["mine"]));
  });

  it("two processes that both poll on their own: the second meets Telegram's 409 Conflict and says so once, and keeps trying", async () => {
    const telegram = new QueueTelegram();
    const conflicts: string[] = [];
    const conflicted = Object.assign(Object.create(telegram) as QueueTelegram, {
      getUpdates: async () => {
        throw new TelegramApiError(409, "Conflict: terminated by other getUpdates request");
      },
    });
    const address = path.join(path.dirname(path.dirname(socketPath())), "d".repeat(100), "relay.sock");
    const relay = startRelay(address, conflicted, recorder([]).handler, { onConflict: () => conflicts.push("409") });
    await vi.waitFor(() => expect(relay.role).toBe("solo"));
    await vi.waitFor(() => expect(conflicts).toEqual(["409"]));
  });

  it.skipIf(!isRoot)("another local user (uid 65534) cannot connect to the socket", async () => {
    const address = socketPath();
    fs.chmodSync(path.dirname(path.dirname(address)), 0o755); // only the relay's own directory stands in the way
    const relay = startRelay(address, new QueueTelegram(), recorder([]).handler);
    await vi.waitFor(() => expect(relay.role).toBe("leader"));
    const probe = `require("net").connect(${JSON.stringify(address)}).on("connect", () => { console.log("CONNECTED"); process.exit(0); }).on("error", (e) => { console.log(e.code); process.exit(0); });`;
    const result = spawnSync(process.execPath, ["-e", probe], { uid: 65534, gid: 65534, encoding: "utf8", timeout: 10_000 });
    expect(result.stdout.trim()).toBe("EACCES");
    const root = spawnSync(process.execPath, ["-e", probe], { encoding: "utf8", timeout: 10_000 });
    expect(root.stdout.trim()).toBe("CONNECTED"); // the same probe works for the owner
    const listing = spawnSync("ls", [path.dirname(address)], { uid: 65534, gid: 65534, encoding: "utf8" });
    expect(listing.stderr).toMatch(/Permission denied/); // nor can it list the directory
  });
});

describe("a leader killed with kill -9 leaves its socket file behind", () => {
  /** A process that binds the socket like a leader and dies at once, without cleaning up. */
  function leaveStaleSocket(address: string): void {
    const script = `require("net").createServer().listen(${JSON.stringify(address)}, () => process.kill(process.pid, "SIGKILL"));`;
    spawnSync(process.execPath, ["-e", script], { timeout: 10_000 });
    expect(fs.statSync(address).isSocket()).toBe(true);
  }

  it("two survivors racing to replace it end with exactly one leader and one follower (10 rounds)", async () => {
    for (let round = 0; round < 10; round++) {
      const address = socketPath();
      ensurePrivateDirectory(path.dirname(address));
      leaveStaleSocket(address);
      const telegram = new QueueTelegram();
      const a = recorder(["a"]);
      const b = recorder(["b"]);
      const first = startRelay(address, telegram, a.handler);
      const second = startRelay(address, telegram, b.handler);
      await vi.waitFor(() => expect([first.role, second.role].sort()).toEqual(["follower", "leader"]));
      telegram.push("a");
      telegram.push("b");
      await vi.waitFor(() => expect([...a.claimed, ...b.claimed].sort()).toEqual(["a", "b"]));
      expect(telegram.maxConcurrent).toBe(1);
      await stopAll();
    }
  });
});

describe("the socket name changes hands", () => {
  it("three survivors of a dead leader settle on one leader and two followers", async () => {
    const address = socketPath();
    ensurePrivateDirectory(path.dirname(address));
    spawnSync(process.execPath, ["-e", `require("net").createServer().listen(${JSON.stringify(address)}, () => process.kill(process.pid, "SIGKILL"));`], {
      timeout: 10_000,
    });
    const telegram = new QueueTelegram();
    const handlers = [recorder(["a"]), recorder(["b"]), recorder(["c"])];
    const relays = handlers.map((h) => startRelay(address, telegram, h.handler));
    await vi.waitFor(() => expect(relays.map((r) => r.role).sort()).toEqual(["follower", "follower", "leader"]), { timeout: 5_000 });
    for (const tag of ["a", "b", "c"]) telegram.push(tag);
    await vi.waitFor(() => expect(handlers.flatMap((h) => h.claimed).sort()).toEqual(["a", "b", "c"]));
  });

  it("a leader whose socket name was taken from it stops polling and elects again", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const relay = startRelay(address, telegram, recorder([]).handler);
    await vi.waitFor(() => expect(relay.role).toBe("leader"));
    fs.unlinkSync(address); // as a race with a third process could leave it: unreachable under the shared name
    await vi.waitFor(() => expect(fs.existsSync(address)).toBe(true), { timeout: 5_000 });
    await vi.waitFor(() => expect(relay.role).toBe("leader"));
    const follower = recorder(["mine"]);
    const next = startRelay(address, telegram, follower.handler);
    await vi.waitFor(() => expect(next.role).toBe("follower"));
    telegram.push("mine");
    await vi.waitFor(() => expect(follower.claimed).toEqual(["mine"]));
  });
});

describe("no peer holds up the others", () => {
  it("silent connections and a stranger flood whose handling never ends do not delay the owner's tap", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    let strangersStarted = 0;
    const leader: UpdateHandler = {
      claimUpdate: async () => undefined,
      // Answering a stranger waits on outgoing Telegram traffic that never completes.
      handleUnclaimed: () => {
        strangersStarted++;
        return new Promise<void>(() => undefined);
      },
    };
    startRelay(address, telegram, leader, { handshakeMs: 30_000 }); // silent connections stay open all along
    await vi.waitFor(() => expect(fs.existsSync(address)).toBe(true));
    const silent = await Promise.all([connectRaw(address), connectRaw(address), connectRaw(address)]);
    const owner = recorder(["tap"]);
    const follower = startRelay(address, telegram, owner.handler);
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    for (let i = 0; i < 10; i++) telegram.push("stranger");
    telegram.push("tap");
    await vi.waitFor(() => expect(owner.claimed).toEqual(["tap"]));
    expect(strangersStarted).toBe(10); // all ten are still being answered
    for (const peer of silent) expect(peer.socket.destroyed).toBe(false);
  });

  it("a follower that stops answering is waited for once, then skipped until it answers again", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const leader = recorder([]);
    startRelay(address, telegram, leader.handler, { offerTimeoutMs: 300 });
    await vi.waitFor(() => expect(fs.existsSync(address)).toBe(true));
    const hung = await connectAuthenticated(address, KEY); // proves itself, then never answers
    const owner = recorder(["tap-1", "tap-2"]);
    const follower = startRelay(address, telegram, owner.handler);
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    telegram.push("tap-1");
    await vi.waitFor(() => expect(owner.claimed).toEqual(["tap-1"]));
    telegram.push("stale-1"); // nobody's: waits for the hung follower's answer, in vain
    await vi.waitFor(() => expect(leader.unanswered).toEqual(["stale-1"]));
    telegram.push("stale-2");
    telegram.push("tap-2");
    await vi.waitFor(() => expect(owner.claimed).toEqual(["tap-1", "tap-2"]));
    await vi.waitFor(() => expect(leader.unanswered).toEqual(["stale-1", "stale-2"]));
    const offered = hung
      .frames()
      .filter((frame) => frame.t === "offer")
      .map((frame) => frame.update.tag);
    expect(offered).toEqual(["tap-1", "stale-1"]); // nothing more after it went silent
  });
});

describe("claim before acknowledging (issue #10 item 7)", () => {
  it("a follower whose claim comes after the leader gave up does not act on it", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const leader = recorder([]);
    startRelay(address, telegram, leader.handler, { offerTimeoutMs: 200 });
    await vi.waitFor(() => expect(fs.existsSync(address)).toBe(true));
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const acted: string[] = [];
    const follower = startRelay(address, telegram, {
      async claimUpdate(update) {
        const tag = (update as { tag: string }).tag;
        if (tag === "slow-tap") await slow;
        return tag.endsWith("tap") || tag.startsWith("probe") ? async () => void acted.push(tag) : undefined;
      },
      handleUnclaimed: async () => undefined,
    });
    await vi.waitFor(() => expect(follower.role).toBe("follower"));
    telegram.push("slow-tap");
    await vi.waitFor(() => expect(leader.unanswered).toEqual(["slow-tap"])); // the leader answered it ("tap again")
    release();
    // Its late claim is refused, and that refusal travels ahead of any later offer on the same socket:
    // once a later update reaches it, the refusal has been applied.
    for (let probe = 0; !acted.some((tag) => tag.startsWith("probe")); probe++) {
      telegram.push(`probe-${probe}`);
      await vi.waitFor(() => expect([...acted, ...leader.unanswered]).toContain(`probe-${probe}`));
    }
    expect(acted).not.toContain("slow-tap");
  });
});
