import { describe, expect, it } from "vitest";
import { mayAct } from "../../lib/telegram/access.ts";
import type { Sender } from "../../lib/telegram/updates.ts";

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
