// Rich messages end to end (issue 52), per cell of the matrix (tests/e2e/matrix.ts): the real
// OpenCode, a fake Bot API that has rich messages (validated as documented: a refused one fails the
// test). richAnswersSuite: an answer with a Markdown table and 6,000 characters is one rich Done
// notice with a table block and no answer.md; a 40,000-character answer is a rich notice within the
// limits that says what it cut, and answer.md replying to it; a stranger's tap on its button changes
// nothing; while an answer is written a private chat gets rich drafts (a group none); then the
// server loses rich messages: today's HTML notices and drafts, nothing lost or sent twice, one log
// line. richPermissionsSuite: a write whose 300-line diff is longer than today's preview is one
// rich message, its lines open and the whole diff in a collapsible block, Allow offered and no .diff;
// a stranger's tap changes nothing; Allow once writes the file and the message settles, rich; then
// the server loses rich messages: today's message with its .diff first, Allow still works, one log line.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { findBlocks, plainOf, readRichMessage } from "../support/telegram/rich.ts";
import type { SentMessage } from "../support/telegram/types.ts";
import { MAX_TEXT } from "../support/telegram/validate.ts";
import { pollUntil } from "../support/wait.ts";
import type { Cell } from "./matrix.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };

const TABLE_ANSWER = [
  "## Rich report",
  "",
  "The refresh now reads the token **after** it is saved; `refresh<T>()` & its callers moved. ".repeat(68).trim(),
  "",
  "| file | change |",
  "|---|:-:|",
  "| session.ts | +12 −3 |",
  "| refresh.test.ts | +40 −0 |",
  "",
  "```ts",
  "const token = await save(session) && read<Token>(session);",
  "```",
].join("\n");

const STREAMED_ANSWER = [
  "## Streamed report",
  "",
  "| part | state |",
  "|---|---|",
  "| one | ok |",
  "| two | ok |",
  "",
  "The parts are checked one by one: a < b & c holds. ".repeat(12).trim(),
].join("\n");

const LONG_ANSWER = `${Array.from({ length: 820 }, (_, i) => `Step ${i}: migrated table t${i} & checked it <ok>.`).join("\n\n")}\n\nNext: drop the old tables.`;

