// /sessions end to end on the real OpenCode: the recent sessions as buttons; picking one posts its
// last answer (its Markdown rendered), and a reply to that message continues the session; a
// stranger's tap changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("/sessions on OpenCode %s", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "1h" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("lists the session; the pick shows its last answer, and a reply continues it; a stranger's tap changes nothing", async () => {
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, directive({ text: "the **final** answer <i>raw</i> SESS-MARK-1" }));
    await pollUntil(() => rig.llm.requests.some((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes("SESS-MARK-1")), {
      timeoutMs: 30_000,
      what: "the run",
    });
    await pollUntil(async () => !(await rig.opencode.isBusy(session.id)), { timeoutMs: 30_000, what: "the run's end" });

    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/sessions");
    const picker = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && rig.telegram.buttons(m).length > 0, {
      timeoutMs: 20_000,
      what: "the session list",
    });
    const label = rig.telegram
      .buttons(picker)
      .map((b) => b.text)
      .find((text) => text.includes("project"))!;
    expect(label).toMatch(/^⚪ project · /);
    for (const button of rig.telegram.buttons(picker)) expect(Buffer.byteLength(button.callback_data ?? "")).toBeLessThanOrEqual(64);

    const refused = await rig.telegram.tapButton(picker, label, STRANGER);
    expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });

    const before = rig.telegram.messages().length;
    await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(picker, label));
    const shown = await rig.telegram.waitForMessage((m) => m.text.includes("SESS-MARK-1") && rig.telegram.messages().indexOf(m) >= before, {
      timeoutMs: 20_000,
      what: "the last answer",
    });
    // Rendered as every answer is (issue 21's Markdown): bold is bold, the agent's own HTML is text.
    expect(shown.text).toContain("<b>final</b>");
    expect(shown.text).not.toContain("<i>raw</i>");
    rig.telegram.sendText(DEFAULT_CHAT_ID, "continue-S2", { replyTo: shown.messageId });
    const next = await pollUntil(() => rig.llm.requests.find((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes("continue-S2")), {
      timeoutMs: 30_000,
      what: "the reply at the LLM",
    });
    expect(JSON.stringify(next.messages)).toContain("SESS-MARK-1"); // the same session
  });
});
