// /new from the phone, end to end on the real OpenCode: the text starts a session nobody else
// created, in the one project Hermes serves, and a reply to the phone's message continues it; with
// two projects the picker names both and the chosen one gets the session; a stranger's /new or tap
// changes nothing.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, type SentMessage } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { isOpencode2, OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("/new on OpenCode %s", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "1s" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  /** The session calls (not OpenCode's title requests) whose messages contain `needle`. */
  const requestsWith = (needle: string) => rig.llm.requests.filter((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes(needle));
  const requestWith = (needle: string) => pollUntil(() => requestsWith(needle)[0], { timeoutMs: 30_000, what: `an LLM request with ${needle}` });
  const userTexts = (request: any) => JSON.stringify((request.messages ?? []).filter((m: any) => m.role === "user"));

  it("/new <text> with one project: a session nobody else created gets the text, and a reply to the phone's message continues it", async () => {
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/new first-instruction-N1");
    const first = await requestWith("first-instruction-N1");
    // A fresh session: the instruction is its only user message.
    expect((first.messages ?? []).filter((m: any) => m.role === "user")).toHaveLength(1);
    const running = await rig.telegram.waitForMessage((m) => m.messageId > command.messageId && /Running|<b>Done<\/b>/.test(m.text), {
      timeoutMs: 20_000,
      what: "the new session's progress message or Done notice",
    });
    rig.telegram.sendText(DEFAULT_CHAT_ID, "follow-up-N2", { replyTo: running.messageId });
    const second = await requestWith("follow-up-N2");
    expect(userTexts(second)).toContain("first-instruction-N1"); // the same session: its history is there
    expect(rig.telegram.messages().filter((m) => m.text.includes("Not sent") || m.text.includes("Could not"))).toEqual([]);
  });

  it("/new without text asks for the instruction (force reply), and the reply starts the session", async () => {
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/new");
    const ask = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && m.text.includes("What should the new session"), {
      what: "the request for the instruction",
    });
    expect(ask.replyMarkup).toMatchObject({ force_reply: true });
    rig.telegram.sendText(DEFAULT_CHAT_ID, "asked-instruction-N3", { replyTo: ask.messageId });
    const request = await requestWith("asked-instruction-N3");
    expect((request.messages ?? []).filter((m: any) => m.role === "user")).toHaveLength(1);
  });

  it("a stranger's /new starts nothing and gets no answer", async () => {
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, "/new stranger-instruction-N4", { from: STRANGER });
    await sleep(1_500);
    expect(requestsWith("stranger-instruction-N4")).toEqual([]);
    expect(rig.telegram.messages().filter((m) => m.replyToMessageId === command.messageId)).toEqual([]);
  });

  it("two projects: a picker names both, a stranger's tap changes nothing, and the chosen project gets the session", async () => {
    const second = await rig.opencode.addProject("zweites-projekt");
    // Its instance (and Hermes in it) starts on its first request; OpenCode 2 starts a location's plugins when they are listed.
    if (isOpencode2(version)) await rig.opencode.request("GET", `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(second)}`);
    else await rig.opencode.createSession({ directory: second });
    await pollUntil(() => fs.readFileSync(rig.logFile, "utf8").includes(JSON.stringify(second)), { timeoutMs: 20_000, what: "Hermes in the second project" });
    const picked = "picked-instruction-N5";
    const command = rig.telegram.sendText(DEFAULT_CHAT_ID, `/new ${picked}`);
    const picker: SentMessage = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && rig.telegram.buttons(m).length === 4, {
      // Two projects, each with 📁 and 🌿 (a new worktree of it, docs/git.md).
      timeoutMs: 20_000,
      what: "the project picker",
    });
    const labels = rig.telegram.buttons(picker).map((b) => b.text);
    expect(labels.some((label) => label.includes("zweites-projekt"))).toBe(true);
    expect(labels.some((label) => label.includes(rig.opencode.directory.split("/").pop()!))).toBe(true);
    for (const button of rig.telegram.buttons(picker)) expect(Buffer.byteLength(button.callback_data ?? "")).toBeLessThanOrEqual(64);
    const label = labels.find((text) => text.includes("zweites-projekt"))!;

    const refused = await rig.telegram.tapButton(picker, label, STRANGER);
    expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    await sleep(1_000);
    expect(requestsWith(picked)).toEqual([]);

    const tap = await rig.telegram.tapButton(picker, label);
    await rig.telegram.waitForCallbackAnswer(tap);
    const request = await requestWith(picked);
    expect(JSON.stringify(request)).toContain(second);
    // The run's progress message or (a run that ended before it had something to show) its Done
    // notice, naming the chosen project.
    await rig.telegram.waitForMessage((m) => m.messageId > command.messageId && /Running|<b>Done<\/b>/.test(m.text) && m.text.includes("zweites-projekt"), {
      timeoutMs: 20_000,
      what: "the run's progress message or Done notice in zweites-projekt",
    });
  });
});
