// Live progress end to end on the real OpenCode with a scripted LLM and the fake Telegram (with
// Telegram's flood limits in a supergroup): a run started from the phone writes a todo list (1.x;
// OpenCode 2.0.15 has no todo tool), runs a slow shell command, asks a question, runs another,
// marks the todos done. The phone sees one silent message as soon as the run has something to
// show (its todo list) that shows the todos and the command running and changes as they change;
// the question comes as usual; after the run no message keeps Stop and Done is sent. In a
// supergroup (1.x) the first seconds: the todo list within 5 s of todowrite, an 8 s command shown
// while it runs, at most eight calls of one run in any minute. HERMES_PROGRESS=off: no progress message, Done as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2, type OpencodeVersion } from "../support/opencode.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { pollUntil } from "../support/wait.ts";
import type { Cell } from "./matrix.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const SLOW_S = 11;
const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

/** The todowrite call each version accepts (1.1.53 wants an id per item); none on OpenCode 2. */
function todos(version: OpencodeVersion, ...statuses: string[]) {
  const items = statuses.map((status, index) => ({
    content: `Step ${index + 1} <of ${statuses.length}>`,
    status,
    priority: "high",
    ...(version === "1.1.53" ? { id: `t${index}` } : {}),
  }));
  return { tool: "todowrite", args: { todos: items } };
}

/** The scripted run: todos, a slow command, the todos moved on, a question, another slow command, the todos done. */
function script(version: OpencodeVersion, tag: string): string {
  const { shell } = toolsOf(version);
  const slow = (n: number) => shell(`sleep ${SLOW_S} && echo ${tag}-${n}`);
  const question = { tool: "question", args: { questions: [{ ...color, question: `Which color? [${tag}]` }] } };
  const text = { text: `${tag} all done` };
  if (isOpencode2(version)) return directive({ ...slow(1), then: [question, slow(2), text] });
  return directive({
    ...todos(version, "in_progress", "pending", "pending"),
    then: [slow(1), todos(version, "completed", "in_progress", "pending"), question, slow(2), todos(version, "completed", "completed", "completed"), text],
  });
}

