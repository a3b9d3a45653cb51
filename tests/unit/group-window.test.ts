// The group window the busy-group e2e test and the awaited bench row read back from the fake
// Telegram's record (tests/support/telegram/group-window.ts): which calls count, what the window
// holds at a moment, and when it has room again.
import { describe, expect, it } from "vitest";
import { countedSends, heldAt, roomAgainAt } from "../support/telegram/group-window.ts";
import type { ApiCall } from "../support/telegram/types.ts";

const GROUP = -100123;
const call = (method: string, at: number, status = 200, chatId = GROUP): ApiCall => ({ method, payload: { chat_id: chatId }, at, hrAt: at + 0.5, status });

describe("group window", () => {
  it("counts the messages Telegram let through to that chat: sends, edits and deletions, not reactions, refusals or other chats", () => {
    const calls = [
      call("sendMessage", 30),
      call("editMessageText", 10),
      call("deleteMessage", 20),
      call("setMessageReaction", 40),
      call("sendMessage", 50, 429),
      call("sendMessage", 60, 200, -100999),
      call("getUpdates", 70),
    ];
    expect(countedSends(calls, GROUP)).toEqual([10, 20, 30]);
    expect(countedSends(calls, GROUP, "hrAt")).toEqual([10.5, 20.5, 30.5]);
  });

  it("has room at once while it holds fewer than twenty; a message sent a full window ago has left it", () => {
    const sent = Array.from({ length: 19 }, (_, i) => i * 100);
    expect(heldAt(sent, 5_000)).toBe(19);
    expect(roomAgainAt(sent, 5_000)).toBe(5_000);
    expect(heldAt([0, 100], 60_000)).toBe(1);
  });

  it("a full window has room again when its oldest message leaves, not before", () => {
    const sent = Array.from({ length: 20 }, (_, i) => 1_000 + i * 100);
    expect(roomAgainAt(sent, 5_000)).toBe(61_000);
    // Twenty-two: the third oldest must leave first.
    expect(roomAgainAt([...sent, 4_000, 4_500], 5_000)).toBe(61_200);
    expect(roomAgainAt(sent, 5_000, { limit: 20, windowMs: 6_000 })).toBe(7_000);
  });
});
