import { describe, expect, it } from "vitest";
import { START_REPLY_INTERVAL_MS, StartReplies } from "../../lib/bridge/bot/start-replies.ts";

describe("StartReplies", () => {
  it("answers each chat at most once per interval", () => {
    let now = 0;
    const replies = new StartReplies(() => now);
    expect(replies.mayAnswer(1)).toBe(true);
    expect(replies.mayAnswer(1)).toBe(false);
    expect(replies.mayAnswer(2)).toBe(true);
    now += START_REPLY_INTERVAL_MS - 1;
    expect(replies.mayAnswer(1)).toBe(false);
    now += 1;
    expect(replies.mayAnswer(1)).toBe(true);
  });
});