export function progressSuite(cell: Cell): void {
  const { version, chat } = cell;
  const v2 = isOpencode2(version);
  describe(`live progress on OpenCode ${version} in a ${chat} chat`, () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, {}, undefined, { chat });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId)!;
    const withStop = () => rig.telegram.messages().filter((m) => rig.telegram.buttons(m).some((b) => b.text === "⏹ Stop"));

    it("a run from the phone: one silent message once it shows something, the todos and the command as they change, the question as usual; after it no Stop is left and Done is sent", async () => {
      // A Hermes message of the session to reply to: a question, answered.
      const { sessionID, message } = await askOnPhone(rig, [color], `first-${chat}`);
      await rig.telegram.tapButton(message, "Red");
      await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 30_000, intervalMs: 100, what: "the first run over" });
      const before = rig.telegram.messages().length;
      const { messageId: mine } = rig.telegram.sendText(rig.chatId, script(version, `run-${chat}`), { replyTo: message.messageId });

      const live = await rig.telegram.waitForMessage((m) => m.replyToMessageId === mine && m.text.includes("<b>Running</b>"), {
        timeoutMs: 20_000,
        what: "the progress message",
      });
      expect(rig.telegram.buttons(live).map((b) => b.text)).toEqual(["⏹ Stop"]);
      const send = rig.telegram.calls.find((call) => call.method === "sendMessage" && call.payload.reply_parameters?.message_id === mine);
      expect(send?.payload.disable_notification).toBe(true);

      const command = (n: number) => `<code>sleep ${SLOW_S} &amp;&amp; echo run-${chat}-${n}</code>`;
      const showed = (pred: (text: string) => boolean, what: string) =>
        rig.telegram.waitFor(() => current(live).history.some((version) => pred(version.text)), { timeoutMs: 40_000, what });
      await showed((text) => text.includes(command(1)) && (v2 || text.includes("📋 <b>To do</b> 0/3")), "the todos and the first command");
      if (!v2) expect(current(live).history.find((h) => h.text.includes(command(1)))?.text).toContain("🔄 Step 1 &lt;of 3&gt;");

      const asked = await rig.telegram.waitForMessage((m) => m.text.includes(`[run-${chat}]`) && rig.telegram.buttons(m).length > 0, {
        timeoutMs: 40_000,
        what: "the question raised mid-run",
      });
      await rig.telegram.tapButton(asked, "Blue");
      await showed((text) => text.includes(command(2)) && (v2 || text.includes("📋 <b>To do</b> 1/3")), "the todos moved on and the second command");

      const done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>"), { timeoutMs: 60_000, what: "Done" });
      expect(done.messageId).toBeGreaterThan(live.messageId);
      await rig.telegram.waitFor(() => current(live).text.includes("Run finished") && rig.telegram.buttons(current(live)).length === 0, {
        timeoutMs: 20_000,
        what: "the progress message's last line",
      });
      if (!v2) expect(current(live).text).toContain("📋 <b>To do</b> 3/3");
      await rig.telegram.waitFor(() => withStop().length === 0, { timeoutMs: 20_000, what: "no Stop left" });
      // One progress message for the run, no separate Running notice.
      const progress = rig.telegram
        .messages()
        .slice(before)
        .filter((m) => m.text.includes("<b>Running</b>") || m.text.includes("Run finished"));
      expect(progress.map((m) => m.messageId)).toEqual([live.messageId]);
      // Each edit changed something.
      const texts = current(live).history.map((h) => `${h.text}${JSON.stringify(h.replyMarkup ?? null)}`);
      expect(new Set(texts).size).toBe(texts.length);
      if (chat === "supergroup") {
        expect(rig.telegram.flood.rejected).toBe(0);
        // One run's calls: eight in any minute at most (a burst of two, the second a command's first sight, then one per 10 s on average).
        const at = current(live).history.map((h) => h.at);
        for (const from of at) expect(at.filter((other) => other >= from && other < from + 60_000).length).toBeLessThanOrEqual(8);
        for (let i = 2; i < at.length - 1; i++) expect(at[i]! - at[i - 2]!).toBeGreaterThanOrEqual(9_900);
      }
    }, 150_000);
  });
}

