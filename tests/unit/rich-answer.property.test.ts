// Property (issue 52): the agent's Markdown as a rich message (lib/rich/) always passes the fakes'
// rich validator (tests/support/telegram/rich.ts: documented tags only, every limit) and shows
// hostile text ("<", "&", quotes, entity and tag look-alikes, CJK, emoji) verbatim wherever the
// Markdown puts it: a heading, a paragraph, a list or task item, a quote, a table cell, a link,
// bold, inline code, a code block. Random Markdown soup and answers past every limit (characters,
// blocks, nesting, table columns) pass too, and so do the other rich renderers with hostile text: a
// permission's long diff, /diff's files in their blocks, /schedules' table. A seeded generator: a
// failure names its seed and case.
import { Lexer } from "marked";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { createPermissionPrompt } from "../../lib/registry/permission-prompt.ts";
import { renderRichAnswer } from "../../lib/rich/rich-answer.ts";
import { renderPermissionRich } from "../../lib/telegram/render/render-permission.ts";
import { renderDiffRich } from "../../lib/telegram/render/render-diff-rich.ts";
import { renderScheduleListRich } from "../../lib/telegram/render/render-schedules.ts";
import { renderHistoryRich } from "../../lib/telegram/render/render-vocabulary.ts";
import { escapeHtml } from "../../lib/text/html.ts";
import { richFromHtml } from "../../lib/rich/rich-html.ts";
import { html } from "../../lib/text/html.ts";
import { findBlocks, plainOf, readRichMessage, type RichContent } from "../support/telegram/rich.ts";
import { seededRandom } from "../support/seeded-random.ts";

const SEED = 20261201;
const CASES = 80;
const t = CATALOGS.en;
const HEAD = html`✅ <b>Done</b> after 3s · 1.2k tokens\n📁 <code>hermes</code> · a &lt;title&gt;`;
const TAIL = html`📝 <b>1 file changed</b> (+1 −0):\n<code>a.ts</code> +1 −0\n\n<i>Reply to this message to send the agent your next instruction.</i>`;

function render(markdown: string): { content: RichContent; shortened: boolean } {
  const answer = renderRichAnswer(HEAD, Lexer.lex(markdown, { gfm: true }), TAIL, "answer.md", t);
  if (!answer) throw new Error("no rich form");
  const read = readRichMessage({ html: answer.html });
  if (!read.ok) throw new Error(`refused: ${read.error}\n${answer.html.slice(0, 2000)}`);
  return { content: read.content, shortened: answer.shortened };
}

/** Hostile text with no Markdown meaning of its own (no *, _, `, [, |, #, ~ or a leading > or -). */
const ATOMS = [
  "<",
  ">",
  "&",
  '"',
  "'",
  "&amp;",
  "&lt;",
  "&copy;",
  "&#128512;",
  "<b>",
  "</p>",
  "<details>",
  "<tg-button>",
  "<br/>",
  "AT&T",
  "a<b && c>d",
  "x",
  "fix",
  " ",
  "漢字",
  "中文，标点。",
  "😀",
  "👨‍👩‍👧",
  "🇫🇷",
];

function hostile(seed: number): () => string {
  const { int, pick } = seededRandom(seed);
  return () => {
    const pieces = Array.from({ length: 1 + int(6) }, () => pick(ATOMS));
    pieces.splice(int(pieces.length + 1), 0, pick(["<", "&", ">", '"']));
    return `x${pieces.join("").replace(/ +/g, " ")}x`;
  };
}

