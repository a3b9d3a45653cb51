// After a leader change, a tap reaches the new leader while the process whose prompt it is may still
// be re-connecting. Such a tap is held for a moment and handed to that process once it is back, never
// declared stale because its owner was late.
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ParkingLot, type Offer } from "../../lib/relay/parking.ts";
import { ensurePrivateDirectory } from "../../lib/system/private-dir.ts";
import type { Update } from "../../lib/relay/wire.ts";
import { CHAT, OWNER, setup } from "../support/bridge-rig.ts";
import { QueueTelegram } from "../support/queue-telegram.ts";
import { connectAuthenticated, fakeLeader } from "../support/relay-peer.ts";
import { KEY, recorder, socketPath, startRelay, stopAll } from "../support/relay-rig.ts";

afterEach(async () => {
  vi.useRealTimers();
  await stopAll();
});

/**
 * An old leader (a fake that passes the handshake) with two real followers: the survivor that owns
 * "tap", and the one that will take over. Killing the old leader drops both links; a re-connect
 * attempt made while it dies is accepted and never answered, so each survivor waits out its own
 * handshake deadline: the taker's is short, the owner's long. Then the name is freed and the taker
 * leads while the owner is still stuck.
 */
async function takeOverWhileOwnerReconnects(options: { takeoverGraceMs?: number } = {}) {
  const address = socketPath();
  ensurePrivateDirectory(path.dirname(address));
  const telegram = new QueueTelegram();
  let alive = true;
  const old = await fakeLeader(
    address,
    KEY,
    () => undefined,
    () => alive,
  );
  const owner = recorder(["tap"]);
  const taker = recorder([]);
  const ownerRelay = startRelay(address, telegram, owner.handler, { handshakeMs: 1_500, ...options });
  await vi.waitFor(() => expect(ownerRelay.role).toBe("follower"));
  const takerRelay = startRelay(address, telegram, taker.handler, { handshakeMs: 100, ...options });
  await vi.waitFor(() => expect(takerRelay.role).toBe("follower"));

  alive = false;
  for (const peer of old.peers) peer.socket.destroy();
  // Both survivors connected to the dying socket and are stuck in a handshake with it.
  await vi.waitFor(() => expect(old.peers.length).toBeGreaterThanOrEqual(6));
  fs.rmSync(address);
  old.server.close();
  await vi.waitFor(() => expect(takerRelay.role).toBe("leader"), { timeout: 2_000 });
  expect(ownerRelay.role).toBe("electing");
  return { address, telegram, owner, taker, ownerRelay, takerRelay, old };
}

describe("a leader change while a follower re-connects", () => {
  it("a tap for a survivor that is still re-connecting waits for it and is handled by it, not answered as stale", async () => {
    const { telegram, owner, taker, ownerRelay, old } = await takeOverWhileOwnerReconnects();
    telegram.push("tap");
    await vi.waitFor(() => expect(telegram.offsets.at(-1)).toBe(2)); // the poll loop went on
    await vi.waitFor(() => expect(ownerRelay.role).toBe("follower"), { timeout: 3_000 });
    await vi.waitFor(() => expect(owner.claimed).toEqual(["tap"]));
    expect(taker.unclaimed).toEqual([]);
    expect(taker.unanswered).toEqual([]);
    await old.close();
  });

  it("what nobody claims is still answered as unclaimed once the window closes, and only once", async () => {
    const { telegram, owner, taker, ownerRelay, old } = await takeOverWhileOwnerReconnects({ takeoverGraceMs: 2_000 });
    telegram.push("stale");
    telegram.push("tap");
    await vi.waitFor(() => expect(ownerRelay.role).toBe("follower"), { timeout: 3_000 });
    await vi.waitFor(() => expect(owner.claimed).toEqual(["tap"]));
    expect(taker.unclaimed).toEqual([]); // still held: the window is open
    await vi.waitFor(() => expect(taker.unclaimed).toEqual(["stale"]), { timeout: 3_000 });
    expect(owner.unclaimed).toEqual([]);
    expect(taker.unanswered).toEqual([]);
    await old.close();
  });

  it('a held update that a re-connected follower lets go unanswered is answered "tap again" when the window closes', async () => {
    const { address, telegram, taker, old } = await takeOverWhileOwnerReconnects({ takeoverGraceMs: 1_000 });
    telegram.push("stale");
    await vi.waitFor(() => expect(telegram.offsets.at(-1)).toBe(2));
    // A process that proves itself and then never answers an offer.
    const silentOffers: number[] = [];
    const silent = await connectAuthenticated(address, KEY, (frame) => void (frame.t === "offer" && silentOffers.push(frame.update.update_id)));
    await vi.waitFor(() => expect(silentOffers).toEqual([1]));
    await vi.waitFor(() => expect(taker.unanswered).toEqual(["stale"]), { timeout: 3_000 });
    expect(taker.unclaimed).toEqual([]);
    silent.socket.destroy();
    await old.close();
  });

  it("a leader that did not take over from another (a first start) does not hold anything", async () => {
    const address = socketPath();
    const telegram = new QueueTelegram();
    const leader = recorder([]);
    const relay = startRelay(address, telegram, leader.handler, { takeoverGraceMs: 60_000 });
    await vi.waitFor(() => expect(relay.role).toBe("leader"));
    telegram.push("stale");
    await vi.waitFor(() => expect(leader.unclaimed).toEqual(["stale"]));
  });

  it("strangers' updates are not held: the handler says which are worth holding", async () => {
    const { telegram, taker, old } = await takeOverWhileOwnerReconnects({ takeoverGraceMs: 60_000 });
    taker.handler.worthHolding = (update) => (update as { tag: string }).tag !== "stranger";
    telegram.push("stranger");
    await vi.waitFor(() => expect(taker.unclaimed).toEqual(["stranger"]));
    await old.close();
  });
});

