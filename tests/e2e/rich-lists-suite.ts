// Rich messages for reading the work end to end (issue 52, section 2's rest), per cell of the
// matrix (tests/e2e/matrix.ts): the real OpenCode, a fake Bot API that has rich messages (validated
// as documented: a refused one fails the test), a real git repository. richListsSuite: /diff is one
// rich message with each file's change in its own collapsible block (hostile lines verbatim), Push
// as today and no changes.diff; a stranger's /diff and tap change nothing; changes that do not fit
// are named, the message says so, and changes.diff replies to it. /schedules is a table (hostile
// instructions verbatim), its Cancel and Confirm taps edit it rich, a stranger's tap changes
// nothing. /history is a table, its page turned rich. Then the server loses rich messages: today's
// /diff and changes.diff, today's lists, one log line.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2 } from "../support/opencode.ts";
import { findBlocks, plainOf } from "../support/telegram/rich.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import type { SentMessage } from "../support/telegram/types.ts";
import type { Cell } from "./matrix.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const HOSTILE = Array.from({ length: 120 }, (_, i) => `<b>line ${i}</b> & "quoted" &amp; 漢字 😀 | a | b |`);

export function richListsSuite(cell: Cell): void {
  const { version, chat } = cell;
  describe(`/diff and /schedules as rich messages on OpenCode ${version} in a ${chat} chat`, () => {
    let rig: Rig;
    let directory: string;
    const git = (args: string[]) => execFileSync("git", args, { cwd: directory, encoding: "utf8" }).trim();
    const answerTo = (command: { messageId: number }) =>
      rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && m.text.includes("on "), {
        timeoutMs: 30_000,
        what: "the answer to /diff",
      });
    const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
    const logLines = () =>
      fs
        .readFileSync(rig.logFile, "utf8")
        .split("\n")
        .filter((line) => line.includes("no rich messages"));

    beforeAll(async () => {
      rig = await startRig(version, { HERMES_DONE_AFTER: "0s" }, undefined, { warmup: false, chat, telegram: { richMessages: "supported" } });
      directory = rig.opencode.directory;
      for (const name of ["app.html", "notes.md"]) fs.writeFileSync(path.join(directory, name), `${name} as committed\n`);
      git(["init", "-q", "-b", "main"]);
      git(["config", "user.email", "owner@example.com"]);
      git(["config", "user.name", "Owner"]);
      git(["add", "."]);
      git(["commit", "-qm", "start"]);
      if (isOpencode2(version)) await rig.opencode.request("GET", `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(directory)}`);
      else await rig.opencode.request("GET", "/config", { directory });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    it("each file in its own collapsible block, every line verbatim, Push as today, no changes.diff; a stranger's /diff and tap change nothing", async () => {
      fs.writeFileSync(path.join(directory, "app.html"), `${HOSTILE.join("\n")}\n`);
      fs.writeFileSync(path.join(directory, "new.txt"), "a new file\nwith two lines\n");
      const before = rig.telegram.messages().length;
      rig.telegram.sendText(rig.chatId, "/diff", { from: STRANGER });
      const command = rig.telegram.sendText(rig.chatId, "/diff");
      const answer = await answerTo(command);
      expect(answer.rich, "a rich message").toBeDefined();
      const blocks = findBlocks(answer.rich!, "details");
      expect(blocks.map((block) => plainOf(block.children[0]!))).toEqual(["📄 app.html +120 −1", "📄 new.txt (new) +2 −0"]);
      for (const block of blocks) expect(block.attrs.open).toBeUndefined();
      for (const line of HOSTILE) expect(plainOf(blocks[0]!)).toContain(`+${line}`);
      expect(plainOf(blocks[1]!)).toContain("+with two lines");
      expect(answer.text).toContain("on main");
      expect(rig.telegram.buttons(answer).map((button) => button.text)).toContain("⬆️ Push");
      // The stranger's /diff got nothing, and the rich message needs no file.
      await sleep(1_000);
      expect(rig.telegram.messages().length - before).toBe(1);
      expect(rig.telegram.messages().some((m) => m.document?.filename === "changes.diff")).toBe(false);

      const requests = rig.llm.requests.length;
      const refused = await rig.telegram.tapButton(answer, "⬆️ Push", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(rig.telegram.messages().length - before).toBe(1);
      expect(rig.llm.requests.length).toBe(requests);
    }, 90_000);

    it("changes past one rich message: those that fit as blocks, the rest named, and changes.diff replying to it", async () => {
      const big = Array.from({ length: 900 }, (_, i) => `row ${i} of a long generated file & <more>`).join("\n");
      for (const name of ["big-1.txt", "big-2.txt", "big-3.txt"]) fs.writeFileSync(path.join(directory, name), `${big}\n`);
      const command = rig.telegram.sendText(rig.chatId, "/diff");
      const answer = await answerTo(command);
      expect(answer.rich).toBeDefined();
      expect(answer.rich!.stats.chars).toBeLessThanOrEqual(32768);
      expect(answer.text).toMatch(/files' changes do not fit in this message: the whole diff is in the file changes\.diff below\./);
      const file = await rig.telegram.waitForMessage((m) => m.replyToMessageId === answer.messageId && m.document?.filename === "changes.diff", {
        timeoutMs: 90_000,
        what: "changes.diff",
      });
      const diff = file.document!.content ?? file.document!.data!.toString("utf8");
      for (const name of ["big-1.txt", "big-2.txt", "big-3.txt", "app.html", "new.txt"]) expect(diff).toContain(`b/${name}`);
      for (const name of ["big-1.txt", "big-2.txt", "big-3.txt"]) fs.rmSync(path.join(directory, name));
    }, 90_000);

    it("/schedules: a table, a row a schedule; a stranger's tap changes nothing; Cancel and Confirm edit it, rich", async () => {
      const instruction = 'check <b>x</b> & "q" 漢字 😀 | a |';
      for (const every of ["/every 2h", "/every 3h"]) {
        const command = rig.telegram.sendText(rig.chatId, `${every} ${instruction}`);
        await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId, { timeoutMs: 20_000, what: `the answer to ${every}` });
      }
      const command = rig.telegram.sendText(rig.chatId, "/schedules");
      const list = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId, { timeoutMs: 20_000, what: "the /schedules list" });
      expect(list.rich, "a rich message").toBeDefined();
      const rows = findBlocks(list.rich!, "tr");
      expect(rows).toHaveLength(3);
      const cells = rows.slice(1).map((row) => row.children.map((cell) => plainOf(cell as never)));
      expect(cells.map((row) => [row[0], row[1], row[4]])).toEqual([
        ["1", "every 2 h", instruction],
        ["2", "every 3 h", instruction],
      ]);
      expect(rig.telegram.buttons(list).map((button) => button.text)).toEqual(["✖ Cancel 1", "✖ Cancel 2"]);

      const refused = await rig.telegram.tapButton(list, "✖ Cancel 1", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(rig.telegram.buttons(current(list)).map((button) => button.text)).toEqual(["✖ Cancel 1", "✖ Cancel 2"]);

      await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(list, "✖ Cancel 1"));
      await pollUntil(() => rig.telegram.buttons(current(list)).some((button) => button.text === "✖ Confirm cancel 1"), { what: "the confirm button" });
      expect(current(list).rich).toBeDefined();
      await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(current(list), "✖ Confirm cancel 1"));
      await pollUntil(() => findBlocks(current(list).rich!, "tr").length === 2 || undefined, { what: "the list without the cancelled schedule" });
      expect(rig.telegram.buttons(current(list)).map((button) => button.text)).toEqual(["✖ Cancel 1"]);
      expect(current(list).text).toContain("every 3 h");
    }, 90_000);

    it("/history: a table, a row a prompt; ▶ turns the page, rich; a stranger's tap changes nothing", async () => {
      const session = await rig.opencode.createSession();
      let done: SentMessage | undefined;
      for (let i = 1; i <= 6; i++) {
        await rig.opencode.prompt(session.id, directive({ text: `history answer ${i}` }));
        done = await rig.telegram.waitForMessage((m) => m.text.includes("Done") && m.text.includes(`history answer ${i}`), {
          timeoutMs: 60_000,
          what: `the Done notice of run ${i}`,
        });
      }
      const command = rig.telegram.sendText(rig.chatId, "/history", { replyTo: done!.messageId });
      const list = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId, { timeoutMs: 30_000, what: "the /history list" });
      expect(list.rich, "a rich message").toBeDefined();
      const numbers = (message: SentMessage) =>
        findBlocks(message.rich!, "tr")
          .slice(1)
          .map((row) => plainOf(row.children[0] as never));
      expect(numbers(list)).toEqual(["1", "2", "3", "4", "5"]);
      expect(findBlocks(list.rich!, "th").map((cell) => plainOf(cell))).toEqual(["#", "Prompt", "Files it changed"]);
      expect(rig.telegram.buttons(list).map((button) => button.text)).toEqual(["1", "2", "3", "4", "5", "▶"]);

      const before = rig.telegram.messages().length;
      const refused = await rig.telegram.tapButton(list, "▶", STRANGER);
      expect(await rig.telegram.waitForCallbackAnswer(refused)).toMatchObject({ text: expect.stringContaining("Not authorized") });
      expect(numbers(current(list))).toEqual(["1", "2", "3", "4", "5"]);

      await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(list, "▶"));
      await pollUntil(() => numbers(current(list))[0] === "6" || undefined, { what: "the second page" });
      expect(current(list).rich).toBeDefined();
      expect(current(list).text).toContain("Page 2 of 2");
      expect(rig.telegram.messages().length).toBe(before);
    }, 180_000);

    it("the server loses rich messages: today's /diff and changes.diff, today's /schedules and /history, one log line", async () => {
      rig.telegram.setRichMessages("refused");
      const command = rig.telegram.sendText(rig.chatId, "/diff");
      const answer = await answerTo(command);
      expect(answer.rich).toBeUndefined();
      expect(answer.text).toContain("<code>app.html</code> +120 −1");
      expect(answer.text).toContain("<code>new.txt</code> (new) +2 −0");
      // In a group the file waits for its turn in the twenty a minute the test's lists have used.
      await rig.telegram.waitForMessage((m) => m.replyToMessageId === answer.messageId && m.document?.filename === "changes.diff", {
        timeoutMs: 90_000,
        what: "changes.diff",
      });
      await pollUntil(() => logLines().length > 0, { what: "the log line" });
      // A second /diff does not ask again.
      const calls = rig.telegram.calls.filter((call) => call.method === "sendRichMessage").length;
      const again = await answerTo(rig.telegram.sendText(rig.chatId, "/diff"));
      expect(again.rich).toBeUndefined();
      expect(rig.telegram.calls.filter((call) => call.method === "sendRichMessage").length).toBe(calls);
      const schedules = rig.telegram.sendText(rig.chatId, "/schedules");
      const list = await rig.telegram.waitForMessage((m) => m.replyToMessageId === schedules.messageId, { timeoutMs: 20_000, what: "the /schedules list" });
      expect(list.rich).toBeUndefined();
      expect(list.text).toContain("every 3 h · <b>");
      expect(rig.telegram.buttons(list).map((button) => button.text)).toEqual(["✖ Cancel 1"]);
      const done = rig.telegram.messages().find((m) => m.text.includes("Done") && m.text.includes("history answer 6"))!;
      const history = rig.telegram.sendText(rig.chatId, "/history", { replyTo: done.messageId });
      const prompts = await rig.telegram.waitForMessage((m) => m.replyToMessageId === history.messageId, { timeoutMs: 30_000, what: "the /history list" });
      expect(prompts.rich).toBeUndefined();
      expect(prompts.text).toContain("<b>Last prompts</b>");
      expect(logLines()).toHaveLength(1);
      expect(rig.telegram.retryAfterViolations).toBe(0);
    }, 90_000);
  });
}