/** Markdown with `s` where each kind of block or span shows text; `verbatim`: shown exactly as typed. */
const PLACES: Array<{ name: string; markdown: (s: string) => string; pre?: boolean }> = [
  { name: "heading", markdown: (s) => `## ${s}` },
  { name: "paragraph", markdown: (s) => `Before ${s} after.` },
  { name: "lines", markdown: (s) => `${s}\n${s}` },
  { name: "list item", markdown: (s) => `- ${s}\n- two` },
  { name: "ordered item", markdown: (s) => `3. ${s}\n4. four` },
  { name: "task item", markdown: (s) => `- [x] ${s}\n- [ ] open` },
  { name: "nested item", markdown: (s) => `- one\n  - ${s}` },
  { name: "quote", markdown: (s) => `> ${s}` },
  { name: "table cell", markdown: (s) => `| a | b |\n|---|:-:|\n| ${s} | 2 |` },
  { name: "link", markdown: (s) => `[${s}](https://example.com/?a=1&b="2")` },
  { name: "bold", markdown: (s) => `**${s}**` },
  { name: "inline code", markdown: (s) => `\`\` ${s} \`\`` },
  { name: "code block", markdown: (s) => `\`\`\`ts\n${s}\n  ${s}\n\`\`\``, pre: true },
];

describe("rich answers: hostile text shows verbatim wherever Markdown puts it", () => {
  for (const place of PLACES) {
    it(place.name, () => {
      const next = hostile(SEED + place.name.length);
      for (let i = 0; i < CASES; i++) {
        const text = next();
        const { content } = render(place.markdown(text));
        const expected = place.pre ? `${text}\n  ${text}` : text;
        // Inside a line, a blank stays one blank; a line is a line.
        expect(content.plain, `case ${i}: ${JSON.stringify(text)}`).toContain(expected.replace(/^ +| +$/g, ""));
      }
    });
  }

  it("the header and the tail show as Hermes wrote them", () => {
    const { content } = render("ok");
    expect(content.plain).toMatch(
      /^✅ Done after 3s · 1.2k tokens\n📁 hermes · a <title>\nok\n📝 1 file changed \(\+1 −0\):\na\.ts \+1 −0\n\nReply to this message/,
    );
  });
});

describe("rich answers: any Markdown passes the validator", () => {
  const MARKERS = [
    "*",
    "**",
    "_",
    "`",
    "```",
    "~~",
    "|",
    "# ",
    "> ",
    "- ",
    "1. ",
    "- [ ] ",
    "[",
    "](",
    ")",
    "![",
    "\n",
    "\n\n",
    "    ",
    "---",
    "<",
    "&",
    "<div>",
    "</div>",
    "<details open>",
    "https://x.y/a_b?c=1&d=2",
    "javascript:alert(1)",
    "tg://resolve?domain=x",
    "\\",
    "$x$",
    "||spoiler||",
    "==mark==",
  ];
  it("random soup of markers and hostile text", () => {
    const { int, pick } = seededRandom(SEED);
    const next = hostile(SEED + 1);
    for (let i = 0; i < CASES * 3; i++) {
      const parts = Array.from({ length: 1 + int(40) }, () => (int(3) === 0 ? next() : pick(MARKERS)));
      const markdown = parts.join("");
      expect(() => render(markdown), `case ${i}: ${JSON.stringify(markdown)}`).not.toThrow();
    }
  });
});

