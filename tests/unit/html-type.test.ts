// Telegram HTML by construction (issue 40): every text sent with parse_mode HTML is `Html`, and only
// lib/text/html.ts makes it. The `@ts-expect-error` lines below are the compiler's half of
// the proof: `npm run typecheck` fails as soon as one of them compiles (the brand removed, a
// parameter widened to string). The rest checks what the makers do at run time, and that no file
// of lib/ but html.ts casts to Html and only the files listed here vouch for markup themselves.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { EMPTY_HTML, escapeHtml, html, type Html, joinHtml, trimHtml, trustedHtml } from "../../lib/text/html.ts";
import type { TelegramApi } from "../../lib/telegram/wire/api.ts";
import type { RenderedMessage } from "../../lib/telegram/wire/rendered-message.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

const t = CATALOGS.en;

describe("the compiler refuses a plain string where Html is wanted", () => {
  it("in the Bot API client, a renderer's message, the html template and the catalog", async () => {
    const memory = new MemoryTelegram();
    const telegram: TelegramApi = memory;
    const title = "<$0.001 & co";
    // @ts-expect-error a plain string is not Html: sendMessage takes nothing else
    await expect(telegram.sendMessage(1, title)).rejects.toThrow(/can't parse entities: Unsupported start tag "\$0\.001"/);
    expect(memory.takeUnparsable()).toHaveLength(1);
    // @ts-expect-error editMessageText's text must be Html too
    const edit = () => telegram.editMessage(1, 1, title, []);
    // @ts-expect-error a document's caption is HTML
    const document = () => telegram.sendDocument(1, "a.txt", "x", { caption: title });
    // @ts-expect-error a photo's caption is HTML
    const photo = () => telegram.sendFile(1, { as: "photo", filename: "a.png", bytes: new Uint8Array(), mime: "image/png" }, { caption: title });
    // @ts-expect-error a renderer returns Html, never a string
    const rendered: RenderedMessage = { text: title, keyboard: [] };
    // @ts-expect-error the template takes Html (or numbers): text must be escaped first
    const templated = html`<b>${title}</b>`;
    // @ts-expect-error the catalog's marked-up strings take Html parameters
    const running = t.stop.running(title);
    // @ts-expect-error escaping Html again would show its markup as text
    const twice = escapeHtml(escapeHtml(title));
    expect([edit, document, photo, rendered, templated, running, twice]).toHaveLength(7);
  });
});

describe("the makers of Html", () => {
  it("escapeHtml escapes the four characters Telegram reads, and lone surrogates", () => {
    expect(escapeHtml(`<$0.001 & "quotes" > \uD800`)).toBe("&lt;$0.001 &amp; &quot;quotes&quot; &gt; \uFFFD");
  });

  it("the html template keeps its literal markup and its Html values as they are, and writes numbers", () => {
    const cost = escapeHtml("<$0.001");
    const shown: Html = html`✅ <b>Done</b> · ${cost} · ${3} files`;
    expect(shown).toBe("✅ <b>Done</b> · &lt;$0.001 · 3 files");
    expect(html`plain`).toBe("plain");
    expect(html`${EMPTY_HTML}`).toBe("");
  });

  it("joinHtml joins with Hermes' own separators; trimHtml drops blank ends", () => {
    expect(joinHtml([html`<b>a</b>`, escapeHtml("b<c")], "\n")).toBe("<b>a</b>\nb&lt;c");
    expect(joinHtml([escapeHtml("x"), escapeHtml("y")], html`, `)).toBe("x, y");
    expect(trimHtml(html`\n<i>x</i>\n\n`)).toBe("<i>x</i>");
  });

  it("the catalog's marked-up strings escape nothing of their own, and take the caller's Html as it is", () => {
    expect(t.stop.running(escapeHtml("a<b"))).toBe("▶️ <b>Running</b> · a&lt;b\n<i>⏹ Stop ends the run, as Esc does in the terminal.</i>");
    expect(CATALOGS.zh.notice.done(escapeHtml("3 s"))).toContain("3 s");
  });
});

describe("no file of lib/ makes Html but the makers of html.ts", () => {
  const LIB = path.resolve(import.meta.dirname, "../../lib");
  const files = fs.readdirSync(LIB, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));

  /** The casts to a type naming Html, and the calls of trustedHtml, in one file of lib/. */
  function scan(file: string): { casts: number; trusted: number } {
    const text = fs.readFileSync(path.join(LIB, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    let casts = 0;
    let trusted = 0;
    const visit = (node: ts.Node): void => {
      if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && /\bHtml\b/.test(node.type.getText(source))) casts++;
      if (ts.isCallExpression(node) && node.expression.getText(source) === "trustedHtml") trusted++;
      ts.forEachChild(node, visit);
    };
    visit(source);
    return { casts, trusted };
  }
  const scans = new Map(files.map((file) => [file, scan(file)]));

  it("only html.ts casts to Html", () => {
    expect(files.filter((file) => scans.get(file)!.casts > 0)).toEqual([path.join("text", "html.ts")]);
  });

  it("markup is vouched for (trustedHtml) only where a reviewer checked why it is safe", () => {
    // rich-text.ts: its own tag pairs around escaped text; scrubbed-api.ts: what stands in for a
    // secret has no markup characters; render-undo.ts: the first line of a catalog text, whose
    // lines each close their tags.
    const vouching = files.filter((file) => scans.get(file)!.trusted > 0).sort();
    expect(vouching).toEqual(
      [path.join("telegram", "render", "render-undo.ts"), path.join("text", "rich-text.ts"), path.join("telegram", "wire", "scrubbed-api.ts")].sort(),
    );
  });

  it("trustedHtml marks a constant as it is", () => {
    expect(trustedHtml("<b>x</b>")).toBe("<b>x</b>");
  });
});
