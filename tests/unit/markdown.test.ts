// A corpus of realistic agent answers and the exact Telegram HTML each becomes, and how formatted
// text is cut: on graphemes, by what Telegram counts, every tag closed where it opened.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { visibleLength } from "../../lib/text/html.ts";
import { loadMarkdown, type Markdown } from "../../lib/text/markdown.ts";
import { displayWidth } from "../../lib/text/markdown-table.ts";
import { ANSWER_FILE, renderAgentText, renderAnswer } from "../../lib/telegram/render/render-agent-text.ts";
import { richHead, richHtml, richTail } from "../../lib/text/rich-text.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const t = CATALOGS.en;
let markdown: Markdown;
const html = async (source: string) => {
  markdown ??= await loadMarkdown();
  const out = richHtml(markdown(source));
  const parsed = parseTelegramHtml(out);
  if (!parsed.ok) throw new Error(`invalid Telegram HTML: ${parsed.error}`);
  return out;
};

describe("Markdown → Telegram HTML: a corpus of agent answers", () => {
  it("a summary with a heading, bold, italic, inline code, a link, a list and a ts block", async () => {
    const source = [
      "## Summary",
      "",
      "I fixed **the login bug** and *cleaned up* the `auth` module. Details: [PR #12](https://github.com/acme/app/pull/12).",
      "",
      "- Added `validate<T>()`",
      "- Removed the old cache",
      "",
      "```ts",
      "export function validate<T>(value: T): boolean {",
      "  return value !== null && value !== undefined;",
      "}",
      "```",
    ].join("\n");
    expect(await html(source)).toBe(
      "<b>Summary</b>\n\nI fixed <b>the login bug</b> and <i>cleaned up</i> the <code>auth</code> module. " +
        'Details: <a href="https://github.com/acme/app/pull/12">PR #12</a>.\n\n' +
        "• Added <code>validate&lt;T&gt;()</code>\n• Removed the old cache\n\n" +
        '<pre><code class="language-ts">export function validate&lt;T&gt;(value: T): boolean {\n' +
        "  return value !== null &amp;&amp; value !== undefined;\n}</code></pre>",
    );
  });

  it("nested lists: numbers, bullets and tasks, indented by depth", async () => {
    const source = "1. Build\n   - run `npm ci`\n   - run `npm test`\n     - unit\n     - e2e\n2. Ship\n   - [x] tag the release\n   - [ ] announce it";
    expect(await html(source)).toBe(
      "1. Build\n   • run <code>npm ci</code>\n   • run <code>npm test</code>\n      • unit\n      • e2e\n2. Ship\n   ☑ tag the release\n   ☐ announce it",
    );
  });

  it("code with <T>, && and </pre> inside stays one code block, escaped", async () => {
    expect(await html("Use this:\n\n```tsx\nconst el = <Box<T>>{a && b}</Box>; // </pre> & </code>\n```")).toBe(
      'Use this:\n\n<pre><code class="language-tsx">const el = &lt;Box&lt;T&gt;&gt;{a &amp;&amp; b}&lt;/Box&gt;; // &lt;/pre&gt; &amp; &lt;/code&gt;</code></pre>',
    );
  });

  it("links with parentheses; only http: and https: become links, anything else (tg: too) stays text with its target shown", async () => {
    const source =
      "See [the docs](https://en.wikipedia.org/wiki/Markdown_(disambiguation)), [a file](lib/text/html.ts), [bad](javascript:alert(1)), " +
      "<https://example.com/x?a=1&b=2> and ops@example.com. Open [the chat](tg://resolve?domain=hermes), [notes](TG://proxy?server=evil.example&port=443&secret=dd00).";
    expect(await html(source)).toBe(
      'See <a href="https://en.wikipedia.org/wiki/Markdown_(disambiguation)">the docs</a>, a file (lib/text/html.ts), bad (javascript:alert(1)), ' +
        '<a href="https://example.com/x?a=1&amp;b=2">https://example.com/x?a=1&amp;b=2</a> and ops@example.com. ' +
        "Open the chat (tg://resolve?domain=hermes), notes (TG://proxy?server=evil.example&amp;port=443&amp;secret=dd00).",
    );
  });

  it("a table is aligned monospace text (CJK and emoji take two columns), its alignment kept", async () => {
    const source = "| File | Lines | 状态 |\n|:-----|------:|:----:|\n| `html.ts` | 205 | ✅ 完成 |\n| rich-text.ts | 120 | 🚧 |";
    expect(await html(source)).toBe(
      "<pre>File         | Lines |  状态\n-------------+-------+--------\nhtml.ts      |   205 | ✅ 完成\nrich-text.ts |   120 |   🚧</pre>",
    );
    expect([displayWidth("状态"), displayWidth("✅ 完成"), displayWidth("👨‍👩‍👧"), displayWidth("é")]).toEqual([4, 7, 2, 1]);
  });

  it("Chinese text and emoji render like any other", async () => {
    expect(await html("# 完成情况\n\n我已经**修复**了登录问题 🎉，并且更新了 *文档*。\n\n> 注意：需要重新运行 `npm install`。")).toBe(
      "<b>完成情况</b>\n\n我已经<b>修复</b>了登录问题 🎉，并且更新了 <i>文档</i>。\n\n<blockquote>注意：需要重新运行 <code>npm install</code>。</blockquote>",
    );
  });

  it("an unclosed fence runs to the end, as in the terminal", async () => {
    expect(await html('Run:\n\n```bash\nnpm run build && npm test\necho "<done>"')).toBe(
      'Run:\n\n<pre><code class="language-bash">npm run build &amp;&amp; npm test\necho &quot;&lt;done&gt;&quot;</code></pre>',
    );
  });

  it("raw HTML is shown as text, never passed through", async () => {
    expect(await html('Use <b>bold</b> or <script>alert(\'x\')</script> &amp; &lt;tags&gt;.\n\n<div align="center">\n  <img src="x.png">\n</div>')).toBe(
      "Use &lt;b&gt;bold&lt;/b&gt; or &lt;script&gt;alert('x')&lt;/script&gt; &amp;amp; &amp;lt;tags&amp;gt;.\n\n" +
        "&lt;div align=&quot;center&quot;&gt;\n  &lt;img src=&quot;x.png&quot;&gt;\n&lt;/div&gt;",
    );
  });

  it("quotes: a nested one joins its outer quote (Telegram nests none), a long one is folded", async () => {
    expect(await html("> short quote\n> > nested inside\n\n> one\n> two\n> three\n> four\n> five")).toBe(
      "<blockquote>short quote\nnested inside</blockquote>\n\n<blockquote expandable>one\ntwo\nthree\nfour\nfive</blockquote>",
    );
  });

  it("images are links (or text with their path), code inside a link is plain, formatting inside a link kept", async () => {
    expect(await html("![diagram](https://example.com/d.png) and ![local](./shot.png)")).toBe(
      '<a href="https://example.com/d.png">🖼 diagram</a> and 🖼 local (./shot.png)',
    );
    expect(await html("[`Lexer.lex`](https://marked.js.org/using_pro#lexer) and **bold [link *it*](https://a.example)**")).toBe(
      '<a href="https://marked.js.org/using_pro#lexer">Lexer.lex</a> and <b>bold <a href="https://a.example">link <i>it</i></a></b>',
    );
  });

  it("bold inside a bold heading is written once (no tag nested in the same tag)", async () => {
    expect(await html("## The **new** parser *is **fast***")).toBe("<b>The new parser <i>is fast</i></b>");
  });

  it("a code block's language is kept only when it is a plain name; rules, line breaks, strikethrough", async () => {
    expect(await html("```ts {1,3}\na\n```\n\n```<script>\nb\n```\n\n    indented code\n\n---\n\nText after\\\nbreak ~~gone~~")).toBe(
      '<pre><code class="language-ts">a</code></pre>\n\n<pre>b</pre>\n\n<pre>indented code</pre>\n\n──────────\n\nText after\nbreak <s>gone</s>',
    );
  });
});

