// A permission's long diff as a rich message, end to end (issue 52) on the real OpenCode, in a
// private chat and a supergroup, with a fake Bot API that has rich messages (validated as
// documented: a refused one fails the test): a write whose 300-line diff is longer than today's
// preview is one rich message, its lines open and the whole diff in a collapsible block, Allow
// offered and no .diff file; a stranger's tap changes nothing; Allow once writes the file and the
// message settles, rich. Then the server loses rich messages: the next such permission is today's
// message with its .diff file first, Allow still works, and one log line for the process.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatKind } from "../support/chat-kind.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { findBlocks, plainOf } from "../support/telegram/rich.ts";
import type { SentMessage } from "../support/telegram/types.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };

const CASES: Array<{ version: OpencodeVersion; chat: ChatKind }> = ([...OPENCODE_VERSIONS, OPENCODE2_VERSION] as OpencodeVersion[]).flatMap((version) =>
  (["private", "supergroup"] as ChatKind[]).map((chat) => ({ version, chat })),
);

describe.each(CASES)("a permission's long diff as a rich message on OpenCode $version in a $chat chat", ({ version, chat }) => {
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
    rig.telegram.waitForMessage((m) => m.text.includes(marker) && rig.telegram.buttons(m).length > 0, { timeoutMs: 60_000, what: `permission for ${marker}` });
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
    expect(rig.telegram.messages().filter((m) => m.text.includes("plain-change.html") && rig.telegram.buttons(m).length > 0)).toHaveLength(1);
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