export function richAnswersSuite(cell: Cell): void {
  const { version, chat } = cell;
  describe(`rich answers on OpenCode ${version} in a ${chat} chat`, () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, { HERMES_DONE_AFTER: "0s" }, undefined, { chat, telegram: { richMessages: "supported" } });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    async function run(answer: string, marker: string): Promise<SentMessage> {
      const session = await rig.opencode.createSession();
      await rig.opencode.prompt(session.id, directive({ text: answer }));
      return rig.telegram.waitForMessage((m) => m.text.includes("Done") && m.text.includes(marker), { timeoutMs: 60_000, what: `the Done notice (${marker})` });
    }

    it("a 6,000-character answer with a table: one rich Done notice with a table block, code with its language, no answer.md", async () => {
      expect(TABLE_ANSWER.length).toBeGreaterThan(6000);
      const done = await run(TABLE_ANSWER, "Rich report");
      expect(done.rich, "a rich message").toBeDefined();
      const table = findBlocks(done.rich!, "table");
      expect(table).toHaveLength(1);
      expect(findBlocks(done.rich!, "th").map((cell) => cell.attrs)).toEqual([{}, { align: "center" }]);
      expect(findBlocks(done.rich!, "code").some((code) => code.attrs.class === "language-ts")).toBe(true);
      expect(done.text).toContain("session.ts | +12 −3");
      expect(done.text).toContain("const token = await save(session) && read<Token>(session);");
      expect(done.text).toContain("reads the token after it is saved; refresh<T>() & its callers moved.");
      expect(done.text).toMatch(/Reply to this message/);
      expect(done.text.length).toBeGreaterThan(MAX_TEXT);
      // Its buttons as today (⑂ Fork).
      expect(rig.telegram.buttons(done).map((button) => button.text)).toContain("⑂ Fork");
      expect(rig.telegram.messages().filter((m) => m.text.includes("Rich report"))).toHaveLength(1);
      expect(rig.telegram.messages().some((m) => m.document?.filename === "answer.md")).toBe(false);
    }, 90_000);

    it("a 40,000-character answer: a rich notice within the limits that says what it cut, and answer.md replying to it", async () => {
      expect(LONG_ANSWER.length).toBeGreaterThan(40_000);
      const done = await run(LONG_ANSWER, "drop the old tables");
      expect(done.rich).toBeDefined();
      expect(done.rich!.stats.chars).toBeLessThanOrEqual(32768);
      expect(done.text).toContain("Step 819: migrated table t819 & checked it <ok>.");
      expect(done.text).not.toContain("Step 0:");
      expect(done.text).toMatch(/Only the end of the answer fits in one message \(\d+ of its \d+ characters\)/);
      const file = await rig.telegram.waitForMessage((m) => m.document?.filename === "answer.md" && m.replyToMessageId === done.messageId, {
        what: "answer.md",
      });
      expect(file.document!.content).toBe(LONG_ANSWER);
      // The first notice, whole in one rich message, came with none.
      expect(rig.telegram.messages().filter((m) => m.document?.filename === "answer.md")).toEqual([file]);
    }, 90_000);

    it("a stranger's tap on a rich notice's button changes nothing", async () => {
      const done = rig.telegram.messages().find((m) => m.rich && m.text.includes("Rich report"))!;
      const before = rig.telegram.messages().length;
      const requests = rig.llm.requests.length;
      const refused = await rig.telegram.tapButton(done, "⑂ Fork", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      // The gate answered it before any handler saw it: no message, no run.
      expect(rig.telegram.messages().length).toBe(before);
      expect(rig.llm.requests.length).toBe(requests);
    });

    it("a reply to a rich notice reaches its session", async () => {
      const done = rig.telegram.messages().find((m) => m.rich && m.text.includes("Rich report"))!;
      const reply = rig.telegram.sendText(rig.chatId, "now tag the rich release", { replyTo: done.messageId });
      await pollUntil(() => rig.llm.userMessages().some((text) => text.includes("now tag the rich release")), {
        timeoutMs: 30_000,
        what: "the reply at the LLM",
      });
      // Its run ends in a Done notice of its own, rich too, before the server changes.
      await rig.telegram.waitForMessage((m) => m.rich !== undefined && m.messageId > reply.messageId && m.text.includes("Done"), {
        timeoutMs: 40_000,
        what: "the reply's Done notice",
      });
    });

    it(`the answer as it is written: ${chat === "private" ? "rich drafts that grow, a table in them" : "no draft in a group"}`, async () => {
      const before = rig.telegram.calls.length;
      const session = await rig.opencode.createSession();
      await rig.opencode.prompt(session.id, directive({ text: STREAMED_ANSWER, chunks: 20, chunkMs: 150 }));
      await rig.telegram.waitForMessage((m) => m.text.includes("Done") && m.text.includes("Streamed report"), { timeoutMs: 60_000, what: "the Done notice" });
      const calls = rig.telegram.calls.slice(before);
      const drafts = calls.filter((call) => call.method === "sendRichMessageDraft");
      expect(calls.some((call) => call.method === "sendMessageDraft")).toBe(false);
      if (chat !== "private") return void expect(drafts).toHaveLength(0);
      const sent = drafts.filter((call) => call.status === 200);
      expect(sent.length).toBeGreaterThanOrEqual(2);
      expect(new Set(sent.map((call) => call.payload.draft_id)).size).toBe(1);
      const read = readRichMessage(sent.at(-1)!.payload.rich_message, true);
      if (!read.ok) throw new Error(read.error);
      expect(findBlocks(read.content, "table")).toHaveLength(1);
      expect(read.content.plain).toContain("a < b & c");
    }, 90_000);

    it("the server loses rich messages: the next answers are today's HTML notices, nothing sent twice, and one log line", async () => {
      rig.telegram.setRichMessages("refused");
      // A draft of the answer may find it out before the Done notice: the two methods share the latch.
      const richCalls = () => rig.telegram.calls.filter((call) => call.method === "sendRichMessage" || call.method === "sendRichMessageDraft").length;
      const before = richCalls();
      // Today's HTML shows a long answer's end: the marker is there.
      const first = await run(`${TABLE_ANSWER}\n\nEnd of plain report one.`, "plain report one");
      const second = await run("## Plain report two\n\nshort **answer**", "Plain report two");
      for (const done of [first, second]) {
        expect(done.rich).toBeUndefined();
        const parsed = parseTelegramHtml(done.text);
        expect(parsed.ok).toBe(true);
        expect(done.text).toContain("<b>Done</b>");
      }
      // The first found it out (one refused call), the second did not ask.
      expect(richCalls() - before).toBe(1);
      expect(rig.telegram.messages().filter((m) => m.text.includes("plain report one") && m.text.includes("Done"))).toHaveLength(1);
      // Today's HTML shows a 6,000-character answer's end and attaches it whole.
      await rig.telegram.waitForMessage((m) => m.document?.filename === "answer.md" && m.replyToMessageId === first.messageId, {
        what: "answer.md of the HTML notice",
      });
      await pollUntil(() => fs.readFileSync(rig.logFile, "utf8").includes("no rich messages"), { what: "the log line" });
      const lines = fs
        .readFileSync(rig.logFile, "utf8")
        .split("\n")
        .filter((line) => line.includes("no rich messages"));
      expect(lines).toHaveLength(1);
      if (chat === "private") {
        // Drafts are today's from then on.
        const before = rig.telegram.calls.length;
        const session = await rig.opencode.createSession();
        await rig.opencode.prompt(session.id, directive({ text: STREAMED_ANSWER.replace("Streamed report", "Plain stream"), chunks: 20, chunkMs: 150 }));
        await rig.telegram.waitForMessage((m) => m.text.includes("Done") && m.text.includes("Plain stream"), { timeoutMs: 60_000, what: "the Done notice" });
        const calls = rig.telegram.calls.slice(before);
        expect(calls.filter((call) => call.method === "sendMessageDraft" && call.status === 200).length).toBeGreaterThanOrEqual(1);
        expect(calls.some((call) => call.method === "sendRichMessageDraft" || call.method === "sendRichMessage")).toBe(false);
      }
      expect(rig.telegram.retryAfterViolations).toBe(0);
    }, 150_000);
  });
}

