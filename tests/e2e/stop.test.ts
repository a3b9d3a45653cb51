// Stop from the phone, end to end on the real OpenCode 1.18.33 and 1.1.53: Stop on a question,
// Stop on the progress message of a run the phone started, /stop with a picker. Each needs a confirmation
// tap, aborts through OpenCode's API, shows "Run stopped" and no "Failed" or "Done" follows. The
// events each version sends for the abort are recorded and checked (docs/compatibility.md, "Stop, measured").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents, type EventRecorder } from "../support/event-stream.ts";
import { DEFAULT_CHAT_ID, type SentMessage } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE_VERSIONS } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const sleepy = (seconds: number, tag: string) =>
  directive({ tool: "bash", args: { command: `sleep ${seconds} && echo ${tag}`, description: "wait" }, then: [{ text: `${tag} finished` }] });

describe.each(OPENCODE_VERSIONS)("stop from the phone on OpenCode %s", (version) => {
  let rig: Rig;
  let events: EventRecorder;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "1s" });
    events = await recordEvents(rig.opencode.url, rig.opencode.directory);
  }, 120_000);
  afterAll(async () => {
    events?.close();
    await rig?.stop();
  });

  const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId)!;
  const noticesAfter = (count: number) =>
    rig.telegram
      .messages()
      .slice(count)
      .filter((m) => /<b>(Done|Failed)<\/b>/.test(m.text));
  const status = async (sessionID: string) =>
    (await rig.opencode.request<Record<string, { type: string }>>("GET", "/session/status")).body?.[sessionID]?.type ?? "idle";
  const busy = (sessionID: string) =>
    pollUntil(async () => (await status(sessionID)) === "busy", { timeoutMs: 30_000, intervalMs: 50, what: `session ${sessionID} busy` });
  const idle = (sessionID: string) =>
    pollUntil(async () => (await status(sessionID)) === "idle", { timeoutMs: 30_000, intervalMs: 50, what: `session ${sessionID} idle` });
  const confirmation = (after: number, what: string) =>
    rig.telegram.waitFor(
      () =>
        rig.telegram
          .messages()
          .slice(after)
          .find((m) => m.text.includes("Stop this run?") && rig.telegram.buttons(m).length > 0),
      { timeoutMs: 20_000, what },
    );
  /** The session's events from the abort on, as "type" or "type:detail". */
  const abortEvents = (sessionID: string, from: number) => {
    const types = events.events
      .slice(from)
      .filter((event) => (event.properties?.sessionID ?? event.properties?.info?.sessionID) === sessionID)
      .map((event) => {
        if (event.type === "session.status") return `session.status:${event.properties.status?.type}`;
        if (event.type === "session.error") return `session.error:${event.properties.error?.name}`;
        return event.type;
      })
      .filter((type) => /^(session\.(status|idle|error)|question\.rejected)/.test(type));
    // The run may still report itself busy (a new step) while the Stop tap travels: what counts is
    // the order from the abort on, and that the session never went busy again after it.
    const first = types.findIndex((type) => type !== "session.status:busy");
    return first === -1 ? [] : types.slice(first);
  };

  it("Stop on a question: a red confirmation, then the run is aborted; the question closes; no Failed, no Done", async () => {
    const { sessionID, message } = await askOnPhone(
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
      "stop-me",
    );
    const before = rig.telegram.messages().length;
    expect(rig.telegram.buttons(message).at(-1)).toMatchObject({ text: "⏹ Stop" });
    await rig.telegram.tapButton(message, "⏹ Stop");
    const confirm = await confirmation(before, "the confirmation");
    expect(confirm.replyToMessageId).toBe(message.messageId);
    expect(rig.telegram.buttons(confirm)).toEqual([expect.objectContaining({ text: "⏹ Confirm stop", style: "danger" })]);
    expect(await status(sessionID)).toBe("busy"); // one tap never stops a run

    const from = events.events.length;
    const llmCalls = rig.llm.requests.filter((r) => JSON.stringify(r.messages ?? []).includes("stop-me")).length;
    await rig.telegram.tapButton(confirm, "⏹ Confirm stop");
    await rig.telegram.waitFor(() => current(confirm).text.includes("Run stopped from Telegram") && rig.telegram.buttons(current(confirm)).length === 0, {
      timeoutMs: 20_000,
      what: "Run stopped",
    });
    await idle(sessionID);
    // OpenCode leaves the question pending after an abort: Hermes dismisses it.
    await rig.telegram.waitFor(() => current(message).text.includes("Dismissed from Telegram") && rig.telegram.buttons(current(message)).length === 0, {
      timeoutMs: 20_000,
      what: "the question closed",
    });
    expect(await rig.opencode.pendingQuestions()).toHaveLength(0);
    await sleep(1_500); // past Hermes' grace for a late abort
    expect(noticesAfter(before)).toEqual([]);
    // Measured order of what OpenCode reports for the abort.
    const seen = abortEvents(sessionID, from);
    // Measured order of what OpenCode reports: the abort leaves the question pending (Hermes rejects it
    // after the stop); 1.18.33 reports the abort first, 1.1.53 goes idle first and reports the abort
    // only once the question is rejected.
    if (version === "1.1.53") {
      expect(seen.slice(0, 2)).toEqual(["session.status:idle", "session.idle"]);
      expect(seen.indexOf("session.error:MessageAbortedError")).toBeGreaterThan(seen.indexOf("question.rejected"));
    } else {
      expect(seen.slice(0, 3)).toEqual(["session.error:MessageAbortedError", "session.status:idle", "session.idle"]);
      expect(seen.at(-1)).toBe("question.rejected");
    }
    expect(rig.llm.requests.filter((r) => JSON.stringify(r.messages ?? []).includes("stop-me")).length).toBe(llmCalls); // the agent did not carry on
  });

  it("a run started from the phone: its progress message has Stop; confirmed, the command is cut short and nothing more is reported", async () => {
    const stopped = rig.telegram.messages().find((m) => m.text.includes("Run stopped from Telegram"))!;
    const before = rig.telegram.messages().length;
    const requests = rig.llm.requests.length;
    rig.telegram.sendText(DEFAULT_CHAT_ID, sleepy(20, "phone-run"), { replyTo: stopped.messageId });
    const running = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Running</b>") && rig.telegram.buttons(m).length > 0, {
      timeoutMs: 20_000,
      what: "the progress message",
    });
    const sessionID = await pollUntil(
      async () => {
        const all = (await rig.opencode.request<Record<string, { type: string }>>("GET", "/session/status")).body ?? {};
        return Object.keys(all).find((id) => all[id]?.type === "busy");
      },
      { timeoutMs: 20_000, what: "the busy session" },
    );
    await pollUntil(() => rig.llm.requests.length > requests, { timeoutMs: 20_000, what: "the LLM called" });
    // The progress message keeps showing the run: the confirmation comes as a reply to it.
    const asked = rig.telegram.messages().length;
    await rig.telegram.tapButton(running, "⏹ Stop");
    const confirm = await confirmation(asked, "the confirmation");
    expect(confirm.replyToMessageId).toBe(running.messageId);
    const from = events.events.length;
    await rig.telegram.tapButton(confirm, "⏹ Confirm stop");
    await rig.telegram.waitFor(() => current(confirm).text.includes("Run stopped from Telegram"), { timeoutMs: 20_000, what: "Run stopped" });
    await idle(sessionID);
    await rig.telegram.waitFor(() => current(running).text.includes("<b>Run stopped</b>") && rig.telegram.buttons(current(running)).length === 0, {
      timeoutMs: 20_000,
      what: "the progress message's last line",
    });
    await sleep(1_500);
    // A phone-started run always reports its end, except when the phone stopped it.
    expect(noticesAfter(before)).toEqual([]);
    expect(rig.llm.requests.some((r) => JSON.stringify(r.messages ?? []).includes("phone-run\\n"))).toBe(false);
    // Measured: an abort during a tool call is reported after the idle on 1.1.53, before it on
    // 1.18.33. On 1.1.53 the error event comes seconds later, or not at all, and the idle may be
    // published twice: what counts is that the session went idle first and never busy again.
    const seen = abortEvents(sessionID, from);
    if (version === "1.1.53") {
      expect(seen.slice(0, 2)).toEqual(["session.status:idle", "session.idle"]);
      expect(seen.filter((type) => !["session.status:idle", "session.idle", "session.error:MessageAbortedError"].includes(type))).toEqual([]);
    } else {
      expect(seen.slice(0, 3)).toEqual(["session.error:MessageAbortedError", "session.status:idle", "session.idle"]);
      expect(seen).not.toContain("session.status:busy");
    }
  });

  it("/stop with two busy runs offers a picker; the chosen one stops, the other runs on", async () => {
    const a = await rig.opencode.createSession({ title: "Alpha job" });
    const b = await rig.opencode.createSession({ title: "Beta job" });
    await rig.opencode.prompt(a.id, sleepy(30, "alpha"));
    await rig.opencode.prompt(b.id, sleepy(30, "beta"));
    await Promise.all([busy(a.id), busy(b.id)]);
    const before = rig.telegram.messages().length;
    rig.telegram.sendText(DEFAULT_CHAT_ID, "/stop");
    const picker = await rig.telegram.waitForMessage((m) => m.text.includes("Which run should stop?"), { timeoutMs: 20_000, what: "the picker" });
    const labels = rig.telegram.buttons(picker).map((b) => b.text);
    expect(labels).toEqual(expect.arrayContaining([expect.stringContaining("Alpha job"), expect.stringContaining("Beta job")]));
    await rig.telegram.tapButton(picker, labels.find((label) => label.includes("Beta job"))!);
    await rig.telegram.waitFor(() => current(picker).text.includes("Stop this run?") && current(picker).text.includes("Beta job"), {
      timeoutMs: 20_000,
      what: "Beta's confirmation",
    });
    // Same authorization as every tap: a stranger's Confirm stop is refused and stops nothing.
    const strangerTap = await rig.telegram.tapButton(current(picker), "⏹ Confirm stop", { id: 4242, is_bot: false, first_name: "Stranger" });
    expect((await rig.telegram.waitForCallbackAnswer(strangerTap)).text).toBe("Not authorized");
    await sleep(500);
    expect(await status(b.id)).toBe("busy");
    await rig.telegram.tapButton(current(picker), "⏹ Confirm stop");
    await idle(b.id);
    expect(await status(a.id)).toBe("busy");
    await rig.telegram.waitFor(() => current(picker).text.includes("Run stopped from Telegram"), { timeoutMs: 20_000, what: "Run stopped" });
    await rig.opencode.request("POST", `/session/${a.id}/abort`);
    await idle(a.id);
    await sleep(1_500);
    expect(noticesAfter(before)).toEqual([]);
  });
});
