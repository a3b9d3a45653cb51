// /model and /agent end to end on the real OpenCode: with two models configured, choosing the second
// on the phone makes the next prompts from the phone (a /new, a reply) name it in their request to
// the LLM, until /model default; /agent plan makes them run as the plan agent (its configured prompt
// is in the request); a stranger's /model or tap changes nothing; /status shows the choice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const PLAN_MARKER = "PLAN-AGENT-PROMPT-7Q";

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("/model and /agent on OpenCode %s", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "1s" }, undefined, {
      extraModels: ["mock-model-2"],
      extraConfig: { agent: { plan: { prompt: PLAN_MARKER } } },
    });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const requestWith = (needle: string) =>
    pollUntil(() => rig.llm.requests.find((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes(needle)), {
      timeoutMs: 30_000,
      what: `an LLM request with ${needle}`,
    });
  const answerTo = (messageId: number, what: string) => rig.telegram.waitForMessage((m) => m.replyToMessageId === messageId, { timeoutMs: 20_000, what });

  it("choosing the second model: the next /new and a reply name it; /model default goes back; a stranger's tap changes nothing", async () => {
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/model");
    const picker = await answerTo(command.messageId, "the model picker");
    const labels = rig.telegram.buttons(picker).map((button) => button.text);
    expect(labels).toContain("mock/mock-model-2");
    expect(labels).toContain("✅ ↺ OpenCode's default");
    for (const button of rig.telegram.buttons(picker)) expect(Buffer.byteLength(button.callback_data ?? "")).toBeLessThanOrEqual(64);

    const refused = await rig.telegram.tapButton(picker, "mock/mock-model-2", STRANGER);
    expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });

    const tap = await rig.telegram.tapButton(picker, "mock/mock-model-2");
    expect(await rig.telegram.waitForCallbackAnswer(tap)).toMatchObject({ text: "Now: mock/mock-model-2" });
    await rig.telegram.waitFor(
      () => rig.telegram.buttons(rig.telegram.messages().find((m) => m.messageId === picker.messageId)!).some((b) => b.text === "✅ mock/mock-model-2"),
      {
        what: "the picker marking the choice",
      },
    );

    const started = rig.telegram.sendText(DEFAULT_CHAT_ID, "/new model-check-M1");
    expect((await requestWith("model-check-M1")).model).toBe("mock-model-2");
    const running = await rig.telegram.waitForMessage((m) => m.messageId > started.messageId && /Running|<b>Done<\/b>/.test(m.text), {
      timeoutMs: 20_000,
      what: "the run's progress message or Done notice",
    });
    rig.telegram.sendText(DEFAULT_CHAT_ID, "model-check-M2", { replyTo: running.messageId });
    expect((await requestWith("model-check-M2")).model).toBe("mock-model-2");

    const status = rig.telegram.sendText(DEFAULT_CHAT_ID, "/status");
    expect((await answerTo(status.messageId, "/status")).text).toContain("<code>mock/mock-model-2</code>");

    const reset = rig.telegram.sendText(DEFAULT_CHAT_ID, "/model default");
    expect((await answerTo(reset.messageId, "the reset")).text).toContain("OpenCode's default");
    rig.telegram.sendText(DEFAULT_CHAT_ID, "/new model-check-M3");
    expect((await requestWith("model-check-M3")).model).toBe("mock-model");
  });

  it("a stranger's /model changes nothing and gets no answer", async () => {
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/model mock-model-2", { from: STRANGER });
    await sleep(1_500);
    expect(rig.telegram.messages().filter((m) => m.replyToMessageId === command.messageId)).toEqual([]);
    rig.telegram.sendText(DEFAULT_CHAT_ID, "/new model-check-M4");
    expect((await requestWith("model-check-M4")).model).toBe("mock-model");
  });

  it("/agent plan: the next prompt from the phone runs as the plan agent", async () => {
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/agent plan");
    expect((await answerTo(command.messageId, "the agent answer")).text).toContain("<code>plan</code>");
    rig.telegram.sendText(DEFAULT_CHAT_ID, "/new agent-check-A1");
    expect(JSON.stringify((await requestWith("agent-check-A1")).messages)).toContain(PLAN_MARKER);
    const reset = rig.telegram.sendText(DEFAULT_CHAT_ID, "/agent default");
    await answerTo(reset.messageId, "the reset");
    rig.telegram.sendText(DEFAULT_CHAT_ID, "/new agent-check-A2");
    expect(JSON.stringify((await requestWith("agent-check-A2")).messages)).not.toContain(PLAN_MARKER);
  });
});
