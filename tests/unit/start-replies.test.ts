import { describe, expect, it } from "vitest";
import { START_REPLY_INTERVAL_MS, StartReplies } from "../../lib/bridge/start-replies.ts";

const sender = (userId: number, chatId: number) => ({ userId, chatId, chatType: chatId < 0 ? "group" : "private" });

describe("StartReplies", () => {
  it("configured with a private chat: its user anywhere, nobody else", () => {
    const replies = new StartReplies({ chatId: 10, allowedUsers: [] });
    expect(replies.mayAnswer(sender(99, 99))).toBe(false);
    expect(replies.mayAnswer(sender(99, -5))).toBe(false);
    expect(replies.mayAnswer(sender(10, 10))).toBe(true);
    expect(replies.mayAnswer(sender(10, -5))).toBe(true);
  });

  it("configured with a group and an allow-list: only the allowed users", () => {
    const replies = new StartReplies({ chatId: -100, allowedUsers: [7] });
    expect(replies.mayAnswer(sender(8, -100))).toBe(false);
    expect(replies.mayAnswer(sender(7, -100))).toBe(true);
    expect(replies.mayAnswer(sender(7, 7))).toBe(true);
  });

  it("configured with a group without an allow-list: its members, in that group only", () => {
    const replies = new StartReplies({ chatId: -100, allowedUsers: [] });
    expect(replies.mayAnswer(sender(8, -100))).toBe(true);
    expect(replies.mayAnswer(sender(8, 8))).toBe(false);
  });

  it("not configured: anyone, at most once per chat per interval", () => {
    let now = 0;
    const replies = new StartReplies({ chatId: undefined, allowedUsers: [] }, () => now);
    expect(replies.mayAnswer(sender(1, 1))).toBe(true);
    expect(replies.mayAnswer(sender(1, 1))).toBe(false);
    expect(replies.mayAnswer(sender(2, 2))).toBe(true);
    now += START_REPLY_INTERVAL_MS;
    expect(replies.mayAnswer(sender(1, 1))).toBe(true);
  });
});
