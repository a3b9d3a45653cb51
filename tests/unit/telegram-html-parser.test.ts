// The fakes' parse_mode=HTML parser (tests/support/telegram/html.ts) against tdlib's rules: what
// Telegram refuses with "can't parse entities", and what it accepts and shows. Both fakes use it:
// the HTTP fake Telegram of the end-to-end tests and the in-memory one of the bridge's unit tests.
import { describe, expect, it } from "vitest";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const refused = (text: string) => {
  const parsed = parseTelegramHtml(text);
  return parsed.ok ? undefined : parsed.error;
};
const shown = (text: string) => {
  const parsed = parseTelegramHtml(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.plain;
};

describe("refused as Telegram refuses it", () => {
  it.each([
    // The Done notice of issue 40: "<" opens a tag whose name runs to a blank or ">".
    ["12 tokens · <$0.001\n<i>Reply</i>", 'Unsupported start tag "$0.001" at byte offset 13'],
    ["a < b", 'Unsupported start tag "" at byte offset 2'],
    ["<div>x</div>", 'Unsupported start tag "div" at byte offset 0'],
    ["<b/>x</b>", 'Unsupported start tag "b/" at byte offset 0'],
    ["x <", "Unclosed start tag at byte offset 2"],
    ["<b", "Unclosed start tag at byte offset 0"],
    ["<b>x", 'Can\'t find end tag corresponding to start tag "b"'],
    ["<b><i>x</b></i>", 'Unmatched end tag at byte offset 7, expected "</i>", found "</b>"'],
    ["x</b>", "Unexpected end tag at byte offset 1"],
    ["<b>x</b y>", "Unclosed end tag at byte offset 4"],
    ['<a href="x" title>y</a>', 'Expected equal sign in declaration of an attribute of the tag "a" at byte offset 0'],
    ["<a href=x/y>z</a>", "Unexpected end of name token at byte offset 8"],
    ['<span class="x">s</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'],
    ["<constructor>x</constructor>", 'Unsupported start tag "constructor" at byte offset 0'],
    // Entities: the four named ones and numeric ones, each ended by ";" (the Bot API's documented rule).
    ["fish & chips", 'Unsupported or unescaped "&" at byte offset 5'],
    ["&nbsp;", 'Unsupported or unescaped "&" at byte offset 0'],
    ["&LT;", 'Unsupported or unescaped "&" at byte offset 0'],
    ["&lt b", 'Unsupported or unescaped "&" at byte offset 0'],
    ["&#0;", 'Unsupported or unescaped "&" at byte offset 0'],
    ["&#x110000;", 'Unsupported or unescaped "&" at byte offset 0'],
    ["&#0000000065;", 'Unsupported or unescaped "&" at byte offset 0'],
    ["é &", 'Unsupported or unescaped "&" at byte offset 3'],
    ["&#xD800;", "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units"],
    // Formatting nested in code is dropped by Telegram: refused, so a test sees it.
    ["<code><b>x</b></code>", 'Entities can\'t be nested inside "code" at byte offset 6'],
  ])("%j: %s", (text, error) => {
    expect(refused(text)).toBe(error);
  });
});

describe("accepted, and shown as Telegram shows it", () => {
  it("the four named entities, numeric ones, a bare '>' and quotes", () => {
    expect(shown("&lt;$0.001 &amp; &quot;x&quot; &gt; > ' &#36; &#x24; &#128512;")).toBe(`<$0.001 & "x" > > ' $ $ 😀`);
  });

  it("every supported tag, attributes quoted or not, an empty end tag, blockquote expandable", () => {
    const parsed = parseTelegramHtml(
      "<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ins>n</ins><s>s</s><strike>k</strike><del>d</del>" +
        '<tg-spoiler>p</tg-spoiler><span class="tg-spoiler">q</span><code>c</code><pre><code class="language-ts">x</code></pre>' +
        "<a href='https://x.y/?a=1&amp;b=2'>l</a><a href=https>m</a><blockquote expandable>q</blockquote><B>u</>",
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.plain).toBe("bsieunskdpqcxlmqu");
    expect(parsed.entities.find((entity) => entity.type === "text_link")?.url).toBe("https://x.y/?a=1&b=2");
    expect(parsed.entities.find((entity) => entity.type === "pre")?.language).toBe("ts");
    expect(parsed.entities.some((entity) => entity.type === "expandable_blockquote")).toBe(true);
  });
});

describe("the in-memory Telegram parses what the bridge sends", () => {
  it("refuses unparsable HTML in a message, an edit and a caption with Telegram's 400, and reports each", async () => {
    const telegram = new MemoryTelegram();
    const bad = trustedHtml("cost <$0.001 today");
    await expect(telegram.sendMessage(1, bad)).rejects.toThrow('Telegram 400: Bad Request: can\'t parse entities: Unsupported start tag "$0.001"');
    const { messageId } = await telegram.sendMessage(1, trustedHtml("<b>ok</b>"));
    await expect(telegram.editMessage(1, messageId, bad, [])).rejects.toThrow(/can't parse entities/);
    await expect(telegram.sendDocument(1, "a.txt", "x", { caption: bad })).rejects.toThrow(/can't parse entities/);
    await expect(telegram.sendFile(1, { as: "photo", filename: "a.png", bytes: new Uint8Array(1), mime: "image/png" }, { caption: bad })).rejects.toThrow(
      /can't parse entities/,
    );
    expect(telegram.takeUnparsable()).toHaveLength(4);
    expect(telegram.messages.map((message) => message.text)).toEqual(["<b>ok</b>"]);
  });
});