describe("rich answers: within Telegram's limits", () => {
  it("a 6,000-character answer with a table is whole, with a table block", () => {
    const prose = "The change keeps every check in one place & moves the <b> escaping out. ".repeat(84);
    const markdown = `## Summary\n\n${prose}\n\n| file | +/− |\n|---|--:|\n| a.ts | +3 −1 |\n| b.ts | +10 −0 |\n\n\`\`\`ts\nconst x = a < b;\n\`\`\``;
    expect(markdown.length).toBeGreaterThan(6000);
    const { content, shortened } = render(markdown);
    expect(shortened).toBe(false);
    expect(findBlocks(content, "table")).toHaveLength(1);
    expect(findBlocks(content, "th").map((th) => th.attrs)).toEqual([{}, { align: "right" }]);
    expect(findBlocks(content, "code").find((code) => code.attrs.class)?.attrs.class).toBe("language-ts");
    expect(content.plain).toContain(prose.trim());
  });

  it("a 40,000-character answer keeps its end within the limits, says so, and is shortened", () => {
    const markdown = Array.from({ length: 400 }, (_, i) => `Paragraph ${i}: ${"words & <more> ".repeat(6)}`).join("\n\n");
    expect(markdown.length).toBeGreaterThan(40_000);
    const { content, shortened } = render(markdown);
    expect(shortened).toBe(true);
    expect(content.stats.chars).toBeLessThanOrEqual(32768);
    expect(content.plain).toContain("Paragraph 399:");
    expect(content.plain).not.toContain("Paragraph 0:");
    expect(content.plain).toMatch(
      /Only the end of the answer fits in one message \(\d+ of its \d+ characters\): the whole answer is in the file answer\.md below\./,
    );
  });

  it("more blocks than 500: the end that fits", () => {
    const { content, shortened } = render(Array.from({ length: 700 }, (_, i) => `line ${i}`).join("\n\n"));
    expect(shortened).toBe(true);
    expect(content.stats.blocks).toBeLessThanOrEqual(500);
    expect(content.plain).toContain("line 699");
  });

  it("one block past the limits (a 50,000-character code block, a list of 1,000 items): its end as text", () => {
    for (const markdown of [`\`\`\`\n${"x < y && z\n".repeat(5000)}\`\`\``, Array.from({ length: 1000 }, (_, i) => `- item ${i}`).join("\n")]) {
      const { content, shortened } = render(markdown);
      expect(shortened).toBe(true);
      expect(content.stats.chars).toBeLessThanOrEqual(32768);
    }
  });

  it("nesting deeper than 16 levels: lists and quotes too deep show as their text", () => {
    const lists = Array.from({ length: 30 }, (_, i) => `${"  ".repeat(i)}- level ${i} **bold [link](https://x.y) *it***`).join("\n");
    const quotes = `${Array.from({ length: 30 }, () => ">").join(" ")} deep **bold**`;
    const emphasis = `${"*".repeat(40)}x${"*".repeat(40)}`;
    for (const markdown of [lists, quotes, emphasis]) {
      const { content } = render(markdown);
      expect(content.stats.depth).toBeLessThanOrEqual(16);
    }
    expect(render(lists).content.plain).toContain("level 29");
  });

  it("a table wider than 20 columns is aligned text", () => {
    const header = `|${Array.from({ length: 25 }, (_, i) => ` c${i} `).join("|")}|`;
    const rule = `|${"---|".repeat(25)}`;
    const row = `|${Array.from({ length: 25 }, (_, i) => ` ${i} `).join("|")}|`;
    const { content } = render(`${header}\n${rule}\n${row}`);
    expect(findBlocks(content, "table")).toHaveLength(0);
    expect(content.plain).toContain("c0 | c1 | c2");
  });

  it("Hermes' lines with no rich form give no rich message", () => {
    expect(richFromHtml(html`<blockquote>x</blockquote>`)).toBeUndefined();
    expect(richFromHtml(html`<span class="tg-spoiler">x</span>`)).toBeUndefined();
    expect(renderRichAnswer(html`<pre>x</pre>`, [], undefined, "answer.md", t)).toBeUndefined();
  });
});

describe("rich permissions: a long diff of hostile text passes the validator and shows verbatim", () => {
  it("the file, the title, the project and every line of the diff", () => {
    const next = hostile(SEED + 7);
    for (let i = 0; i < CASES / 2; i++) {
      const file = `/p/${next()}.ts`;
      const lines = Array.from({ length: 120 }, () => `+${next()}`);
      const diff = [`--- ${file}`, `+++ ${file}`, "@@ -0,0 +1,120 @@", ...lines].join("\n");
      const prompt = createPermissionPrompt(
        { id: `per_${i}`, sessionID: "ses_1", permission: "edit", patterns: [file], metadata: { filepath: file, diff }, always: ["*"] },
        "/p",
        `k${i}`,
        0,
      );
      const project = next();
      const rendered = renderPermissionRich(prompt, { project, sessionTitle: next(), t });
      expect(rendered, `case ${i}`).toBeDefined();
      const read = readRichMessage({ html: rendered!.rich });
      if (!read.ok) throw new Error(`case ${i} refused: ${read.error}`);
      const [details] = findBlocks(read.content, "details");
      expect(plainOf(details!), `case ${i}`).toContain(lines.join("\n"));
      expect(read.content.plain).toContain(file);
      expect(read.content.plain).toContain(project.replace(/ +/g, " "));
      expect(rendered!.keyboard.flat().map((button) => button.text)).toContain("Allow once");
    }
  });
});

