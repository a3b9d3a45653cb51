// What a busy supergroup must not hold back (issue 50), on the real OpenCode 1.18.33: after a
// minute in which the person's commands filled most of the group's twenty messages, the agent's
// telegram_send_file still returns at once (its upload is awaited traffic, lib/telegram/wire/outbox.ts,
// ahead of edits, chores and spare progress), and Telegram never has to refuse a message.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const TOOL = "telegram_send_file";
/** A real 1×1 PNG. */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
/** Commands whose answers fill the window: more than a deferrable message leaves room for (15), fewer than an awaited one's (19). */
const BUSY = 16;

describe("a busy supergroup on OpenCode 1.18.33", { timeout: 180_000 }, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("1.18.33", { HERMES_DONE_AFTER: "1h" }, undefined, { chat: "supergroup" });
    fs.writeFileSync(path.join(rig.opencode.directory, "shot.png"), PNG);
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("after a busy minute the agent's telegram_send_file of a small PNG returns within seconds (it waited over 20 s)", async () => {
    const session = await rig.opencode.createSession();
    const answered = () => rig.telegram.messages(rig.chatId).filter((m) => m.replyToMessageId !== undefined).length;
    for (let i = 0; i < BUSY; i++) rig.telegram.sendText(rig.chatId, "/status", { from: DEFAULT_USER });
    await pollUntil(() => rig.telegram.calls.filter((c) => c.method === "sendMessage").length >= BUSY, { timeoutMs: 60_000, what: "the commands' answers" });
    const busy = answered();
    const seen = rig.llm.toolResults.length;
    const started = Date.now();
    await rig.opencode.prompt(session.id, directive({ tool: TOOL, args: { path: "shot.png" }, then: [{ text: "done" }] }));
    await pollUntil(() => rig.llm.toolResults.length > seen, { timeoutMs: 90_000, what: `the result of ${TOOL}` });
    const took = Date.now() - started;
    expect(rig.llm.toolResults[seen]!.content).toContain("Sent shot.png");
    const photo = rig.telegram.messages(rig.chatId).find((m) => m.photo !== undefined);
    expect(photo?.photo?.data.equals(PNG)).toBe(true);
    console.log(`[issue 50] ${BUSY} commands answered (${busy} replies), then telegram_send_file returned in ${took} ms`);
    // Before: the upload was a chore (a group's last five slots left, so it waited for the commands' answers to leave the window).
    expect(took).toBeLessThan(15_000);
    expect(rig.telegram.flood.rejected).toBe(0);
  });
});
