// Stop from the phone on OpenCode 2: Hermes interrupts the run through the server's own route
// (`POST /api/session/:id/interrupt`), the question it waited on closes, and the agent does not
// carry on. (The 1.x suite, with the events each version sends, is tests/e2e/stop.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { OPENCODE2_VERSION } from "../support/opencode.ts";
import { sleep } from "../support/wait.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

describe(`stop from the phone on OpenCode ${OPENCODE2_VERSION}`, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(OPENCODE2_VERSION, { HERMES_DONE_AFTER: "1s" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId)!;

  it("Stop on a question: confirmed, the run is interrupted, the question closes, no Failed or Done follows", async () => {
    const { message } = await askOnPhone(
      rig,
      [
        {
          question: "Carry on?",
          header: "Go",
          options: [
            { label: "Yes", description: "" },
            { label: "No", description: "" },
          ],
        },
      ],
      "stop-me-2",
    );
    const before = rig.telegram.messages().length;
    await rig.telegram.tapButton(message, "⏹ Stop");
    const confirm = await rig.telegram.waitFor(
      () =>
        rig.telegram
          .messages()
          .slice(before)
          .find((m) => m.text.includes("Stop this run?") && rig.telegram.buttons(m).length > 0),
      { timeoutMs: 20_000, what: "the confirmation" },
    );
    const llmCalls = rig.llm.requests.filter((r) => JSON.stringify(r.messages ?? []).includes("stop-me-2")).length;
    await rig.telegram.tapButton(confirm, "⏹ Confirm stop");
    await rig.telegram.waitFor(() => current(confirm).text.includes("Run stopped from Telegram") && rig.telegram.buttons(current(confirm)).length === 0, {
      timeoutMs: 20_000,
      what: "Run stopped",
    });
    await rig.telegram.waitFor(() => rig.telegram.buttons(current(message)).length === 0 || undefined, { timeoutMs: 20_000, what: "the question closed" });
    expect(await rig.opencode.pendingQuestions()).toHaveLength(0);
    await sleep(1_500);
    expect(
      rig.telegram
        .messages()
        .slice(before)
        .filter((m) => /<b>(Done|Failed)<\/b>/.test(m.text)),
    ).toEqual([]);
    expect(rig.llm.requests.filter((r) => JSON.stringify(r.messages ?? []).includes("stop-me-2")).length).toBe(llmCalls); // the agent did not carry on
  });
});
