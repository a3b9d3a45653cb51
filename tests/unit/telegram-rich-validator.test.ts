// The fakes read rich messages (Bot API 10.1–10.3) as strictly as the documentation allows
// (tests/support/telegram/rich.ts): the documented tags, attributes, entities, Markdown and block
// types only, blocks where blocks go, and the limits (32,768 characters, 500 blocks, 16 levels, 20
// table columns). Over HTTP, a refused rich message fails the test that sent it unless claimed,
// an edit between a text and a rich message is refused, and a server older than 10.1 answers the
// methods "Not Found: method not found".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { findBlocks, RICH_LIMITS, readRichMessage } from "../support/telegram/rich.ts";
import { claimViolations, takeUnclaimedViolations } from "../support/telegram/strict-checks.ts";

const html = (source: string) => readRichMessage({ html: source });
const refusal = (source: string) => {
  const read = html(source);
  return read.ok ? "(accepted)" : read.error;
};

describe("rich HTML", () => {
  it("takes the documented blocks and inline formatting, and shows their text", () => {
    const read = html(
      [
        "<h2>Done &amp; dusted</h2>",
        '<p><b>bold</b> <i>it</i> <s>gone</s> <code>x &lt; y</code> <a href="https://example.com/a?b=1&amp;c=2">link</a><br/>next line</p>',
        '<pre><code class="language-ts">const a = b &lt; c;\n  return a;</code></pre>',
        "<ul><li>one</li><li><p>two</p><ul><li>nested</li></ul></li></ul>",
        '<ol start="3"><li><input type="checkbox" checked> task</li></ol>',
        "<blockquote>quoted</blockquote>",
        "<table bordered><tr><th>a</th><th>b</th></tr><tr><td>1</td><td><b>2</b></td></tr></table>",
        "<details open><summary>the diff</summary><pre>+added\n-removed</pre></details>",
        "<hr/>",
        "<footer>small print</footer>",
      ].join("\n"),
    );
    expect(read.ok, read.ok ? "" : read.error).toBe(true);
    if (!read.ok) return;
    const { plain, stats } = read.content;
    expect(plain).toContain("Done & dusted");
    expect(plain).toContain("x < y");
    expect(plain).toContain("link\nnext line");
    expect(plain).toContain("const a = b < c;\n  return a;");
    expect(plain).toContain("a | b\n1 | 2");
    expect(plain).toContain("+added\n-removed");
    expect(findBlocks(read.content, "table")).toHaveLength(1);
    expect(findBlocks(read.content, "details")[0]!.attrs).toEqual({ open: "" });
    expect(findBlocks(read.content, "code").find((c) => c.attrs.class)?.attrs.class).toBe("language-ts");
    // h2 p pre ul li li p ul li ol li blockquote table tr tr details pre hr footer
    expect(stats.blocks).toBe(19);
    expect(stats.columns).toBe(2);
  });

  it("reads whitespace as HTML does outside pre: a line break is a br", () => {
    const read = html("<p>one\n\n two   three</p><pre>keep\n  this</pre>");
    expect(read.ok && read.content.plain).toBe("one two three\nkeep\n  this");
  });

  it.each([
    ["<div>x</div>", /unsupported tag "div"/],
    ["<p>x</p><span>y</span>", /unsupported tag "span"/],
    ['<p class="x">x</p>', /unsupported attribute "class" of the tag "p"/],
    ["<p><a href=https://x.y>x</a></p>", /must be quoted/],
    ["<p>fish & chips</p>", /unescaped "&"/],
    ["<p>&copy; 2026</p>", /unescaped "&"/],
    ["<p>&lt without semicolon</p>", /unescaped "&"/],
    ["<p>a > b</p>", /unescaped ">"/],
    ["<p>1 < 2</p>", /unsupported tag ""/],
    ["<p><b>x</p></b>", /unmatched end tag/],
    ["<p>x", /can't find end tag/],
    ["loose text", /the message holds blocks: text/],
    ["<b>bold at the top</b>", /"b"/],
    ["<li>x</li>", /"li" can't stand in the message/],
    ["<ul>text</ul>", /a list holds "li" only/],
    ["<ul></ul>", /list must be non-empty/],
    ["<ul><li><p>x</p> loose</li></ul>", /"li" holds blocks: text can't stand beside them/],
    ["<table><tr><td><p>x</p></td></tr></table>", /"p" is a block/],
    ["<table><td>x</td></table>", /a table holds "tr" only/],
    ["<details><p>no summary</p></details>", /must start with its "summary"/],
    ["<p><code>a <b>b</b></code></p>", /entities can't be nested inside "code"/],
    ['<p><code class="language-js">x</code></p>', /a language only inside "pre"/],
    ["<pre><b>x</b></pre>", /"pre" holds text or one "code"/],
    ['<p><a href="javascript:alert(1)">x</a></p>', /unsupported link/],
    ['<p><a href="tg://resolve?domain=x">x</a></p>', /unsupported link/],
    ["<p/>", /can't close itself/],
    // What only third-party code shows, refused until measured.
    ['<tg-button-row><tg-button type="callback_data" data="x">A</tg-button></tg-button-row>', /unsupported tag "tg-button-row"/],
    ["<blockquote collapsed>x</blockquote>", /unsupported attribute "collapsed"/],
    ["<blockquote expandable>x</blockquote>", /unsupported attribute "expandable"/],
    ["<tg-thinking><p>x</p></tg-thinking>", /unsupported tag "tg-thinking"/],
  ])("refuses %j", (source, error) => {
    expect(refusal(source)).toMatch(error);
  });

  it("takes tg-thinking in a draft only", () => {
    expect(readRichMessage({ html: "<tg-thinking><p>x</p></tg-thinking>" }, true).ok).toBe(true);
  });

  it("holds the text to 32,768 characters, counted in UTF-16 units (CJK and emoji included)", () => {
    expect(html(`<p>${"a".repeat(RICH_LIMITS.text)}</p>`).ok).toBe(true);
    expect(refusal(`<p>${"a".repeat(RICH_LIMITS.text + 1)}</p>`)).toMatch(/too long: 32769 characters/);
    // An emoji is two units; markup and entities count as what they show.
    expect(refusal(`<p>${"😀".repeat(RICH_LIMITS.text / 2)}x</p>`)).toMatch(/too long/);
    expect(html(`<p><b>${"&lt;".repeat(RICH_LIMITS.text / 2)}</b>${"中".repeat(RICH_LIMITS.text / 2)}</p>`).ok).toBe(true);
  });

  it("holds a message to 500 blocks, list items and table rows included", () => {
    expect(html("<p>x</p>".repeat(RICH_LIMITS.blocks)).ok).toBe(true);
    expect(refusal("<p>x</p>".repeat(RICH_LIMITS.blocks + 1))).toMatch(/too many blocks: 501/);
    // A list and its 499 items are 500; a table and its 500 rows are 501.
    expect(html(`<ul>${"<li>x</li>".repeat(499)}</ul>`).ok).toBe(true);
    expect(refusal(`<table>${"<tr><td>x</td></tr>".repeat(500)}</table>`)).toMatch(/too many blocks: 501/);
  });

  it("holds nesting to 16 levels, inline and block alike", () => {
    const nested = (levels: number) => `<p>${"<b>".repeat(levels - 1)}x${"</b>".repeat(levels - 1)}</p>`;
    expect(html(nested(16)).ok).toBe(true);
    expect(refusal(nested(17))).toMatch(/too deeply nested: 17 levels/);
    const quotes = (levels: number) => `${"<blockquote>".repeat(levels - 1)}<p>x</p>${"</blockquote>".repeat(levels - 1)}`;
    expect(html(quotes(16)).ok).toBe(true);
    expect(refusal(quotes(17))).toMatch(/too deeply nested/);
  });

  it("holds a table to 20 columns, colspan included", () => {
    const row = (cells: number, span = "") => `<table><tr>${`<td${span}>x</td>`.repeat(cells)}</tr></table>`;
    expect(html(row(20)).ok).toBe(true);
    expect(refusal(row(21))).toMatch(/too many table columns: 21/);
    expect(refusal(row(11, ' colspan="2"'))).toMatch(/too many table columns: 22/);
  });
});

describe("rich Markdown and blocks", () => {
  it("reads GitHub Markdown into the same blocks, its raw HTML as rich HTML", () => {
    const read = readRichMessage({
      markdown:
        "# Title\n\n| a | b |\n|---|:-:|\n| 1 | **2** |\n\n```py\nx = 1 < 2\n```\n\n- one\n- two\n\n> quote\n\n<details><summary>more</summary>\n\ninside\n\n</details>\n",
    });
    expect(read.ok, read.ok ? "" : read.error).toBe(true);
    if (!read.ok) return;
    expect(findBlocks(read.content, "table")).toHaveLength(1);
    expect(read.content.plain).toContain("x = 1 < 2");
    expect(refusal("")).toMatch(/non-empty/);
    const div = readRichMessage({ markdown: "text\n\n<div>raw</div>\n" });
    expect(div.ok ? "" : div.error).toMatch(/unsupported tag "div"/);
    const wide = readRichMessage({ markdown: `|${" a |".repeat(21)}\n|${"---|".repeat(21)}\n|${" 1 |".repeat(21)}\n` });
    expect(wide.ok ? "" : wide.error).toMatch(/too many table columns: 21/);
  });

  it("reads the documented block types and refuses the others", () => {
    const ok = readRichMessage({
      blocks: [
        { type: "heading", size: 2, text: "Done" },
        { type: "paragraph", text: ["plain ", { type: "bold", text: "bold" }] },
        { type: "table", cells: [[{ text: "a", is_header: true }], [{ text: "1" }]] },
      ],
    });
    expect(ok.ok && ok.content.plain).toBe("Done\nplain bold\na\n1");
    const error = (blocks: unknown) => {
      const read = readRichMessage({ blocks });
      return read.ok ? "(accepted)" : read.error;
    };
    expect(error([{ type: "title", text: "x" }])).toBe('type "title" is unsupported');
    expect(error([{ type: "heading", size: 7, text: "x" }])).toBe("invalid section heading size specified");
    expect(error([{ type: "list", items: [] }])).toBe("list must be non-empty");
    expect(error([{ type: "thinking", blocks: [] }])).toBe('type "thinking" is unsupported');
  });

  it("takes exactly one of html, markdown and blocks, as JSON", () => {
    const error = (message: unknown) => {
      const read = readRichMessage(message);
      return read.ok ? "(accepted)" : read.error;
    };
    expect(error({})).toBe("rich message must be non-empty");
    expect(error({ html: "<p>a</p>", markdown: "a" })).toMatch(/exactly one of/);
    expect(error("{not json")).toBe("can't parse rich message JSON object");
    expect(error({ html: "<p>a</p>", parse_mode: "HTML" })).toMatch(/field "parse_mode" of the rich message is unexpected/);
    expect(readRichMessage(JSON.stringify({ html: "<p>a</p>" })).ok).toBe(true);
  });
});

describe("the fake Bot API's rich methods", () => {
  let tg: FakeTelegram;
  beforeAll(async () => {
    tg = await startFakeTelegram({ richMessages: "supported" });
  });
  afterAll(() => tg.close());
  const chat_id = DEFAULT_CHAT_ID;

  async function call(method: string, body: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(`${tg.apiRoot}/bot${tg.token}/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  }

  it("sends a rich message, returns it as Telegram does, and edits it in place", async () => {
    const keyboard = { inline_keyboard: [[{ text: "A", callback_data: "a" }]] };
    const sent = await call("sendRichMessage", { chat_id, rich_message: { html: "<h3>Done</h3><p>all good</p>" }, reply_markup: keyboard });
    expect(sent.status).toBe(200);
    expect(sent.body.result.rich_message.blocks[0].tag).toBe("h3");
    expect(sent.body.result.text).toBeUndefined();
    const message_id = sent.body.result.message_id;
    const m = tg.messages().find((x) => x.messageId === message_id)!;
    expect(m.text).toBe("Done\nall good");
    expect(m.rich?.format).toBe("html");

    const same = await call("editMessageText", { chat_id, message_id, rich_message: { html: "<h3>Done</h3>\n<p>all  good</p>" }, reply_markup: keyboard });
    expect(same.body.description).toMatch(/message is not modified/);
    expect(tg.takeRefusedEdits()).toHaveLength(1);
    expect((await call("editMessageText", { chat_id, message_id, rich_message: { html: "<h3>Done</h3><p>changed</p>" } })).status).toBe(200);
    expect(m.text).toBe("Done\nchanged");
    expect(m.replyMarkup).toBeUndefined();
    expect((await call("editMessageReplyMarkup", { chat_id, message_id, reply_markup: keyboard })).status).toBe(200);
    expect((await call("editMessageCaption", { chat_id, message_id, caption: "x" })).body.description).toMatch(/no caption/);
    // Tapping a button of it: the callback's message carries rich_message.
    const update = tg.tapUpdate(m, "A");
    expect(update.callback_query.message.rich_message.blocks).toHaveLength(2);
  });

  it("reports every refused rich message (a fallback would hide it) and the edits between text and rich", async () => {
    takeUnclaimedViolations();
    expect((await call("sendRichMessage", { chat_id, rich_message: { html: "<p>a & b</p>" } })).status).toBe(400);
    expect((await call("sendRichMessage", { chat_id, rich_message: { html: "<p>a</p>" }, parse_mode: "HTML" })).body.description).toMatch(
      /parameter "parse_mode" is not supported/,
    );
    const text = await call("sendMessage", { chat_id, text: "plain" });
    const rich = await call("sendRichMessage", { chat_id, rich_message: { html: "<p>rich</p>" } });
    const toRich = await call("editMessageText", { chat_id, message_id: text.body.result.message_id, rich_message: { html: "<p>x</p>" } });
    expect(toRich.body.description).toMatch(/a text message can't be edited into a rich message/);
    const toText = await call("editMessageText", { chat_id, message_id: rich.body.result.message_id, text: "x" });
    expect(toText.body.description).toMatch(/a rich message can't be edited into a text message/);
    expect(claimViolations(tg, "refused rich message").map((v) => v.detail.split(":")[0])).toEqual(["sendRichMessage", "sendRichMessage", "editMessageText"]);
    // A group refuses a draft; a private chat takes it and keeps nothing.
    expect((await call("sendRichMessageDraft", { chat_id, draft_id: 7, rich_message: { html: "<p>writing…</p>" } })).status).toBe(200);
    expect((await call("sendRichMessageDraft", { chat_id: -100123, draft_id: 7, rich_message: { html: "<p>x</p>" } })).status).toBe(400);
    expect(claimViolations(tg, "refused rich message")).toHaveLength(1);
    // The rich → text refusal is an ordinary edit's 400 (no rich_message): not a rich violation, nothing left.
    expect(takeUnclaimedViolations()).toEqual([]);
  });

  it("answers like a server older than 10.1 when rich messages are refused (a fake's default)", async () => {
    tg.setRichMessages("refused");
    try {
      const sent = await call("sendRichMessage", { chat_id, rich_message: { html: "<p>x</p>" } });
      expect(sent).toEqual({ status: 404, body: { ok: false, error_code: 404, description: "Not Found: method not found" } });
      expect((await call("sendRichMessageDraft", { chat_id, draft_id: 1, rich_message: { html: "<p>x</p>" } })).status).toBe(404);
      expect(takeUnclaimedViolations()).toEqual([]);
    } finally {
      tg.setRichMessages("supported");
    }
  });
});
