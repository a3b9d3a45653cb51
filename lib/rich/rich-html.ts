// Rich HTML (Bot API 10.1's sendRichMessage, `rich_message.html`): the `RichHtml` type, escaping,
// and Telegram's limits. A rich message is blocks (paragraphs, headings, code, lists, tables,
// collapsible sections) of inline formatting; its HTML is another language than parse_mode HTML
// (lib/text/html.ts' `Html`), so it has a type of its own: one can't be sent as the other.
// Only this file makes RichHtml: `escapeRich` (any text), the `rich` template (literal parts are
// Hermes' own markup, values RichHtml or numbers), `joinRich`, `richLines`, `richHeading`,
// `richInline` (a line of Hermes' HTML as a cell's inline content), `richFromHtml`, which turns a line of Hermes' own Telegram HTML (a header, a hint) into a
// paragraph, and `trustedRich` for the scrubber's output. Pure.
import type { Html } from "../text/html.ts";

declare const richMarkup: unique symbol;

/** Rich HTML that Hermes built: its markup is Hermes' own, every outside text in it escaped. */
export type RichHtml = string & { readonly [richMarkup]: true };

/**
 * Telegram's limits for one rich message (core.telegram.org/bots/api/rich-messages, "Rich Message
 * Limits"): characters of text (counted here in UTF-16 units, never fewer than the code points the
 * page may mean), blocks (nested blocks, list items and table rows included), levels of nested
 * formatting and blocks, columns of a table.
 */
export const RICH_LIMITS = { text: 32768, blocks: 500, depth: 16, tableColumns: 20 } as const;

