// A run held by a usage limit, end to end (issue 51) on the real OpenCode with the scripted LLM
// answering 429 and the fake Telegram, one OpenCode per version and chat kind: the pause message
// with the reset time, resumed by OpenCode's own retry (a `retry-after` of 20 s) with a message sent
// meanwhile held and then delivered; Resume now and Cancel on a wait of an hour (OpenCode's abort
// ends its own wait); a stranger's taps change nothing; and where OpenCode gives up at once (2.0.15
// on a quota whose body names the reset), Hermes sends `continue` at the reset itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatKind } from "../support/chat-kind.ts";
import type { SentMessage } from "../support/fake-telegram.ts";
import { contentText, isTitleRequest, messagesOf } from "../support/llm/chat-request.ts";
import { isOpencode2, OPENCODE2_VERSION, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const CASES: Array<[OpencodeVersion, ChatKind]> = [
  ["1.18.33", "private"],
  ["1.18.33", "supergroup"],
  ["1.1.53", "private"],
  ["1.1.53", "supergroup"],
  [OPENCODE2_VERSION, "private"],
  [OPENCODE2_VERSION, "supergroup"],
];
const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const RATE_LIMIT = "Rate limit reached for requests";

describe.each(CASES)("a usage limit on OpenCode %s in a %s chat", (version, chat) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, {}, undefined, { chat });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
  const labels = (message: SentMessage) => rig.telegram.buttons(current(message)).map((b) => b.text);
  const pauseOf = (marker: string) =>
    rig.telegram.waitForMessage(
      (m) => m.text.includes("Usage limit") && rig.telegram.buttons(m).length > 0 && m.text.includes(RATE_LIMIT) && !seen.has(m.messageId),
      {
        timeoutMs: 60_000,
        what: `the pause message of ${marker}`,
      },
    );
  const seen = new Set<number>();
  /** The agent's requests (no title requests) since `from` whose user messages include `text`. */
  const requestsWith = (from: number, text: string) =>
    rig.llm.requests
      .slice(from)
      .filter((body) => !isTitleRequest(body) && messagesOf(body).some((m) => m.role === "user" && contentText(m.content).includes(text)));
  const idle = (sessionID: string) =>
    pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 60_000, intervalMs: 200, what: "the run over" });

  it("a 429 with a retry-after of 20 s: the pause shows the reset time, a message sent meanwhile is held, and both go on after OpenCode's retry", async () => {
    rig.llm.setFailure({ agentOnly: true, status: 429, times: 1, message: RATE_LIMIT, type: "rate_limit_exceeded", headers: { "retry-after": "20" } });
    const session = await rig.opencode.createSession();
    const from = rig.llm.requests.length;
    await rig.opencode.prompt(session.id, "work through the limit");
    const pause = await pauseOf("the retry-after");
    seen.add(pause.messageId);
    expect(pause.text).toMatch(/⏸ <b>Usage limit<\/b> · resumes at \d\d:\d\d \(in (1\d|20) s\)/);
    expect(pause.text).toContain("OpenCode retries by itself then.");
    expect(labels(pause)).toEqual(["▶ Resume now", "✖ Cancel"]);
    const failedAt = Date.now();

    // A message for the session while it waits: held, said so, listed on the pause.
    const held = rig.telegram.sendText(rig.chatId, "and then this, held", { replyTo: pause.messageId });
    const note = await rig.telegram.waitForMessage((m) => m.replyToMessageId === held.messageId, { what: "the held note" });
    expect(note.text).toContain("Held");
    await rig.telegram.waitFor(() => current(pause).text.includes("1 message held"), { timeoutMs: 30_000, what: "1 message held on the pause" });
    expect(requestsWith(from, "and then this, held")).toEqual([]);

    // OpenCode retries after the 20 s, the run moves: the pause says Resumed, and the held message reaches the session.
    await rig.telegram.waitFor(() => current(pause).text.includes("Resumed at"), { timeoutMs: 60_000, what: "Resumed on the pause" });
    expect(current(pause).text).toContain("OpenCode's retry went through");
    expect(labels(pause)).toEqual([]);
    const [retried] = requestsWith(from, "work through the limit").slice(1);
    expect(retried).toBeDefined();
    await rig.telegram.waitFor(() => requestsWith(from, "and then this, held")[0], { timeoutMs: 60_000, what: "the held message at the LLM" });
    expect(Date.now() - failedAt).toBeGreaterThanOrEqual(15_000);
    await idle(session.id);
    // One pause message, never a second; no "retrying" or "failed" notice beside it.
    expect(rig.telegram.messages().filter((m) => m.text.includes(RATE_LIMIT) || /retrying|failed/i.test(m.text))).toEqual([current(pause)]);
  }, 180_000);

  it("a wait of an hour: a stranger's taps change nothing, Resume now stops OpenCode's wait and sends continue", async () => {
    rig.llm.setFailure({ agentOnly: true, status: 429, times: 1, message: RATE_LIMIT, type: "rate_limit_exceeded", headers: { "retry-after": "3600" } });
    const session = await rig.opencode.createSession();
    const from = rig.llm.requests.length;
    await rig.opencode.prompt(session.id, "wait an hour");
    const pause = await pauseOf("the hour");
    seen.add(pause.messageId);
    expect(pause.text).toMatch(isOpencode2(version) ? /\(in 1[45] min( \d+ s)?\)/ : /\(in (59 min|1 h)/);

    const refused = await rig.telegram.tapButton(pause, "▶ Resume now", STRANGER);
    expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    const refusedCancel = await rig.telegram.tapButton(pause, "✖ Cancel", STRANGER);
    expect(await rig.telegram.waitForCallbackAnswer(refusedCancel)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    expect(labels(pause)).toEqual(["▶ Resume now", "✖ Cancel"]);
    expect(await rig.opencode.isBusy(session.id)).toBe(true);

    const tap = await rig.telegram.tapButton(pause, "▶ Resume now");
    expect(await rig.telegram.waitForCallbackAnswer(tap)).toMatchObject({ text: "Resuming" });
    await rig.telegram.waitFor(
      () => requestsWith(from, "continue").find((body) => messagesOf(body).some((m) => m.role === "user" && contentText(m.content).trim() === "continue")),
      {
        timeoutMs: 60_000,
        what: "continue at the LLM",
      },
    );
    await rig.telegram.waitFor(() => current(pause).text.includes("from the phone"), { timeoutMs: 30_000, what: "Resumed from the phone" });
    expect(labels(pause)).toEqual([]);
    await idle(session.id);
  }, 180_000);

  it("a wait of an hour: Cancel stops OpenCode's retry and says so; nothing more reaches the LLM", async () => {
    rig.llm.setFailure({ agentOnly: true, status: 429, message: RATE_LIMIT, type: "rate_limit_exceeded", headers: { "retry-after": "3600" } });
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, "wait an hour, then cancel");
    const pause = await pauseOf("the cancel");
    seen.add(pause.messageId);
    const tap = await rig.telegram.tapButton(pause, "✖ Cancel");
    expect(await rig.telegram.waitForCallbackAnswer(tap)).toMatchObject({ text: "Cancelled" });
    await idle(session.id);
    await rig.telegram.waitFor(() => current(pause).text.includes("the wait was cancelled"), { timeoutMs: 30_000, what: "Cancelled on the pause" });
    expect(labels(pause)).toEqual([]);
    const after = rig.llm.requests.length;
    rig.llm.setFailure(null);
    // A later run of another session goes through: the cancelled one sent nothing meanwhile.
    const other = await rig.opencode.createSession();
    await rig.opencode.prompt(other.id, "after the cancel");
    await idle(other.id);
    expect(requestsWith(after, "wait an hour, then cancel")).toEqual([]);
  }, 180_000);

  // A bare 429 (no retry-after, no reset time in the body): 1.18.33 gives up after five retries
  // (about 62 s), 2.0.15 after ten (about 84 s, provider.rate-limit); 1.1.53 never gives up (its
  // pause keeps OpenCode's next retry time), so it has no end without a reset time.
  it.skipIf(version === "1.1.53")(
    "OpenCode gives up on a bare 429: no reset time known, Resume now only, nothing resumes by itself, Resume now sends continue",
    async () => {
      rig.llm.setFailure({ agentOnly: true, status: 429, times: isOpencode2(version) ? 11 : 6, message: RATE_LIMIT, type: "rate_limit_exceeded" });
      const session = await rig.opencode.createSession();
      const from = rig.llm.requests.length;
      await rig.opencode.prompt(session.id, "work through a bare limit");
      const pause = await pauseOf("the bare limit");
      seen.add(pause.messageId);
      expect(pause.text).toContain("OpenCode retries by itself then.");
      await rig.telegram.waitFor(() => current(pause).text.includes("no reset time known"), { timeoutMs: 150_000, what: "OpenCode gave up: no reset time" });
      expect(current(pause).text).toContain("Nothing resumes it by itself: tap Resume now when the limit is over.");
      expect(labels(pause)).toEqual(["▶ Resume now"]);
      await idle(session.id);
      const isContinue = (body: unknown) => messagesOf(body).some((m) => m.role === "user" && contentText(m.content).trim() === "continue");
      // Nothing resumes it by itself (time is the scenario here: Hermes would have sent continue at once).
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      expect(requestsWith(from, "work through a bare limit").filter(isContinue)).toEqual([]);
      expect(labels(pause)).toEqual(["▶ Resume now"]);

      const refused = await rig.telegram.tapButton(pause, "▶ Resume now", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      const tap = await rig.telegram.tapButton(pause, "▶ Resume now");
      expect(await rig.telegram.waitForCallbackAnswer(tap)).toMatchObject({ text: "Resuming" });
      await rig.telegram.waitFor(() => requestsWith(from, "work through a bare limit").find(isContinue), { timeoutMs: 60_000, what: "continue at the LLM" });
      await rig.telegram.waitFor(() => current(pause).text.includes("from the phone"), { timeoutMs: 30_000, what: "Resumed from the phone" });
      expect(labels(pause)).toEqual([]);
      await idle(session.id);
      expect(requestsWith(from, "work through a bare limit").filter(isContinue)).toHaveLength(1);
      // No "retrying" or "Failed" notice beside the pause.
      expect(rig.telegram.messages().filter((m) => /retrying|failed/i.test(m.text) && m.messageId !== pause.messageId)).toEqual([]);
    },
    300_000,
  );

  it.skipIf(version !== "1.18.33")(
    "1.18.33 gives up after five retries: Hermes sends continue at the reset the body names",
    async () => {
      // Its five retries take about 70 s (2 + 4 + 8 + 16 + 32 s with jitter): a reset 100 s away is still ahead when it gives up.
      const reset = new Date(Date.now() + 100_000).toISOString();
      rig.llm.setFailure({
        agentOnly: true,
        status: 429,
        times: 6,
        message: `You have reached your usage limit. ${RATE_LIMIT}. Resets at ${reset}.`,
        type: "usage_limit_reached",
      });
      const session = await rig.opencode.createSession();
      const from = rig.llm.requests.length;
      await rig.opencode.prompt(session.id, "work through five retries");
      const pause = await pauseOf("the five retries");
      seen.add(pause.messageId);
      expect(pause.text).toContain("OpenCode retries by itself then.");
      await rig.telegram.waitFor(() => current(pause).text.includes("OpenCode gave up; Hermes sends it"), {
        timeoutMs: 120_000,
        what: "Hermes takes over the pause",
      });
      expect(requestsWith(from, "work through five retries")).toHaveLength(6);
      const isContinue = (body: unknown) => messagesOf(body).some((m) => m.role === "user" && contentText(m.content).trim() === "continue");
      const continued = await rig.telegram.waitFor(() => requestsWith(from, "work through five retries").find(isContinue), {
        timeoutMs: 90_000,
        what: "continue at the LLM",
      });
      expect(continued).toBeDefined();
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(reset));
      await rig.telegram.waitFor(() => /▶ <b>Resumed at \d\d:\d\d<\/b>/.test(current(pause).text), { timeoutMs: 30_000, what: "Resumed on the pause" });
      await idle(session.id);
      expect(requestsWith(from, "work through five retries").filter(isContinue)).toHaveLength(1);
      expect(rig.telegram.messages().filter((m) => m.text.includes(reset) || /retrying|failed/i.test(m.text))).toEqual([current(pause)]);
    },
    300_000,
  );

  it.skipIf(!isOpencode2(version))(
    "2.0.15 gives up at once on a quota: Hermes sends continue at the reset the body names",
    async () => {
      const reset = new Date(Date.now() + 20_000).toISOString();
      rig.llm.setFailure({
        agentOnly: true,
        status: 429,
        times: 1,
        message: `You have reached your usage limit. ${RATE_LIMIT}. Resets at ${reset}.`,
        type: "usage_limit_reached",
      });
      const session = await rig.opencode.createSession();
      const from = rig.llm.requests.length;
      await rig.opencode.prompt(session.id, "work through the quota");
      const pause = await pauseOf("the quota");
      seen.add(pause.messageId);
      expect(pause.text).toContain("OpenCode gave up; Hermes sends it <code>continue</code> then.");
      await idle(session.id);
      const continued = await rig.telegram.waitFor(
        () =>
          requestsWith(from, "work through the quota").find((body) =>
            messagesOf(body).some((m) => m.role === "user" && contentText(m.content).trim() === "continue"),
          ),
        { timeoutMs: 60_000, what: "continue at the LLM" },
      );
      expect(continued).toBeDefined();
      expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(reset));
      await rig.telegram.waitFor(() => /▶ <b>Resumed at \d\d:\d\d<\/b>/.test(current(pause).text), { timeoutMs: 30_000, what: "Resumed on the pause" });
      expect(labels(pause)).toEqual([]);
      await idle(session.id);
      expect(
        requestsWith(from, "work through the quota").filter(
          (body) => messagesOf(body).filter((m) => m.role === "user" && contentText(m.content).trim() === "continue").length > 0,
        ),
      ).toHaveLength(1);
    },
    180_000,
  );
});