describe("rich lists: /diff and /schedules of hostile text pass the validator and show verbatim", () => {
  it("/diff: every file's name on its block's summary and every line of its change", () => {
    const next = hostile(SEED + 11);
    for (let i = 0; i < CASES / 2; i++) {
      const paths = Array.from({ length: 1 + (i % 4) }, () => `src/${next()}.ts`);
      const changes = paths.map(() => Array.from({ length: 20 }, () => `+${next()}`));
      const diff = paths
        .map((path, n) => [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, "@@ -0,0 +1,20 @@", ...changes[n]!].join("\n"))
        .join("\n");
      const files = paths.map((path) => ({ path, kind: "modified" as const, added: 20, removed: 0, binary: false }));
      const project = next();
      const rendered = renderDiffRich({ project, branch: next(), upstream: undefined, ahead: 0, behind: 0, files }, diff, t);
      expect(rendered, `case ${i}`).toBeDefined();
      const read = readRichMessage({ html: rendered!.rich });
      if (!read.ok) throw new Error(`case ${i} refused: ${read.error}`);
      const blocks = findBlocks(read.content, "details");
      expect(blocks, `case ${i}`).toHaveLength(paths.length);
      blocks.forEach((block, n) => {
        expect(plainOf(block.children[0]!)).toContain(paths[n]!.replace(/ +/g, " "));
        expect(plainOf(block)).toContain(changes[n]!.join("\n"));
      });
      expect(read.content.plain).toContain(project.replace(/ +/g, " "));
    }
  });

  it("/history: a row a prompt, each with its prompt and its files, a page at a time", () => {
    const next = hostile(SEED + 17);
    let drawn = 0;
    for (let i = 0; i < CASES / 4; i++) {
      const entries = Array.from({ length: 1 + (i % 12) }, (_, n) => ({ messageID: `msg_${n}`, text: next(), files: [`src/${next()}.ts`] }));
      const rendered = renderHistoryRich(entries, escapeHtml(next()), 0, t);
      if (rendered === undefined) continue; // a line with no rich form: today's message instead
      const read = readRichMessage({ html: rendered });
      if (!read.ok) throw new Error(`case ${i} refused: ${read.error}`);
      const rows = findBlocks(read.content, "tr").slice(1);
      expect(rows, `case ${i}`).toHaveLength(Math.min(entries.length, 5));
      for (const row of rows) expect(plainOf(row.children[1] as never).trim(), `case ${i}`).not.toBe("");
      drawn++;
    }
    // Hostile text has a rich form nearly always: most cases are tables.
    expect(drawn).toBeGreaterThan(CASES / 8);
  });

  it("/schedules: every instruction and project in its table cell", () => {
    const next = hostile(SEED + 13);
    for (let i = 0; i < CASES / 4; i++) {
      const views = Array.from({ length: 1 + (i % 10) }, (_, n) => ({
        id: `s${n}`,
        directory: `/home/dev/${next()}`,
        when: { kind: "interval" as const, minutes: 30, anchor: 0 },
        instruction: next(),
        next: 60_000 * (n + 1),
      }));
      const read = readRichMessage({ html: renderScheduleListRich(views, 0, t) });
      if (!read.ok) throw new Error(`case ${i} refused: ${read.error}`);
      const rows = findBlocks(read.content, "tr").slice(1);
      expect(
        rows.map((row) => plainOf(row.children[4] as never)),
        `case ${i}`,
      ).toEqual(views.map((view) => view.instruction.replace(/ +/g, " ")));
    }
  });
});