describe("cutting formatted text", () => {
  const source = "**Bold start** then a long code block:\n\n```ts\nconst a = 1;\nconst b = a && 2;\n```\n\nLast *line* here.";

  it("the tail keeps the end, reopens the entity it starts inside, and starts on a whole line when one is near", async () => {
    markdown ??= await loadMarkdown();
    const rich = markdown(source);
    expect(richHtml(richTail(rich, 30))).toBe("…Last <i>line</i> here.");
    expect(richHtml(richTail(rich, 40))).toBe('…<pre><code class="language-ts">const b = a &amp;&amp; 2;</code></pre>\n\nLast <i>line</i> here.');
    expect(richTail(rich, 40).text.length).toBeLessThanOrEqual(40);
    expect(richTail(rich, 1000)).toBe(rich);
  });

  it("the head keeps the start and closes what it cuts", async () => {
    markdown ??= await loadMarkdown();
    const rich = markdown(source);
    expect(richHtml(richHead(rich, 10))).toBe("<b>Bold star</b>…");
    expect(richHtml(richHead(rich, 30))).toBe("<b>Bold start</b> then a long code b…");
  });

  it("never inside an emoji: a family (8 UTF-16 units) stays whole or goes", async () => {
    markdown ??= await loadMarkdown();
    const family = "👨‍👩‍👧";
    const rich = markdown(`**${family.repeat(5)}**`);
    for (const max of [9, 12, 16]) {
      expect(richHtml(richTail(rich, max))).toBe(`…<b>${family}</b>`);
      expect(richHtml(richHead(rich, max))).toBe(`<b>${family}</b>…`);
    }
    expect(richHtml(richTail(rich, 17))).toBe(`…<b>${family.repeat(2)}</b>`);
  });

  it("an answer that does not fit: its end, under a line that says so and names answer.md; counted as Telegram counts", async () => {
    markdown ??= await loadMarkdown();
    const answer = `# Plan\n\n${"Step with `code` & <tags>. ".repeat(300)}\n\nNext: **ship it**.`;
    const rendered = renderAnswer(answer, markdown, 1000, t);
    expect(rendered.shortened).toBe(true);
    expect(rendered.html.startsWith(t.answer.shortened(trustedHtml(ANSWER_FILE)))).toBe(true);
    expect(rendered.html.endsWith("Next: <b>ship it</b>.")).toBe(true);
    // Entities and tags don't count: the HTML is far longer than what Telegram counts.
    expect(visibleLength(rendered.html)).toBeLessThanOrEqual(1000);
    expect(visibleLength(rendered.html)).toBeGreaterThan(950);
    expect(rendered.html.length).toBeGreaterThan(1000);
    expect(renderAnswer("A **short** answer.", markdown, 1000, t)).toEqual({ html: "A <b>short</b> answer.", shortened: false });
  });

  it("agent text in a prompt keeps its start; hidden characters are marked before parsing", async () => {
    markdown ??= await loadMarkdown();
    expect(renderAgentText("Which **database**?\u202E", markdown, 100, t)).toEqual({ html: "Which <b>database</b>?⟨U+202E⟩", cut: false });
    expect(renderAgentText(`Pick **one** of ${"many ".repeat(50)}`, markdown, 20, t)).toEqual({ html: "Pick <b>one</b> of many ma…", cut: true });
    // In a prompt, long blank runs are marked too (nothing pushed out of view), inside formatting as well.
    expect(renderAgentText(`Deploy?${" ".repeat(500)}**(also wipes prod)**`, markdown, 200, t).html).toBe("Deploy?⟨500 spaces⟩<b>(also wipes prod)</b>");
    // An answer keeps its code's indentation as written.
    expect(renderAnswer("```py\nif x:\n            deep()\n```", markdown, 100, t).html).toBe(
      '<pre><code class="language-py">if x:\n            deep()</code></pre>',
    );
    // Without the parser (not loaded), the text is shown as it is.
    expect(renderAgentText("**as is**", undefined, 100, t)).toEqual({ html: "**as is**", cut: false });
  });
});
