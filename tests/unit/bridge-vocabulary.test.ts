// OpenCode's own vocabulary on the bridge (issue 43), with an in-memory Telegram and a fake OpenCode
// 1.x: /commands as a reply lists the project's commands as buttons and a tap runs one through the
// command route; `/<name> <arguments>` as a reply runs it with arguments; Hermes's own names stay
// Hermes's; the words on their own say how; /compact is refused while the session works; a
// stranger's words and taps reach no OpenCode route. The renderers: pages, escaping, 64 bytes.
import { describe, expect, it, vi } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { fillChange, renderCommands, renderHistory } from "../../lib/telegram/render/render-vocabulary.ts";
import { html } from "../../lib/text/html.ts";
import { DIRECTORY, OWNER, setup } from "../support/bridge-rig.ts";
import type { MemoryMessage } from "../support/memory-telegram.ts";

const t = CATALOGS.en;
const COMMANDS = [
  { name: "review", description: "Review the <named> part", source: "command", template: "Please review $ARGUMENTS." },
  { name: "undo", description: "the project's own undo", source: "command", template: "x" },
];
const commandPosts = (posts: Array<{ url: string; body?: unknown }>) => posts.filter((post) => post.url.includes("/command")).map((post) => post.body);

function rig(options: { allowedUsers?: number[] } = {}) {
  const harness = setup({ notices: { level: "all" as const, doneAfterMs: 0 }, ...options });
  harness.opencode.commands = COMMANDS;
  const emit = (event: HermesEvent) => harness.bridge.handleEvent(DIRECTORY, event);
  const done = async (): Promise<MemoryMessage> => {
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "message.role", sessionID: "ses_1", messageID: "msg_u1", role: "user", changes: [] });
    emit({ type: "message.text", sessionID: "ses_1", messageID: "msg_a1", partID: "p", text: "answer one" });
    emit({ type: "session.idle", sessionID: "ses_1" });
    return vi.waitFor(() => harness.telegram.messages.find((m) => m.text.includes("<b>Done</b>")) ?? Promise.reject(new Error("no Done")));
  };
  const find = (text: string) => vi.waitFor(() => harness.telegram.messages.find((m) => m.text.includes(text)) ?? Promise.reject(new Error(`no "${text}"`)));
  return { ...harness, emit, done, find };
}

