// The agent's answers on the phone: the Done notice renders their Markdown, a long one shows its
// end and comes whole as answer.md (a reply to which reaches the session), a formatting Telegram
// refuses falls back to plain text once, and questions show their Markdown too.
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { showAnswer } from "../../lib/bridge/runs/answer-messages.ts";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { TelegramApiError } from "../../lib/telegram/wire/api.ts";
import { MESSAGE_LIMIT, visibleLength } from "../../lib/text/html.ts";
import { Outbox, Priority } from "../../lib/telegram/wire/outbox.ts";
import { ANSWER_FILE } from "../../lib/telegram/render/render-agent-text.ts";
import { CHAT, DIRECTORY, question, request, setup } from "../support/bridge-rig.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const quick = { level: "all" as const, doneAfterMs: 0 };

function runSession(emit: (event: HermesEvent) => void, text: string, sessionID = "ses_1") {
  emit({ type: "session.status", sessionID, status: "busy" });
  emit({ type: "message.role", sessionID, messageID: "msg_1", role: "assistant" });
  emit({ type: "message.text", sessionID, messageID: "msg_1", partID: "prt_1", text });
  emit({ type: "session.idle", sessionID });
}

const ANSWER =
  "## Done\n\nI fixed **the parser** and *its tests*: `parse<T>()` now returns `T | undefined`.\n\n- [docs](https://example.com/a_(b))\n\n```ts\nconst x = a && b;\n```";

function validTelegramHtml(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.plain;
}

describe("Bridge: the agent's answers", () => {
  it("the Done notice shows the answer's Markdown formatted", async () => {
    const { telegram, bridge } = setup({ notices: quick });
    runSession((event) => bridge.handleEvent(DIRECTORY, event), ANSWER);
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b> after")) ?? Promise.reject(new Error("no notice")));
    expect(done.text).toContain(
      "<b>Done</b>\n\nI fixed <b>the parser</b> and <i>its tests</i>: <code>parse&lt;T&gt;()</code> now returns <code>T | undefined</code>.\n\n" +
        '• <a href="https://example.com/a_(b)">docs</a>\n\n<pre><code class="language-ts">const x = a &amp;&amp; b;</code></pre>',
    );
    expect(validTelegramHtml(done.text)).not.toMatch(/\*\*|```/);
    expect(telegram.documents).toEqual([]);
  });

  it("a 12,000-character answer: the notice shows its end within the limit, answer.md holds all of it, and a reply to the file reaches the session", async () => {
    const { telegram, opencode, bridge, say } = setup({ notices: quick });
    const answer = `# Report\n\n${Array.from({ length: 480 }, (_, i) => `- step **${i}**: \`ok\` 完成 ✅`).join("\n")}\n\nNext: *ship it*.`;
    expect(answer.length).toBeGreaterThan(12_000);
    runSession((event) => bridge.handleEvent(DIRECTORY, event), answer);
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("<b>Done</b>")) ?? Promise.reject(new Error("no notice")));
    const plain = validTelegramHtml(done.text);
    expect(plain.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(plain.length).toBeGreaterThan(MESSAGE_LIMIT - 300);
    expect(done.text).toContain(CATALOGS.en.answer.shortened(trustedHtml(ANSWER_FILE)));
    expect(done.text).toContain("• step <b>479</b>: <code>ok</code> 完成 ✅\n\nNext: <i>ship it</i>.\n\n");
    expect(plain).not.toContain("step 0:");
    const file = await vi.waitFor(() => telegram.documents[0] ?? Promise.reject(new Error("no file")));
    expect(file).toMatchObject({ chatId: CHAT, filename: ANSWER_FILE, content: answer, replyTo: done.messageId, caption: CATALOGS.en.answer.fileCaption });
    await say("now tag the release", file.messageId);
    await vi.waitFor(() => expect(opencode.posts.map((post) => post.body)).toContainEqual({ parts: [{ type: "text", text: "now tag the release" }] }));
  });

  it("Telegram refuses the formatting: the notice goes again as plain text, once, and it is logged", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const { telegram, bridge } = setup({ notices: quick, logger });
    const send = telegram.sendMessage.bind(telegram);
    const sent: string[] = [];
    telegram.sendMessage = async (chatId, html, options) => {
      sent.push(html);
      if (html.includes("<pre")) throw new TelegramApiError(400, "Bad Request: can't parse entities: Unsupported start tag");
      return send(chatId, html, options);
    };
    runSession((event) => bridge.handleEvent(DIRECTORY, event), ANSWER);
    const done = await vi.waitFor(() => telegram.messages.find((m) => m.text.includes("Done after")) ?? Promise.reject(new Error("no notice")));
    expect(sent).toHaveLength(2);
    expect(done.text).toBe(
      "✅ Done after 0 s\n📁 project\n\nDone\n\nI fixed the parser and its tests: parse&lt;T&gt;() now returns T | undefined.\n\n• docs\n\nconst x = a &amp;&amp; b;\n\nReply to this message to send the agent your next instruction.",
    );
    expect(lines.filter((line) => line.includes("sent as plain text"))).toHaveLength(1);
  });

  it("a question whose text is Markdown shows formatted, its option descriptions too", async () => {
    const { telegram, bridge } = setup();
    bridge.handleEvent(DIRECTORY, {
      type: "question.asked",
      request: request([
        question({
          question: "Which **database** should `db.ts` use?",
          options: [
            { label: "Postgres", description: "*robust*, see [docs](https://postgresql.org)" },
            { label: "SQLite", description: "`file:` based" },
          ],
        }),
      ]),
    });
    const message = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no question")));
    expect(message.text).toContain("Which <b>database</b> should <code>db.ts</code> use?");
    expect(message.text).toContain('• <b>Postgres</b> — <i>robust</i>, see <a href="https://postgresql.org">docs</a>');
    expect(message.text).toContain("• <b>SQLite</b> — <code>file:</code> based");
  });
});

