import { describe, expect, it } from "vitest";
import { mayAct, mayLearnIds } from "../../lib/telegram/access.ts";
import type { Sender } from "../../lib/telegram/wire/updates.ts";

const sender = (userId: number, chatId: number): Sender => ({ userId, chatId, chatType: chatId < 0 ? "supergroup" : "private" });

describe("mayAct", () => {
  it("lets anyone in the configured chat act when no users are listed", () => {
    const policy = { chatId: -100, allowedUsers: [] };
    expect(mayAct(policy, sender(1, -100))).toBe(true);
    expect(mayAct(policy, sender(2, -100))).toBe(true);
  });

  it("lets the owner of a private chat act", () => {
    expect(mayAct({ chatId: 42, allowedUsers: [] }, sender(42, 42))).toBe(true);
  });

  it("refuses every other chat, even for a listed user", () => {
    const policy = { chatId: -100, allowedUsers: [1] };
    expect(mayAct(policy, sender(1, -101))).toBe(false);
    expect(mayAct(policy, sender(1, 100))).toBe(false);
    expect(mayAct(policy, sender(1, 1))).toBe(false);
    expect(mayAct({ chatId: 42, allowedUsers: [] }, sender(7, 7))).toBe(false);
  });

  it("only lets listed users act when users are listed", () => {
    const policy = { chatId: -100, allowedUsers: [1, 3] };
    expect(mayAct(policy, sender(1, -100))).toBe(true);
    expect(mayAct(policy, sender(3, -100))).toBe(true);
    expect(mayAct(policy, sender(2, -100))).toBe(false);
  });

  it("refuses a sender whose chat is unknown (a callback without message), and anyone before a chat is configured", () => {
    expect(mayAct({ chatId: -100, allowedUsers: [] }, { userId: 1, chatId: undefined, chatType: "" })).toBe(false);
    expect(mayAct({ chatId: undefined, allowedUsers: [] }, { userId: 1, chatId: undefined, chatType: "" })).toBe(false);
    expect(mayAct({ chatId: undefined, allowedUsers: [] }, { userId: 1, chatId: 1, chatType: "private" })).toBe(false);
  });

  it("compares ids exactly", () => {
    const policy = { chatId: -100, allowedUsers: [1] };
    expect(mayAct(policy, sender(-1, -100))).toBe(false);
    expect(mayAct(policy, sender(1, 100))).toBe(false);
    expect(mayAct({ chatId: -100, allowedUsers: [Number.MAX_SAFE_INTEGER] }, sender(Number.MAX_SAFE_INTEGER, -100))).toBe(true);
    expect(mayAct({ chatId: -100, allowedUsers: [Number.MAX_SAFE_INTEGER] }, sender(Number.MAX_SAFE_INTEGER - 1, -100))).toBe(false);
  });
});

describe("mayLearnIds (who gets an answer to /start)", () => {
  it("configured with a private chat: its user anywhere, nobody else", () => {
    const policy = { chatId: 10, allowedUsers: [] };
    expect(mayLearnIds(policy, sender(99, 99))).toBe(false);
    expect(mayLearnIds(policy, sender(99, -5))).toBe(false);
    expect(mayLearnIds(policy, sender(10, 10))).toBe(true);
    expect(mayLearnIds(policy, sender(10, -5))).toBe(true);
  });

  it("configured with a group and an allow-list: only the allowed users", () => {
    const policy = { chatId: -100, allowedUsers: [7] };
    expect(mayLearnIds(policy, sender(8, -100))).toBe(false);
    expect(mayLearnIds(policy, sender(7, -100))).toBe(true);
    expect(mayLearnIds(policy, sender(7, 7))).toBe(true);
  });

  it("configured with a group without an allow-list: its members, in that group only", () => {
    const policy = { chatId: -100, allowedUsers: [] };
    expect(mayLearnIds(policy, sender(8, -100))).toBe(true);
    expect(mayLearnIds(policy, sender(8, 8))).toBe(false);
  });

  it("not configured: anyone", () => {
    expect(mayLearnIds({ chatId: undefined, allowedUsers: [] }, sender(1, 1))).toBe(true);
    expect(mayLearnIds({ chatId: undefined, allowedUsers: [] }, sender(2, -5))).toBe(true);
  });

  it("everyone who may act may also learn their ids", () => {
    const policies = [
      { chatId: 10, allowedUsers: [] },
      { chatId: -100, allowedUsers: [] },
      { chatId: -100, allowedUsers: [7] },
    ];
    const senders = [sender(10, 10), sender(7, -100), sender(8, -100), sender(7, 7), sender(99, 99)];
    for (const policy of policies) for (const who of senders) if (mayAct(policy, who)) expect(mayLearnIds(policy, who)).toBe(true);
  });
});