describe("what the Bridge asks a new leader to hold", () => {
  const tap = (from: number, chat = CHAT) => ({
    update_id: 1,
    callback_query: { id: "q", from: { id: from }, data: "h1:ZZZZZZZZ:o:0:0", message: { message_id: 5, chat: { id: chat, type: "private" } } },
  });
  const text = (from: number, body: string, chat = CHAT) => ({
    update_id: 2,
    message: { message_id: 6, from: { id: from }, chat: { id: chat, type: "private" }, text: body },
  });

  it("the owner's taps, replies and commands in the configured chat; nothing from strangers or other chats", () => {
    const { bridge } = setup();
    expect(bridge.worthHolding(tap(OWNER))).toBe(true);
    expect(bridge.worthHolding(text(OWNER, "an answer"))).toBe(true);
    expect(bridge.worthHolding(text(OWNER, "/status"))).toBe(true);
    expect(bridge.worthHolding(tap(666, 666))).toBe(false); // a stranger, in their own chat with the bot
    expect(bridge.worthHolding(text(666, "/start", -200))).toBe(false);
    expect(bridge.worthHolding(tap(OWNER, -100))).toBe(false);
    expect(bridge.worthHolding({ update_id: 3, edited_message: {} })).toBe(false);
  });

  it("in a group, only the allowed users'", () => {
    const { bridge } = setup({ allowedUsers: [OWNER] });
    expect(bridge.worthHolding(tap(OWNER))).toBe(true);
    expect(bridge.worthHolding(tap(4242))).toBe(false);
  });
});

describe("ParkingLot", () => {
  const update = (id: number, text = ""): Update => ({ update_id: id, text });

  function lot(limits: { maxCount?: number; maxBytes?: number } = {}) {
    const released: Array<[number, boolean]> = [];
    const parking = new ParkingLot({
      maxCount: limits.maxCount ?? 10,
      maxBytes: limits.maxBytes ?? 10_000,
      release: (parked, unanswered) => void released.push([parked.update_id, unanswered]),
    });
    return { parking, released };
  }

  it("parks only while open, and releases what nobody claimed, in order, when the window closes", () => {
    vi.useFakeTimers();
    const { parking, released } = lot();
    expect(parking.park(update(1), false)).toBe(false);
    parking.open(1_000);
    expect(parking.park(update(2), false)).toBe(true);
    expect(parking.park(update(3), true)).toBe(true);
    vi.advanceTimersByTime(999);
    expect(released).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(released).toEqual([
      [2, false],
      [3, true],
    ]);
    expect(parking.size).toBe(0);
    expect(parking.park(update(4), false)).toBe(false);
  });

  it("is bounded by count and by bytes: what doesn't fit is refused (handled at once)", () => {
    vi.useFakeTimers();
    const counted = lot({ maxCount: 2 }).parking;
    counted.open(1_000);
    expect([1, 2, 3].map((id) => counted.park(update(id), false))).toEqual([true, true, false]);
    const sized = lot({ maxBytes: 120 }).parking; // each update is 85 bytes of JSON, the last 26
    sized.open(1_000);
    expect(sized.park(update(1, "x".repeat(60)), false)).toBe(true);
    expect(sized.park(update(2, "x".repeat(60)), false)).toBe(false);
    expect(sized.park(update(3, "x"), false)).toBe(true);
  });

  it("a follower's claim takes an update out (once); a decline leaves it parked", async () => {
    vi.useFakeTimers();
    const { parking, released } = lot();
    parking.open(1_000);
    parking.park(update(1), false);
    parking.park(update(2), false);
    const takes: boolean[] = [];
    const claimsOne: Offer = async (offered, take) => {
      if (offered.update_id !== 1) return false;
      const ok = take();
      takes.push(ok);
      return ok;
    };
    parking.offerAll(claimsOne);
    parking.offerAll(claimsOne); // a second follower claiming the same update is refused
    await vi.advanceTimersByTimeAsync(0);
    expect(takes).toEqual([true]);
    expect(parking.size).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(released).toEqual([[2, false]]);
  });

  it("an offer still in flight when the window closes is waited for: a late claim wins, a silence counts as unanswered", async () => {
    vi.useFakeTimers();
    const { parking, released } = lot();
    parking.open(1_000);
    parking.park(update(1), false);
    parking.park(update(2), false);
    const answers: Array<(answer: boolean | undefined) => void> = [];
    const takes: Array<() => boolean> = [];
    parking.offerAll(
      (_offered, take) =>
        new Promise((resolve) => {
          answers.push(resolve);
          takes.push(take);
        }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(released).toEqual([]);
    expect(takes[0]!()).toBe(true);
    answers[0]!(true);
    answers[1]!(undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toEqual([[2, true]]);
    expect(takes[1]!()).toBe(false); // released: a claim after that is refused
  });

  it("clear() forgets everything without releasing it", async () => {
    vi.useFakeTimers();
    const { parking, released } = lot();
    parking.open(1_000);
    parking.park(update(1), false);
    parking.clear();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(released).toEqual([]);
    expect(parking.park(update(2), false)).toBe(false);
  });
});