describe("Bridge: a question whose formatting Telegram refuses", () => {
  it("goes out with the agent's text unformatted, once, logged; its later edits stay unformatted", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
    const { telegram, bridge, tap } = setup({ logger });
    const send = telegram.sendMessage.bind(telegram);
    const edit = telegram.editMessage.bind(telegram);
    let refusals = 0;
    const refuseFormatted = (html: string) => {
      if (!html.includes("<b>database</b>")) return;
      refusals++;
      throw new TelegramApiError(400, "Bad Request: can't parse entities: Unsupported start tag");
    };
    telegram.sendMessage = async (chatId, html, options) => {
      refuseFormatted(html);
      return send(chatId, html, options);
    };
    telegram.editMessage = async (chatId, messageId, html, keyboard) => {
      refuseFormatted(html);
      return edit(chatId, messageId, html, keyboard);
    };
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request([question({ question: "Which **database**?", multiple: true })]) });
    const message = await vi.waitFor(() => telegram.messages.find((m) => m.keyboard.length > 0) ?? Promise.reject(new Error("no question")));
    expect(message.text).toContain("Which **database**?");
    expect(refusals).toBe(1);
    await tap(message, "Red");
    await vi.waitFor(() => expect(message.edits).toBeGreaterThan(0));
    expect(message.text).toContain("Which **database**?");
    expect(refusals).toBe(1);
    expect(lines.filter((line) => line.includes("formatted question"))).toHaveLength(1);
  });
});

describe("showAnswer: a session's answer on demand", () => {
  it("renders it under its header, attaches answer.md when only the end fits, and both messages lead back to the session", async () => {
    const telegram = new MemoryTelegram();
    const registry = new Registry();
    const log = pino({ level: "silent" });
    const outbox = new Outbox({ logger: log, limits: false });
    const deps = { telegram, outbox, registry, log, t: CATALOGS.zh };
    const owner = { sessionID: "ses_9", directory: "/p" };
    const short = await showAnswer(deps, { chatId: CHAT, threadId: 7, owner, priority: Priority.Answer }, trustedHtml("💬 <b>修复登录</b>"), "已**完成**。");
    expect(telegram.messages[0]).toMatchObject({ text: "💬 <b>修复登录</b>\n\n已<b>完成</b>。", threadId: 7 });
    expect(registry.ownerOf({ chatId: CHAT, messageId: short!.messageId })).toEqual(owner);
    const long = `# 报告\n\n${"这一步**完成**了。\n\n".repeat(600)}`;
    const shown = await showAnswer(deps, { chatId: CHAT, threadId: undefined, owner, priority: Priority.Answer }, trustedHtml("💬 <b>修复登录</b>"), long);
    const message = telegram.messages.find((m) => m.messageId === shown!.messageId)!;
    expect(visibleLength(message.text)).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(message.text).toContain(CATALOGS.zh.answer.shortened(trustedHtml(ANSWER_FILE)));
    expect(message.text.endsWith("这一步<b>完成</b>了。")).toBe(true);
    const file = telegram.documents[0]!;
    expect(file).toMatchObject({ filename: ANSWER_FILE, content: long, replyTo: shown!.messageId });
    expect(registry.ownerOf({ chatId: CHAT, messageId: file.messageId })).toEqual(owner);
    await outbox.stop();
  });
});