describe("Bridge: OpenCode's vocabulary", () => {
  it("/commands lists the project's commands with a button each, and a tap runs one through the command route", async () => {
    const { opencode, done, find, say, tap } = rig();
    const notice = await done();
    expect(notice.keyboard.flat().map((button) => button.text)).toEqual(["⑂ Fork"]);
    await say("/commands", notice.messageId);
    const list = await find("Commands of");
    expect(list.text).toContain("<code>/review</code> — Review the &lt;named&gt; part");
    expect(list.text).toContain("the same names as Hermes's commands");
    expect(list.keyboard.flat().map((button) => button.text)).toEqual(["/review", "/undo"]);
    await tap(list, "/review");
    await vi.waitFor(() => expect(commandPosts(opencode.posts)).toEqual([{ command: "review", arguments: "" }]));
    await find("/review</b> sent to");
  });

  it("`/review <arguments>` as a reply runs it with them; a reply /undo stays Hermes's; an unknown /name goes as text", async () => {
    const { opencode, done, find, say } = rig();
    const notice = await done();
    await say("/review the <parser> module", notice.messageId);
    await vi.waitFor(() => expect(commandPosts(opencode.posts)).toEqual([{ command: "review", arguments: "the <parser> module" }]));
    await say("/undo", notice.messageId);
    await find("Nothing to undo");
    await say("/tmp/x is the path", notice.messageId);
    await vi.waitFor(() => expect(opencode.posts.filter((post) => post.url.includes("prompt_async")).map((post) => JSON.stringify(post.body))).toHaveLength(1));
    expect(commandPosts(opencode.posts)).toHaveLength(1);
  });

  it("the words on their own say how to use them; /compact while the session works is refused, nothing asked of OpenCode", async () => {
    const { opencode, done, emit, find, say } = rig();
    await say("/history");
    await find("Reply with it to a session's message");
    const notice = await done();
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    await say("/compact", notice.messageId);
    await find("The session is working");
    expect(opencode.posts.filter((post) => post.url.includes("summarize"))).toEqual([]);
  });

  it("/fork as a reply to a run's Done notice forks through that run (before the next prompt), titled ⑂ <title>, its first message replying there", async () => {
    const { opencode, emit, done, find, say } = rig();
    emit({ type: "session.upserted", info: { id: "ses_1", title: "Refactor" } });
    const notice = await done();
    emit({ type: "session.status", sessionID: "ses_1", status: "busy" });
    emit({ type: "message.role", sessionID: "ses_1", messageID: "msg_u2", role: "user", changes: [] });
    emit({ type: "session.idle", sessionID: "ses_1" });
    const user = (id: string, text: string) => ({ info: { id, role: "user" }, parts: [{ type: "text", text }] });
    opencode.messages = [user("msg_u1", "one"), { info: { id: "msg_a1", role: "assistant" }, parts: [] }, user("msg_u2", "two")];
    opencode.answers.set("/session/{sessionID}/fork", { status: 200, data: { id: "ses_fork" } });
    await say("/fork", notice.messageId);
    const forked = await find("<b>Forked</b>");
    expect(forked.text).toContain("⑂ Refactor");
    expect(forked.replyTo).toBe(notice.messageId);
    const posts = opencode.posts.filter((post) => /fork|\/session\/\{sessionID\}$/.test(post.url));
    expect(posts).toEqual([
      { url: "/session/{sessionID}/fork", path: { sessionID: "ses_1" }, body: { messageID: "msg_u2" } },
      { url: "/session/{sessionID}", path: { sessionID: "ses_fork" }, body: { title: "⑂ Refactor" } },
    ]);
  });

  it("a stranger's /commands, /fork and taps reach no OpenCode route", async () => {
    const { opencode, telegram, done, find, say, tap } = rig({ allowedUsers: [OWNER] });
    const notice = await done();
    const before = telegram.messages.length;
    await say("/commands", notice.messageId, 4242);
    await say("/fork", notice.messageId, 4242);
    await tap(notice, "⑂ Fork", 4242);
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    expect(telegram.messages).toHaveLength(before);
    await say("/commands", notice.messageId);
    const list = await find("Commands of");
    await tap(list, "/review", 4242);
    expect(telegram.callbackAnswers.at(-1)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    expect(opencode.posts.filter((post) => /command|fork/.test(post.url))).toEqual([]);
  });
});

describe("render-vocabulary", () => {
  it("pages /commands eight at a time with ◀ ▶, escapes the project's text, keeps callback data within 64 bytes", () => {
    const commands = Array.from({ length: 11 }, (_, index) => ({ name: `cmd${index}`, description: `does <${index}> & more` }));
    const first = renderCommands(commands, "proj<1>", "Ab3dEf9H", 0, new Set(), t);
    expect(first.text).toContain("Commands of proj&lt;1&gt;</b> (11)");
    expect(first.text).toContain("does &lt;0&gt; &amp; more");
    expect(first.text).toContain("Page 1 of 2");
    expect(first.keyboard.flat().map((button) => button.text)).toEqual(["/cmd0", "/cmd1", "/cmd2", "/cmd3", "/cmd4", "/cmd5", "/cmd6", "/cmd7", "▶"]);
    const second = renderCommands(commands, "p", "Ab3dEf9H", 1, new Set(), t);
    expect(second.keyboard.flat().map((button) => button.text)).toEqual(["/cmd8", "/cmd9", "/cmd10", "◀"]);
    for (const button of [...first.keyboard, ...second.keyboard].flat()) expect(Buffer.byteLength(button.callback_data ?? "")).toBeLessThanOrEqual(64);
    expect(renderCommands([], "p", "Ab3dEf9H", 0, new Set(), t)).toEqual({ text: "📜 OpenCode offers no commands in p.", keyboard: [] });
  });

  it("/history lists prompts newest first with their files, five a page; the fill before and after", () => {
    const entries = Array.from({ length: 6 }, (_, index) => ({
      messageID: `msg_${index}`,
      text: `prompt <${index}>`,
      files: index === 0 ? ["a.ts", "b<c>.ts"] : [],
    }));
    const page = renderHistory(entries, html`📁 <code>p</code>`, "Ab3dEf9H", 0, t);
    expect(page.text).toContain("1. prompt &lt;0&gt;\n   <code>a.ts</code>, <code>b&lt;c&gt;.ts</code>");
    expect(page.text).toContain("2. prompt &lt;1&gt;\n   <i>no files changed</i>");
    expect(page.keyboard.flat().map((button) => button.text)).toEqual(["1", "2", "3", "4", "5", "▶"]);
    expect(fillChange(174_000, 24_000, 200_000, t)).toBe("🧠 87% → 12% of 200k");
    expect(fillChange(174_000, 24_000, undefined, t)).toBe("🧠 174k → 24k tokens");
    expect(fillChange(undefined, 24_000, 200_000, t)).toBeUndefined();
  });
});
