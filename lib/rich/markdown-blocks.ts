// The agent's Markdown (marked's tokens) as rich HTML blocks: headings, paragraphs (its line breaks
// kept as `br`), code with its language, lists (task items with their checkbox), quotes, tables
// (a real table up to 20 columns, aligned monospace text past that), rules. Raw HTML is text, and
// only http(s) targets become links (as lib/text/markdown-rich.ts decides for today's
// messages). Every top-level block comes with what it takes of the limits, so a caller can keep as
// many as fit. Nesting stays within Telegram's 16 levels: a list or quote too deep is shown as its
// text, formatting too deep as its words. Pure: marked is only a type here.
import type { Token, Tokens } from "marked";
import { tableText } from "../text/markdown-table.ts";
import { escapeRich, joinRich, RICH_LIMITS, rich, richHeading, richLines, type RichHtml, type RichTally } from "./rich-html.ts";

export interface RichBlock extends RichTally {
  html: RichHtml;
  /** The Markdown it came from (a tail of it is what shows when the block itself can't). */
  source: string;
}

/** A code block's language becomes class="language-…" only when it is a plain name. */
const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,32}$/;
const LINKABLE = /^https?:\/\/\S+$/i;
/** Levels kept free under a block container for its text's own formatting (bold in a link in a cell). */
const INLINE_ROOM = 4;

/** Each top-level token as a rich block (blank space and link definitions make none). */
export function markdownBlocks(tokens: Token[]): RichBlock[] {
  const out: RichBlock[] = [];
  for (const token of tokens) {
    if (token.type === "space" || token.type === "def") continue;
    const writer = new Writer();
    const html = writer.block(token, 1);
    if (html !== undefined) out.push({ html, chars: writer.chars, blocks: writer.blocks, source: token.raw });
  }
  return out;
}

class Writer {
  chars = 0;
  blocks = 0;
  #inLink = false;

  /** `depth`: the level this block's own element stands at (1 at the top). */
  block(token: Token, depth: number): RichHtml | undefined {
    switch (token.type) {
      case "space":
      case "def":
      case "checkbox":
        return undefined;
      case "heading": {
        const heading = token as Tokens.Heading;
        this.blocks++;
        const level = Math.min(Math.max(heading.depth, 1), 6);
        return richHeading(level, this.inline(heading.tokens, depth + 1));
      }
      case "paragraph":
        this.blocks++;
        return rich`<p>${this.inline((token as Tokens.Paragraph).tokens, depth + 1)}</p>`;
      case "text":
        this.blocks++;
        return rich`<p>${this.inlineOf(token, depth + 1)}</p>`;
      case "code":
        return this.#code(token as Tokens.Code);
      case "hr":
        this.blocks++;
        return rich`<hr/>`;
      case "blockquote":
        if (depth + 1 + INLINE_ROOM > RICH_LIMITS.depth) return this.#asText(token.raw);
        this.blocks++;
        return rich`<blockquote>${this.#blocks((token as Tokens.Blockquote).tokens, depth + 1)}</blockquote>`;
      case "list":
        return this.#list(token as Tokens.List, depth);
      case "table":
        return this.#table(token as Tokens.Table, depth);
      default:
        // Raw HTML, and anything else marked may make: its text, as written.
        return this.#asText(typeof token.raw === "string" ? token.raw.replace(/\n+$/, "") : "");
    }
  }

