import { describe, expect, it } from "vitest";
import { Pacer, TELEGRAM_LIMITS } from "../../lib/telegram/pacer.ts";

const limits = { ...TELEGRAM_LIMITS, privateBurst: 3, groupBurst: 2, globalPerSecond: 5, globalBurst: 5 };

/** Sends to `chatId` as fast as the pacer allows, returning the send times. */
function drain(pacer: Pacer, chatId: number, count: number, start = 0): number[] {
  const times: number[] = [];
  let now = start;
  for (let i = 0; i < count; i++) {
    now = pacer.readyAt(chatId, now);
    pacer.take(chatId, now);
    times.push(now);
  }
  return times;
}

describe("Pacer", () => {
  it("lets a private chat burst, then one message a second", () => {
    expect(drain(new Pacer(limits, 0), 1, 6)).toEqual([0, 0, 0, 1000, 2000, 3000]);
  });

  it("paces groups at twenty a minute after a small burst", () => {
    expect(drain(new Pacer(limits, 0), -100, 4)).toEqual([0, 0, 3000, 6000]);
  });

  it("caps all chats together under the global rate", () => {
    const pacer = new Pacer(limits, 0);
    let now = 0;
    const times = [1, 2, 3, 4, 5, 6, 7].map((chat) => {
      now = pacer.readyAt(chat, now);
      pacer.take(chat, now);
      return now;
    });
    expect(times.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(times[5]).toBe(200);
    expect(times[6]).toBe(400);
  });

  it("refills while idle, but never beyond the burst", () => {
    const pacer = new Pacer(limits, 0);
    drain(pacer, 1, 3);
    expect(drain(pacer, 1, 4, 60_000)).toEqual([60_000, 60_000, 60_000, 61_000]);
  });

  it("a 429 blocks the chat for exactly retry_after, other chats go on", () => {
    const pacer = new Pacer(limits, 0);
    pacer.block(1, 7, 500);
    expect(pacer.readyAt(1, 500)).toBe(7_500);
    expect(pacer.readyAt(2, 500)).toBe(500);
  });
});