/** The first seconds of a run in a supergroup (1.x: OpenCode 2.0.15 has no todo tool). */
export function firstSecondsSuite(cell: Cell): void {
  const { version, chat } = cell;
  describe(`the first seconds of a run on OpenCode ${version} in ${chat === "supergroup" ? "a supergroup" : "a private chat"}`, () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, {}, undefined, { chat });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });
    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId)!;

    // The first seconds of a run in a group (1.x: OpenCode 2.0.15 has no todo tool): the message
    // comes with the todo list, an 8 s command shows while it runs, the todos move on the same
    // message, and the run's calls stay within eight in any minute. A rig of its own: the group's
    // minute holds only this test's own messages (progress takes only spare budget).
    it("the first seconds in a group: the todo list within 5 s of todowrite, an 8 s command while it runs, the todos moving on the same message, ≤ 8 calls a minute", async () => {
      const { sessionID, message } = await askOnPhone(rig, [color], `quick-${chat}`);
      await rig.telegram.tapButton(message, "Red");
      await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 30_000, intervalMs: 100, what: "the first run over" });
      const { shell } = toolsOf(version);
      const tag = `quick-${chat}`;
      const run = directive({
        ...todos(version, "in_progress", "pending"),
        then: [
          shell(`sleep 8 && echo ${tag}-1`),
          todos(version, "completed", "in_progress"),
          shell(`sleep 3 && echo ${tag}-2`),
          todos(version, "completed", "completed"),
          { text: `${tag} done` },
        ],
      });
      const replies = rig.llm.replies.length;
      const { messageId: mine } = rig.telegram.sendText(rig.chatId, run, { replyTo: message.messageId });
      const live = await rig.telegram.waitForMessage((m) => m.replyToMessageId === mine && m.text.includes("<b>Running</b>"), {
        timeoutMs: 20_000,
        what: "the progress message",
      });
      await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.messageId > live.messageId, { timeoutMs: 60_000, what: "Done" });
      await rig.telegram.waitFor(() => current(live).text.includes("Run finished"), { timeoutMs: 20_000, what: "the progress message's last line" });
      const history = current(live).history;
      const wrote = rig.llm.replies.slice(replies).find((reply) => reply.tools.includes("todowrite"))!;
      const listShown = history.find((h) => h.text.includes("📋 <b>To do</b> 0/2"));
      expect(listShown, "the todo list on the message").toBeDefined();
      expect(listShown!.at - wrote.at).toBeLessThanOrEqual(5_000);
      // The command, shown as running, before its result reached the LLM (it ran 8 s).
      const ended = await rig.llm.waitForToolResult((r) => r.content.includes(`${tag}-1`), { what: "the 8 s command's result" });
      const running = history.find((h) => h.text.includes(`▸ <b>bash</b> <code>sleep 8 &amp;&amp; echo ${tag}-1</code>`));
      expect(running, "the 8 s command shown while it runs").toBeDefined();
      expect(running!.at).toBeLessThan(ended.at);
      // The todos moved on in place: one progress message for the run.
      expect(history.some((h) => h.text.includes("📋 <b>To do</b> 1/2"))).toBe(true);
      expect(current(live).text).toContain("📋 <b>To do</b> 2/2");
      const progress = rig.telegram.messages().filter((m) => m.replyToMessageId === mine && /<b>(Running|Run finished)<\/b>/.test(m.text));
      expect(progress.map((m) => m.messageId)).toEqual([live.messageId]);
      // Never an edit that changes nothing, never more than eight calls in a minute, no 429.
      const texts = history.map((h) => `${h.text}${JSON.stringify(h.replyMarkup ?? null)}`);
      expect(new Set(texts).size).toBe(texts.length);
      const at = history.map((h) => h.at);
      for (const from of at) expect(at.filter((other) => other >= from && other < from + 60_000).length).toBeLessThanOrEqual(8);
      expect(rig.telegram.flood.rejected).toBe(0);
    }, 150_000);
  });
}

/** HERMES_PROGRESS=off: the phone's run gets the Running notice (Stop) as before, no progress, and Done. */
export function progressOffSuite(cell: Cell): void {
  const { version, chat } = cell;
  describe(`HERMES_PROGRESS=off on OpenCode ${version}`, () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, { HERMES_PROGRESS: "off" }, undefined, { chat });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    it("no progress message; the Running notice and Done as before", async () => {
      const { sessionID, message } = await askOnPhone(rig, [color], "off-first");
      await rig.telegram.tapButton(message, "Red");
      await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { timeoutMs: 30_000, intervalMs: 100, what: "the first run over" });
      const { shell } = toolsOf(version);
      const run = isOpencode2(version)
        ? directive({ ...shell("sleep 2 && echo off"), then: [{ text: "off done" }] })
        : directive({ ...todos(version, "in_progress"), then: [shell("sleep 2 && echo off"), { text: "off done" }] });
      const { messageId: mine } = rig.telegram.sendText(rig.chatId, run, { replyTo: message.messageId });
      const running = await rig.telegram.waitForMessage((m) => m.replyToMessageId === mine && m.text.includes("<b>Running</b>"), {
        timeoutMs: 20_000,
        what: "the Running notice",
      });
      await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>"), { timeoutMs: 40_000, what: "Done" });
      const now = rig.telegram.messages().find((m) => m.messageId === running.messageId)!;
      expect(now.history.every((h) => !h.text.includes("To do") && !h.text.includes("<code>sleep"))).toBe(true);
      expect(rig.telegram.messages().some((m) => m.text.includes("Run finished"))).toBe(false);
      const send = rig.telegram.calls.find((call) => call.method === "sendMessage" && call.payload.reply_parameters?.message_id === mine);
      expect(send?.payload.disable_notification).toBeUndefined();
    }, 90_000);
  });
}