export function richPermissionsSuite(cell: Cell): void {
  const { version, chat } = cell;
  describe(`a permission's long diff as a rich message on OpenCode ${version} in a ${chat} chat`, () => {
    const tools = toolsOf(version);
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, {}, undefined, { permission: tools.permission, chat, telegram: { richMessages: "supported" } });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const onPhone = (marker: string) =>
      rig.telegram.waitForMessage((m) => m.text.includes("Permission") && m.text.includes(marker) && rig.telegram.buttons(m).length > 0, {
        timeoutMs: 60_000,
        what: `permission for ${marker}`,
      });
    /** The write ran: its file holds the content (the tool results of both writes look alike). */
    const written = (file: string, content: string) =>
      pollUntil(() => fs.existsSync(file) && fs.readFileSync(file, "utf8") === content, { timeoutMs: 30_000, what: `the write of ${path.basename(file)}` });
    async function write(file: string, content: string): Promise<void> {
      const session = await rig.opencode.createSession();
      await rig.opencode.prompt(session.id, directive(tools.write(file, content)));
    }

    it("a 300-line diff: one rich message, the whole diff in a collapsible block, Allow offered, no .diff; a stranger's tap changes nothing; Allow once writes it", async () => {
      const content = Array.from({ length: 300 }, (_, i) => `<b>line ${i} & "quoted" 漢字 😀</b>`).join("\n");
      const file = path.join(rig.opencode.directory, "rich-change.html");
      await write(file, content);
      const message = await onPhone("rich-change.html");
      expect(message.rich, "a rich message").toBeDefined();
      const [details] = findBlocks(message.rich!, "details");
      expect(details, "a collapsible block").toBeDefined();
      expect(details!.attrs.open).toBeUndefined();
      expect(plainOf(details!.children[0]!)).toMatch(/The whole diff of .*rich-change\.html \(\+\d+ −\d+\): tap to open/);
      const diff = plainOf(details!);
      for (const line of content.split("\n")) expect(diff).toContain(`+${line}`);
      expect(findBlocks(message.rich!, "code").find((code) => code.attrs.class === "language-diff")).toBeDefined();
      expect(rig.telegram.buttons(message).map((b) => b.text)).toContain("Allow once");

      const refused = await rig.telegram.tapButton(message, "Allow once", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(rig.telegram.buttons(current(message)).map((b) => b.text)).toContain("Allow once");
      expect(fs.existsSync(file)).toBe(false);

      await rig.telegram.tapButton(message, "Allow once");
      await written(file, content);
      await rig.telegram.waitFor(() => current(message).text.includes("Allowed once from Telegram") && rig.telegram.buttons(current(message)).length === 0, {
        what: "the rich message settled",
      });
      expect(current(message).rich).toBeDefined();
      expect(findBlocks(current(message).rich!, "details")).toHaveLength(1);
      expect(rig.telegram.messages().some((m) => m.document?.filename.endsWith(".diff"))).toBe(false);
    }, 120_000);

    it("the server loses rich messages: today's message with its .diff first, Allow works, one log line", async () => {
      rig.telegram.setRichMessages("refused");
      const content = Array.from({ length: 300 }, (_, i) => `plain line ${i} & <i>x</i>`).join("\n");
      const file = path.join(rig.opencode.directory, "plain-change.html");
      await write(file, content);
      const message = await onPhone("plain-change.html");
      expect(message.rich).toBeUndefined();
      expect(message.text).toContain("whole diff is in the file above");
      const attached = rig.telegram.messages().find((m) => m.document?.filename === "plain-change.html.diff");
      expect(attached).toBeDefined();
      expect(message.replyToMessageId).toBe(attached!.messageId);
      expect(
        rig.telegram.messages().filter((m) => m.text.includes("Permission") && m.text.includes("plain-change.html") && rig.telegram.buttons(m).length > 0),
      ).toHaveLength(1);
      await rig.telegram.tapButton(message, "Allow once");
      await written(file, content);
      await pollUntil(() => fs.readFileSync(rig.logFile, "utf8").includes("no rich messages"), { what: "the log line" });
      expect(
        fs
          .readFileSync(rig.logFile, "utf8")
          .split("\n")
          .filter((line) => line.includes("no rich messages")),
      ).toHaveLength(1);
      expect(rig.telegram.retryAfterViolations).toBe(0);
    }, 120_000);
  });
}
