// A bad optional value and a misspelled variable in the real OpenCode 1.18.33 (issue 50): Hermes
// stays on and uses the defaults, and says which setting it ignored and why once: one message on
// the phone, one toast, one log line; a question asked after it is bridged as usual.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../support/event-stream.ts";
import { pollUntil } from "../support/wait.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe("a bad optional value and a misspelled variable (OpenCode 1.18.33)", () => {
  let rig: Rig;
  beforeAll(async () => {
    // No warm-up: the recorder's own request starts the instance, so it can't miss the toast.
    rig = await startRig("1.18.33", { HERMES_STREAM: "maybe", HERMES_RUN_BUDJET: "2", HERMES_LOG_LEVEL: "info" }, undefined, { warmup: false });
  }, 180_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("keeps Hermes on, and names both once on the phone, in a toast and in the log", async () => {
    const stream = await recordEvents(rig.opencode.url, rig.opencode.directory);
    try {
      const toast = await pollUntil(() => stream.events.find((e) => e.type === "tui.toast.show"), { what: "toast", timeoutMs: 30_000 });
      expect(toast.properties.message).toContain('HERMES_STREAM must be on or off (got "maybe"): its default is used');
      expect(toast.properties.message).toContain("HERMES_RUN_BUDJET is not a Hermes setting and is ignored: did you mean HERMES_RUN_BUDGET?");
    } finally {
      stream.close();
    }
    const notice = await rig.telegram.waitForMessage((m) => m.text.includes("HERMES_STREAM"), { what: "the ignored settings on the phone", timeoutMs: 30_000 });
    expect(notice.text).toContain("did you mean HERMES_RUN_BUDGET?");

    // Hermes is on: a question comes and a tap answers it.
    const { message } = await askOnPhone(rig, [color], "ignored-on");
    await rig.telegram.tapButton(message, "Red");
    const result = await rig.llm.waitForToolResult((r) => r.content.includes("ignored-on"), { what: "tool result" });
    expect(result.content).toContain("Red");

    // Once: later sessions and prompts say nothing again.
    const { message: again } = await askOnPhone(rig, [color], "ignored-again");
    expect(again.text).toContain("ignored-again");
    expect(rig.telegram.messages().filter((m) => m.text.includes("HERMES_STREAM"))).toHaveLength(1);
    const lines = fs
      .readFileSync(rig.logFile, "utf8")
      .trim()
      .split("\n")
      .filter((line) => line.includes("Hermes ignored settings"));
    expect(lines).toHaveLength(1);
    expect(fs.readFileSync(rig.logFile, "utf8")).not.toContain("Hermes is off");
  });
});
