// HERMES_DESK_DELAY end to end (issue 51) on the real OpenCode with the scripted LLM and the fake
// Telegram: after a prompt sent over OpenCode's HTTP API (the desk), a question does not reach the
// phone within 15 s, and never does when it is answered over HTTP meanwhile; the next question
// waits too (that answer was a sign of the desk); a stranger's /away changes nothing; /away sends
// it at once, and the question after it is immediate.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { colorQuestion } from "../support/fixtures.ts";
import { directive } from "../support/mock-llm.ts";
import type { Cell } from "./matrix.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function deskDelaySuite(here: Cell): void {
  const { version, chat } = here;
  describe(`HERMES_DESK_DELAY on OpenCode ${version} in a ${chat} chat`, () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, { HERMES_DESK_DELAY: "20s" }, undefined, { chat });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    const ask = (marker: string) => ({ tool: "question", args: { questions: [{ ...colorQuestion(), question: `Which color? [${marker}]` }] } });
    const onPhone = (marker: string) => rig.telegram.messages().filter((m) => m.text.includes(`[${marker}]`));

    it("a question after a prompt from the desk waits, never comes when answered there; /away makes the next one immediate", async () => {
      const session = await rig.opencode.createSession();
      await rig.opencode.prompt(session.id, directive({ ...ask("desk-1"), then: [ask("desk-2"), ask("desk-3"), { text: "desk over" }] }));
      const first = await rig.opencode.waitForQuestion({ timeoutMs: 60_000 });
      const askedAt = Date.now();
      await sleep(15_000);
      expect(onPhone("desk-1")).toEqual([]);
      expect(await rig.opencode.answerQuestion(first, [["Red"]])).toBeLessThan(300);

      // The next one waits too: an answer at the desk is a sign of it.
      const second = await rig.opencode.waitForQuestion({ timeoutMs: 60_000, not: [first.id] });
      const refused = rig.telegram.sendText(rig.chatId, "/away", { from: STRANGER });
      await sleep(2_000);
      expect(onPhone("desk-2")).toEqual([]);
      const away = rig.telegram.sendText(rig.chatId, "/away");
      await rig.telegram.waitForMessage((m) => m.replyToMessageId === away.messageId && m.text.includes("Away from the desk"), { what: "/away's answer" });
      const released = await rig.telegram.waitForMessage((m) => m.text.includes("[desk-2]") && rig.telegram.buttons(m).length > 0, {
        timeoutMs: 15_000,
        what: "the waiting question, sent on /away",
      });
      expect(rig.telegram.messages().filter((m) => m.replyToMessageId === refused.messageId)).toEqual([]);
      expect(second.id).not.toBe(first.id);

      // The one after /away is immediate (an answer from the phone is no sign of the desk).
      await rig.telegram.tapButton(released, "Blue");
      const tappedAt = Date.now();
      await rig.telegram.waitForMessage((m) => m.text.includes("[desk-3]") && rig.telegram.buttons(m).length > 0, {
        timeoutMs: chat === "supergroup" ? 60_000 : 30_000,
        what: "the question after /away",
      });
      // Well under the 20 s delay (the model's next step and delivery only; a group's pace may add a few seconds).
      expect(Date.now() - tappedAt).toBeLessThan(15_000);
      // The first question, answered at the desk, never reached the phone (past its 20 s).
      await sleep(Math.max(0, askedAt + 25_000 - Date.now()));
      expect(onPhone("desk-1")).toEqual([]);
    }, 240_000);
  });
}
