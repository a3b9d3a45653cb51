// Rich answers end to end (issue 52) on the real OpenCode, in a private chat and a supergroup, with
// a fake Bot API that has rich messages (Bot API 10.1+, validated as documented: a refused one
// fails the test): an answer with a Markdown table and 6,000 characters is one rich Done notice
// with a table block and no answer.md; a 40,000-character answer is a rich notice within the
// limits that says what it cut, and answer.md replying to it; a stranger's tap on its button
// changes nothing. Then the server loses rich messages (an older Bot API server): the next runs get
// today's HTML notices, nothing lost or sent twice, and one log line for the process.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatKind } from "../support/chat-kind.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { findBlocks } from "../support/telegram/rich.ts";
import type { SentMessage } from "../support/telegram/types.ts";
import { MAX_TEXT } from "../support/telegram/validate.ts";
import { pollUntil } from "../support/wait.ts";
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

const LONG_ANSWER = `${Array.from({ length: 820 }, (_, i) => `Step ${i}: migrated table t${i} & checked it <ok>.`).join("\n\n")}\n\nNext: drop the old tables.`;

const CASES: Array<{ version: OpencodeVersion; chat: ChatKind }> = ([...OPENCODE_VERSIONS, OPENCODE2_VERSION] as OpencodeVersion[]).flatMap((version) =>
  (["private", "supergroup"] as ChatKind[]).map((chat) => ({ version, chat })),
);

describe.each(CASES)("rich answers on OpenCode $version in a $chat chat", ({ version, chat }) => {
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
    const file = await rig.telegram.waitForMessage((m) => m.document?.filename === "answer.md" && m.replyToMessageId === done.messageId, { what: "answer.md" });
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

  it("the server loses rich messages: the next answers are today's HTML notices, nothing sent twice, and one log line", async () => {
    rig.telegram.setRichMessages("refused");
    const richCalls = () => rig.telegram.calls.filter((call) => call.method === "sendRichMessage").length;
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
    expect(rig.telegram.retryAfterViolations).toBe(0);
  }, 120_000);
});
