// A stalled run says so (issue 51), end to end on the real OpenCode with the scripted LLM and the
// fake Telegram, HERMES_STALL_AFTER=15s, one OpenCode per version and chat kind: a shell command
// sleeping past 15 s raises one alert naming it (Stop, Keep waiting), Keep waiting silences it, Stop
// aborts the run; a stranger's taps change nothing; a run waiting on a question on the phone
// raises none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { colorQuestion } from "../support/fixtures.ts";
import { directive } from "../support/mock-llm.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import type { Cell } from "./matrix.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };

export function stallSuite(here: Cell): void {
  const { version, chat } = here;
  describe(`a stalled run on OpenCode ${version} in a ${chat} chat`, () => {
    const tools = toolsOf(version);
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, { HERMES_STALL_AFTER: "15s" }, undefined, { chat });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const labels = (message: SentMessage) => rig.telegram.buttons(current(message)).map((b) => b.text);
    const alertsFor = (marker: string) => rig.telegram.messages().filter((m) => m.text.includes("No progress for") && m.text.includes(marker));
    const alertFor = (marker: string) =>
      rig.telegram.waitForMessage((m) => m.text.includes("No progress for") && m.text.includes(marker), {
        timeoutMs: 60_000,
        what: `the stall alert of ${marker}`,
      });
    const idle = (sessionID: string, timeoutMs = 60_000) =>
      pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs, intervalMs: 200, what: "the run over" });

    it("a command sleeping past 15 s: one alert naming it, Keep waiting silences it", async () => {
      const session = await rig.opencode.createSession();
      const started = Date.now();
      await rig.opencode.prompt(session.id, directive({ ...tools.shell("sleep 26"), then: [{ text: "slept" }] }));
      const alert = await alertFor("sleep 26");
      expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
      expect(alert.text).toMatch(/No progress for 1\d s<\/b> · (bash|shell) <code>sleep 26<\/code> running for 1\d s/);
      expect(labels(alert)).toEqual(["⏹ Stop", "⏳ Keep waiting"]);
      const refused = await rig.telegram.tapButton(alert, "⏳ Keep waiting", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(labels(alert)).toEqual(["⏹ Stop", "⏳ Keep waiting"]);
      const tap = await rig.telegram.tapButton(alert, "⏳ Keep waiting");
      expect(await rig.telegram.waitForCallbackAnswer(tap)).toMatchObject({ text: "No alert for another window" });
      await rig.telegram.waitFor(() => current(alert).text.includes("no other alert for 15 s"), { timeoutMs: 30_000, what: "Keep waiting on the alert" });
      expect(labels(alert)).toEqual([]);
      await idle(session.id);
      expect(alertsFor("sleep 26")).toHaveLength(1);
    }, 180_000);

    it("Stop on the alert aborts the run; a stranger's Stop does not", async () => {
      const session = await rig.opencode.createSession();
      await rig.opencode.prompt(session.id, directive({ ...tools.shell("sleep 120"), then: [{ text: "never" }] }));
      const alert = await alertFor("sleep 120");
      const refused = await rig.telegram.tapButton(alert, "⏹ Stop", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      await sleep(500);
      expect(await rig.opencode.isBusy(session.id)).toBe(true);
      const tap = await rig.telegram.tapButton(alert, "⏹ Stop");
      expect(await rig.telegram.waitForCallbackAnswer(tap)).toMatchObject({ text: "Stopping" });
      await idle(session.id, 30_000);
      await rig.telegram.waitFor(() => current(alert).text.includes("Stopped"), { timeoutMs: 30_000, what: "Stopped on the alert" });
      expect(labels(alert)).toEqual([]);
      expect(alertsFor("sleep 120")).toHaveLength(1);
    }, 180_000);

    it("a run waiting on a question on the phone raises none", async () => {
      const { sessionID, message } = await askOnPhone(rig, [colorQuestion()], `stall-${chat}`);
      const before = rig.telegram.messages().filter((m) => m.text.includes("No progress for")).length;
      await sleep(22_000);
      expect(rig.telegram.messages().filter((m) => m.text.includes("No progress for"))).toHaveLength(before);
      await rig.telegram.tapButton(message, "Red");
      await idle(sessionID);
      expect(rig.telegram.messages().filter((m) => m.text.includes("No progress for"))).toHaveLength(before);
    }, 180_000);
  });
}