function asRich(text: string): RichHtml {
  return text as RichHtml;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text as rich HTML shows it verbatim: `&`, `<`, `>` and `"` escaped (as escapeHtml does, so a secret's escaped form is the same in both). */
export function escapeRich(text: string): RichHtml {
  return asRich(text.replace(LONE_SURROGATE, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"));
}

/** Rich HTML from a template: the literal parts are markup, every value RichHtml already or a number. */
export function rich(markup: TemplateStringsArray, ...values: ReadonlyArray<RichHtml | number>): RichHtml {
  let out = markup[0] ?? "";
  values.forEach((value, index) => {
    out += String(value) + (markup[index + 1] ?? "");
  });
  return asRich(out);
}

/** Markup Hermes vouches for where the template can't say it (rich HTML with a secret's plain text stood in for: lib/telegram/wire/scrubbed-api.ts). */
export function trustedRich(markup: string): RichHtml {
  return asRich(markup);
}

export function joinRich(parts: readonly RichHtml[], separator: "" | "\n" = ""): RichHtml {
  return asRich(parts.join(separator));
}

/** Text shown as written, its line breaks as `br` (outside `pre` a newline reads as a space). */
export function richLines(text: string): RichHtml {
  return asRich(
    text
      .split("\n")
      .map((line) => escapeRich(line))
      .join("<br/>"),
  );
}

/** A heading of size 1 to 6 (out of range: the nearest). */
export function richHeading(level: number, body: RichHtml): RichHtml {
  const size = Math.min(Math.max(Math.round(level), 1), 6);
  return asRich(`<h${size}>${body}</h${size}>`);
}

/** A collapsible block (closed): `summary` is a paragraph (richFromHtml), `body` its blocks. */
export function richDetails(summary: RichHtml, body: RichHtml): RichHtml {
  return asRich(`<details><summary>${summary.replace(/^<p>|<\/p>$/g, "")}</summary>${body}</details>`);
}

/** Inline tags of Telegram HTML that mean the same in rich HTML. */
const SAME_INLINE = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "code", "a"]);
const TAG = /<(\/?)([a-z-]+)([^>]*)>/g;

/**
 * Hermes' own Telegram HTML (a header, a line of changes, a hint: escaped text and inline tags) as
 * one rich paragraph, its line breaks as `br`; undefined when it holds what rich HTML has no inline
 * form for (a quote, a code block, a spoiler), which a caller then sends as today's HTML.
 */
export function richFromHtml(html: Html): RichHtml | undefined {
  const inline = inlineFromHtml(html);
  return inline === undefined ? undefined : asRich(`<p>${inline}</p>`);
}

/** Hermes' own Telegram HTML of inline tags as rich inline content (a table cell's), its line breaks as `br`; undefined for any other tag. */
export function richInline(html: Html): RichHtml | undefined {
  const inline = inlineFromHtml(html);
  return inline === undefined ? undefined : asRich(inline);
}

/** Telegram HTML of inline tags only, its line breaks as `br`; undefined for any other tag. */
function inlineFromHtml(markup: string): string | undefined {
  for (const match of markup.matchAll(TAG)) {
    const [, , name, attrs] = match;
    if (!SAME_INLINE.has(name!)) return undefined;
    if (name === "a" ? !/^(?:\s+href="[^"]*")?\s*$/.test(attrs!) : attrs!.trim() !== "") return undefined;
  }
  return markup.trim().split("\n").join("<br/>");
}

const LANGUAGE_CLASS = /^ class="language-[A-Za-z0-9_+#.-]{1,32}"$/;

/**
 * Hermes' own Telegram HTML of any shape (a prompt: lines, code blocks, quotes) as rich blocks: its
 * code blocks as `pre` (their language kept), its quotes as `blockquote` (a folded one shown
 * open: rich messages document no folded quote), a spoiler as `tg-spoiler`, the lines between as
 * paragraphs, a blank line starting the next; undefined when it holds a tag rich HTML has no form
 * for. Its text is already escaped (entities Telegram HTML allows are a subset of rich HTML's).
 */
export function richBlocksFromHtml(html: Html): RichHtml | undefined {
  const out: string[] = [];
  let text = "";
  /** Inline tags open in the current paragraph, to close and reopen around its line breaks. */
  const open: string[] = [];
  const paragraph = () => {
    const body = text.replace(/^\n+|\n+$/g, "");
    text = "";
    if (body.trim() === "") return;
    out.push(`<p>${body.split("\n").join("<br/>")}</p>`);
  };
  let at = 0;
  for (const match of html.matchAll(TAG)) {
    const [whole, closing, name, attrs] = match;
    const before = html.slice(at, match.index);
    at = match.index + whole.length;
    if (name === "pre" || name === "blockquote") {
      if (closing || open.length > 0) return undefined;
      const end = html.indexOf(`</${name}>`, at);
      if (end < 0) return undefined;
      text += before;
      paragraph();
      const inner = html.slice(at, end);
      at = end + name.length + 3;
      if (name === "pre") {
        const code = /^<code( class="[^"]*")?>([\s\S]*)<\/code>$/.exec(inner);
        if (code) {
          if (/[<]/.test(code[2]!)) return undefined;
          out.push(code[1] && LANGUAGE_CLASS.test(code[1]) ? `<pre><code${code[1]}>${code[2]}</code></pre>` : `<pre>${code[2]}</pre>`);
        } else {
          if (/[<]/.test(inner)) return undefined;
          out.push(`<pre>${inner}</pre>`);
        }
      } else {
        if (attrs!.trim() !== "" && attrs!.trim() !== "expandable") return undefined;
        const body = inlineFromHtml(inner);
        if (body === undefined) return undefined;
        out.push(`<blockquote>${body}</blockquote>`);
      }
      continue;
    }
    text += before;
    if (name === "span") {
      if (!closing && attrs !== ' class="tg-spoiler"') return undefined;
      text += closing ? "</tg-spoiler>" : "<tg-spoiler>";
    } else if (name === "tg-spoiler" || SAME_INLINE.has(name!)) {
      if (name === "a" ? !/^(?:\s+href="[^"]*")?\s*$/.test(attrs!) : attrs!.trim() !== "") return undefined;
      text += whole;
    } else return undefined;
    if (closing) open.pop();
    else open.push(name!);
  }
  text += html.slice(at);
  if (open.length > 0) return undefined;
  paragraph();
  return out.length > 0 ? asRich(out.join("")) : undefined;
}

/** What a rich message's part takes of the limits. */
export interface RichTally {
  /** Visible text, UTF-16 units. */
  chars: number;
  blocks: number;
}

/** The visible length of Hermes' own Telegram HTML (tags out, entities as one character): what richFromHtml's paragraph shows, or more. */
export function htmlTally(html: Html): RichTally {
  const text = html.replace(/<[^>]*>/g, "").replace(/&(?:[a-z]+|#x[0-9a-f]+|#[0-9]+);/gi, "_");
  return { chars: text.length, blocks: 1 };
}