  #blocks(tokens: Token[], depth: number): RichHtml {
    return joinRich(tokens.map((token) => this.block(token, depth)).filter((html) => html !== undefined));
  }

  /** Text shown as written, in a paragraph of its own: its lines as `br`. */
  #asText(text: string): RichHtml {
    this.blocks++;
    return rich`<p>${this.#text(text)}</p>`;
  }

  #code(code: Tokens.Code): RichHtml {
    this.blocks++;
    this.chars += code.text.length;
    const language = code.lang?.trim().split(/\s+/)[0] ?? "";
    const body = escapeRich(code.text);
    return LANGUAGE.test(language) ? rich`<pre><code class="language-${escapeRich(language)}">${body}</code></pre>` : rich`<pre>${body}</pre>`;
  }

  #list(list: Tokens.List, depth: number): RichHtml {
    // ul/ol and li are two levels.
    if (depth + 2 + INLINE_ROOM > RICH_LIMITS.depth) return this.#asText(list.raw.replace(/\n+$/, ""));
    this.blocks += 1 + list.items.length;
    const start = typeof list.start === "number" && list.ordered && list.start !== 1 ? rich` start="${list.start}"` : rich``;
    const items = list.items.map((item) => {
      const box = item.task ? (item.checked ? rich`<input type="checkbox" checked>` : rich`<input type="checkbox">`) : rich``;
      const content = item.tokens.filter((token) => token.type !== "checkbox" && token.type !== "space");
      // A tight item is inline text; one with blocks in it is blocks only (no text loose beside them).
      const inline = content.every((token) => token.type === "text");
      const body = inline ? joinRich(content.map((token) => this.inlineOf(token, depth + 2))) : this.#blocks(content, depth + 2);
      return rich`<li>${box}${body}</li>`;
    });
    return list.ordered ? rich`<ol${start}>${joinRich(items)}</ol>` : rich`<ul>${joinRich(items)}</ul>`;
  }

  #table(table: Tokens.Table, depth: number): RichHtml {
    const columns = Math.max(table.header.length, ...table.rows.map((row) => row.length));
    if (columns > RICH_LIMITS.tableColumns || depth + 3 + INLINE_ROOM > RICH_LIMITS.depth) {
      // Too wide for a table: aligned monospace text, as today's messages show every table.
      const text = tableText(table, (cell) => cellText(cell));
      this.blocks++;
      this.chars += text.length;
      return rich`<pre>${escapeRich(text)}</pre>`;
    }
    this.blocks += 1 + 1 + table.rows.length;
    const cell = (tag: "th" | "td", value: Tokens.TableCell, index: number) => {
      const align = table.align[index];
      const attr = align ? rich` align="${escapeRich(align)}"` : rich``;
      return tag === "th" ? rich`<th${attr}>${this.inline(value.tokens, depth + 3)}</th>` : rich`<td${attr}>${this.inline(value.tokens, depth + 3)}</td>`;
    };
    const row = (cells: Tokens.TableCell[], tag: "th" | "td") => rich`<tr>${joinRich(cells.map((value, index) => cell(tag, value, index)))}</tr>`;
    return rich`<table bordered>${row(table.header, "th")}${joinRich(table.rows.map((cells) => row(cells, "td")))}</table>`;
  }

  /** Inline tokens at `depth` (the level their first element would stand at). */
  inline(tokens: Token[], depth: number): RichHtml {
    return joinRich(tokens.map((token) => this.#inline(token, depth)));
  }

  inlineOf(token: Token, depth: number): RichHtml {
    const { tokens, text, raw } = token as Tokens.Generic;
    if (Array.isArray(tokens)) return this.inline(tokens, depth);
    // A text token's source as written: marked decodes numeric entities ("&#128512;") in its `text`.
    if (token.type === "text" && typeof raw === "string") return this.#text(raw);
    return typeof text === "string" ? this.#text(text) : rich``;
  }

  #inline(token: Token, depth: number): RichHtml {
    switch (token.type) {
      case "text":
        return this.inlineOf(token, depth);
      case "escape":
      case "html":
        return this.#text((token as Tokens.Escape).text);
      case "strong":
        return this.#wrap("b", token, depth);
      case "em":
        return this.#wrap("i", token, depth);
      case "del":
        return this.#wrap("s", token, depth);
      case "codespan": {
        const text = (token as Tokens.Codespan).text;
        if (depth > RICH_LIMITS.depth) return this.#text(text);
        this.chars += text.length;
        return rich`<code>${escapeRich(text)}</code>`;
      }
      case "br":
        return rich`<br/>`;
      case "link":
        return this.#link(token as Tokens.Link, depth);
      case "image": {
        const image = token as Tokens.Image;
        const label = `🖼 ${image.text || image.href}`;
        if (this.#inLink || depth > RICH_LIMITS.depth || !LINKABLE.test(image.href.trim())) {
          return this.#text(image.href && image.text ? `${label} (${image.href})` : label);
        }
        return rich`<a href="${escapeRich(image.href.trim())}">${this.#text(label)}</a>`;
      }
      case "checkbox":
        return rich``;
      default:
        return this.#text(typeof token.raw === "string" ? token.raw : "");
    }
  }

  #wrap(tag: "b" | "i" | "s", token: Token, depth: number): RichHtml {
    // Too deep for one more level: the words without this formatting.
    if (depth > RICH_LIMITS.depth) return this.inlineOf(token, depth);
    const body = this.inlineOf(token, depth + 1);
    return tag === "b" ? rich`<b>${body}</b>` : tag === "i" ? rich`<i>${body}</i>` : rich`<s>${body}</s>`;
  }

  #link(link: Tokens.Link, depth: number): RichHtml {
    const href = link.href.trim();
    if (this.#inLink || depth > RICH_LIMITS.depth) return this.inline(link.tokens, depth);
    if (!LINKABLE.test(href)) {
      // Not a link Telegram should open (a path, mailto:, javascript:, tg:): its text, and where it pointed.
      const shown = this.inline(link.tokens, depth);
      return !link.autolink && link.href && link.href !== link.text ? rich`${shown}${this.#text(` (${link.href})`)}` : shown;
    }
    this.#inLink = true;
    const body = this.inline(link.tokens, depth + 1);
    this.#inLink = false;
    return rich`<a href="${escapeRich(href)}">${body}</a>`;
  }

  /** Text shown as written: escaped, its line breaks as `br`. */
  #text(text: string): RichHtml {
    this.chars += text.length;
    return richLines(text);
  }
}

/** A cell's words, without formatting (for a table shown as text). */
function cellText(cell: Tokens.TableCell): string {
  const walk = (tokens: Token[]): string =>
    tokens
      .map((token) => {
        const { tokens: inner, text } = token as Tokens.Generic;
        return Array.isArray(inner) ? walk(inner) : typeof text === "string" ? text : typeof token.raw === "string" ? token.raw : "";
      })
      .join("");
  return walk(cell.tokens);
}
