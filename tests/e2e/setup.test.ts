// Configuration end to end on the real OpenCode: a bad config leaves OpenCode untouched (one log
// line, a toast), and a token alone answers /start with the chat id. The packed package, loaded
// by name, is in tests/e2e/by-name.test.ts.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../support/event-stream.ts";
import { DEFAULT_CHAT_ID, DEFAULT_USER } from "../support/fake-telegram.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe("a bad configuration leaves OpenCode working and says so once", () => {
  let rig: Rig;
  beforeAll(async () => {
    // No warm-up: the recorder's own request starts the instance, so it can't miss the toast.
    rig = await startRig("1.18.33", { HERMES_TELEGRAM_CHAT_ID: "my-chat" }, undefined, { warmup: false });
  }, 120_000);
  afterAll(() => rig?.stop());

  it("logs one clear line, shows a toast, never calls Telegram, and questions still work in OpenCode", async () => {
    const stream = await recordEvents(rig.opencode.url, rig.opencode.directory);
    try {
      const session = await rig.opencode.createSession();
      await rig.opencode.prompt(session.id, `HERMES_TEST ${JSON.stringify({ tool: "question", args: { questions: [color] } })}`);
      const pending = await rig.opencode.waitForQuestion({ timeoutMs: 30_000 });
      expect((await rig.opencode.request("POST", `/question/${pending.id}/reply`, { body: { answers: [["Red"]] } })).status).toBe(200);
      await rig.llm.waitForToolResult((r) => r.content.includes('"Red"'), { what: "tool result" });

      const toast = await pollUntil(() => stream.events.find((e) => e.type === "tui.toast.show"), { what: "toast", timeoutMs: 15_000 });
      expect(toast.properties.message).toContain("HERMES_TELEGRAM_CHAT_ID must be a numeric chat id");
      const lines = fs
        .readFileSync(rig.logFile, "utf8")
        .trim()
        .split("\n")
        .filter((line) => line.includes("Hermes is off"));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!).level).toBe(50);
      expect(rig.telegram.calls).toHaveLength(0);
      expect(rig.opencode.logs()).not.toMatch(/Hermes is off/);
    } finally {
      stream.close();
    }
  });
});

describe("a group chat without an allow-list: Hermes stays off instead of letting every member approve", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("1.18.33", { HERMES_TELEGRAM_CHAT_ID: "-1001234567890", HERMES_TELEGRAM_ALLOWED_USERS: "" }, undefined, { warmup: false });
  }, 120_000);
  afterAll(() => rig?.stop());

  it("logs one line, shows a toast naming the fix, and never calls Telegram", async () => {
    const stream = await recordEvents(rig.opencode.url, rig.opencode.directory);
    try {
      const toast = await pollUntil(() => stream.events.find((e) => e.type === "tui.toast.show"), { what: "toast", timeoutMs: 15_000 });
      expect(toast.properties.message).toContain("HERMES_TELEGRAM_ALLOWED_USERS is required for a group chat");
      expect(toast.properties.message).toContain('"anyone"');
      const lines = fs
        .readFileSync(rig.logFile, "utf8")
        .trim()
        .split("\n")
        .filter((line) => line.includes("Hermes is off"));
      expect(lines).toHaveLength(1);
      expect(rig.telegram.calls).toHaveLength(0);
    } finally {
      stream.close();
    }
  });
});

describe("with only a token, /start tells the user their chat id", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("1.18.33", { HERMES_TELEGRAM_CHAT_ID: "" });
  }, 120_000);
  afterAll(() => rig?.stop());

  it("replies to /start with the chat id and the line to set", async () => {
    rig.telegram.sendText(DEFAULT_CHAT_ID, "/start", { from: DEFAULT_USER });
    const reply = await rig.telegram.waitForMessage((m) => m.text.includes("HERMES_TELEGRAM_CHAT_ID="), { timeoutMs: 20_000, what: "/start reply" });
    expect(reply.text).toContain(`<code>${DEFAULT_CHAT_ID}</code>`);
    expect(reply.chatId).toBe(DEFAULT_CHAT_ID);
  });
});
