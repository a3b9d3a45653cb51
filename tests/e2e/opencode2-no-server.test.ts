// OpenCode 2 gives a plugin no way to answer a form (a question) except HTTP to its own server.
// `opencode serve` without OPENCODE_SERVER_PASSWORD makes a password up and only prints it, so
// Hermes cannot answer there: it says so on the phone and in the log, questions still show (and
// can be answered in the terminal), and permissions, answered in-process, work as usual.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION } from "../support/opencode.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe(`OpenCode ${OPENCODE2_VERSION} serve without a known password`, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(OPENCODE2_VERSION, {}, undefined, { password: false, permission: { shell: "ask" } });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("says on the phone and in the log that questions cannot be answered from Telegram", async () => {
    const notice = await rig.telegram.waitForMessage((m) => m.text.includes("cannot answer OpenCode"), { timeoutMs: 30_000, what: "the notice" });
    expect(notice.text).toContain("OPENCODE_SERVER_PASSWORD");
    expect(fs.readFileSync(rig.logFile, "utf8")).toMatch(/questions cannot be answered from Telegram: .*OPENCODE_SERVER_PASSWORD/);
  });

  it("a question still shows; a tap says why it cannot be sent; the terminal's answer closes it", async () => {
    const { message } = await askOnPhone(rig, [color], "no-server");
    const callback = await rig.telegram.tapButton(message, "Red");
    await rig.telegram.waitForCallbackAnswer(callback); // every tap is answered
    await rig.telegram.waitFor(
      () => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.text.includes("OPENCODE_SERVER_PASSWORD")) ?? undefined,
      { timeoutMs: 30_000, what: "the reason on the question" },
    );
    const [pending] = await rig.opencode.pendingQuestions();
    expect(pending).toBeDefined();
    expect(await rig.opencode.answerQuestion(pending, [["Blue"]])).toBeLessThan(300);
    await rig.telegram.waitFor(() => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.text.includes("Answered in the terminal")), {
      timeoutMs: 30_000,
      what: "answered in the terminal",
    });
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("no-server"), { what: "answer" })).content).toContain("Blue");
  });

  it("permissions still work from the phone", async () => {
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, directive({ tool: "shell", args: { command: "echo still-works" } }));
    const message = await rig.telegram.waitForMessage(
      (m) => m.text.includes("Permission") && m.text.includes("echo still-works") && rig.telegram.buttons(m).length > 0,
      {
        timeoutMs: 60_000,
        what: "permission",
      },
    );
    await rig.telegram.tapButton(message, "Allow once");
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("still-works"), { what: "shell output" })).content.trim()).toBe("still-works");
  });
});
