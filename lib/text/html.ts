// Telegram HTML: the `Html` type, escaping, and cutting text to Telegram's limits without breaking
// tags, entities or what the user sees as one character (an emoji with its modifiers, a flag, a
// letter with accents).
//
// HTML by construction: every text sent with parse_mode HTML is `Html` (lib/telegram/wire/api.ts takes nothing
// else), and only this file makes it: `escapeHtml` (any text), the `html` template (its literal
// parts are Hermes' own markup, every value in it Html already or a number), `joinHtml`, the
// cutters below, and `trustedHtml` for markup that is a constant of Hermes' own. A plain string
// where Html is wanted does not compile (tests/unit/html-type.test.ts).

declare const telegramHtml: unique symbol;

/** Telegram HTML that Hermes built: its markup is Hermes' own, every outside text in it escaped. */
export type Html = string & { readonly [telegramHtml]: true };

/** Text that is not Html (typed so): escaping Html again would show its markup as text. */
export type PlainText = string & { readonly [telegramHtml]?: never };

/** The one cast to Html: every maker in this file goes through it. */
function asHtml(text: string): Html {
  return text as Html;
}

/**
 * Telegram HTML from a template: the literal parts are markup (they are in Hermes' source), every
 * value is Html already or a number: `html\`<b>${escapeHtml(title)}</b> · ${count}\``. At run
 * time an Html is an ordinary string (it is measured, cut, compared and sent as one), so it is the
 * compiler that refuses a plain string here: text from anywhere else must pass `escapeHtml` first.
 */
export function html(markup: TemplateStringsArray, ...values: ReadonlyArray<Html | number>): Html {
  let out = markup[0] ?? "";
  values.forEach((value, index) => {
    out += String(value) + (markup[index + 1] ?? "");
  });
  return asHtml(out);
}

/** Pieces of Html joined by `separator` (markup of Hermes' own, usually "\n"). */
export function joinHtml(parts: readonly Html[], separator: Html | "" | "\n" | "\n\n" | " " | " · " = ""): Html {
  return asHtml(parts.join(separator));
}

/**
 * Markup Hermes vouches for where the `html` template can't say it (a tag pair built from checked
 * parts, a catalog text's first line): trusted as it is. Never for text from outside (the agent,
 * OpenCode, a user, a file): escape that. tests/unit/html-type.test.ts lists the files that call it.
 */
export function trustedHtml(markup: string): Html {
  return asHtml(markup);
}

/** No text at all. */
export const EMPTY_HTML: Html = asHtml("");

/** Without blank space at either end (never part of a tag or an entity). */
export function trimHtml(text: Html): Html {
  return asHtml(text.trim());
}

// Telegram's limits, in UTF-16 units of what the user sees.
export const MESSAGE_LIMIT = 4096;
export const CAPTION_LIMIT = 1024;
export const CALLBACK_ANSWER_LIMIT = 200;
export const PLACEHOLDER_LIMIT = 64;
export const TOPIC_NAME_LIMIT = 128;

/** Made on first use: building one loads ICU's break rules (about 20 ms), which start-up must not pay. */
let segmenterInstance: Intl.Segmenter | undefined;
function segmenter(): Intl.Segmenter {
  segmenterInstance ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return segmenterInstance;
}

/** The characters a user sees (grapheme clusters): "👨‍👩‍👧", "🇫🇷" and "é" are one each. */
export function graphemes(text: string): string[] {
  return Array.from(segmenter().segment(text), (part) => part.segment);
}

/** A lone surrogate (possible in JSON from OpenCode) is not UTF-8: Telegram would refuse the whole text. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function escapeHtml(text: PlainText): Html {
  return asHtml(text.replace(LONE_SURROGATE, "\uFFFD").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"));
}

/**
 * Cuts plain text to at most `max` UTF-16 units (what Telegram counts, never less than characters),
 * marking the cut with "…". Never splits a grapheme cluster or a surrogate pair.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = "";
  for (const grapheme of graphemes(text.slice(0, max + 1))) {
    if (out.length + grapheme.length + 1 > max) break;
    out += grapheme;
  }
  return max >= 1 ? `${out}…` : "";
}

/**
 * The graphemes of the last `size` units or so. Intl.Segmenter slows down more than linearly on
 * long input, so only a window is segmented: it starts on a code point, keeps flags (pairs of
 * regional indicators) paired, and drops its first cluster, which may be the tail of a longer one.
 */
function tailGraphemes(text: string, size: number): string[] {
  if (text.length <= size) return graphemes(text);
  return graphemes(text.slice(windowStart(text, text.length - size))).slice(1);
}

/** Where a window of text can start being segmented: on a code point, flags kept paired. Its first cluster may still be a tail. */
function windowStart(text: string, index: number): number {
  if (index <= 0) return 0;
  let start = index;
  if (isLowSurrogate(text.charCodeAt(start))) start--;
  let before = 0;
  while (start - 2 * (before + 1) >= 0 && isRegionalIndicator(text.codePointAt(start - 2 * (before + 1))!)) before++;
  if (before % 2 === 1) start -= 2;
  return start;
}

/** How far around an index a window of text is segmented: longer clusters than this are only cut around. */
const CLUSTER_REACH = 256;

/** The grapheme boundaries of text[from, to) that a window can vouch for, and `to` itself when it is the end. */
function boundaries(text: string, from: number, to: number): number[] {
  const start = windowStart(text, from);
  const found: number[] = [];
  for (const part of segmenter().segment(text.slice(start, to))) if (start === 0 || part.index > 0) found.push(start + part.index);
  if (to >= text.length) found.push(text.length);
  return found;
}

/** The first grapheme boundary at or after `index` (where a tail of the text can start). */
export function graphemeStart(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  return boundaries(text, index - 32, Math.min(text.length, index + CLUSTER_REACH)).find((at) => at >= index) ?? text.length;
}

/** The last grapheme boundary at or before `index` (where a head of the text can end). */
export function graphemeEnd(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  let last = 0;
  for (const at of boundaries(text, index - CLUSTER_REACH, Math.min(text.length, index + 32))) if (at <= index) last = at;
  return last;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function isRegionalIndicator(codePoint: number): boolean {
  return codePoint >= 0x1f1e6 && codePoint <= 0x1f1ff;
}

/** Escapes `text` for HTML, cut (on graphemes, marked "…") so the escaped result is at most `max` long. */
export function escapeWithin(text: PlainText, max: number): Html {
  const escaped = escapeHtml(text);
  if (escaped.length <= max) return escaped;
  return asHtml(`${escapedHead(text, max - 1).html}…`);
}

/** The escaped start of `text`, whole graphemes, at most `max` long; `length` is how much of `text` it covers. */
export function escapedHead(text: PlainText, max: number): { html: Html; length: number } {
  let html = "";
  let length = 0;
  // Escaping never shortens: a window of max + 1 units holds every grapheme that can fit.
  for (const grapheme of graphemes(text.slice(0, max + 1))) {
    const next = escapeHtml(grapheme);
    if (html.length + next.length > max) break;
    html += next;
    length += grapheme.length;
  }
  return { html: asHtml(html), length };
}

/** The escaped end of `text`, whole graphemes, at most `max` long; `length` is how much of `text` it covers. */
export function escapedTail(text: PlainText, max: number): { html: Html; length: number } {
  const parts = tailGraphemes(text, max + 16);
  let html = "";
  let length = 0;
  for (let index = parts.length - 1; index >= 0; index--) {
    const next = escapeHtml(parts[index]!);
    if (html.length + next.length > max) break;
    html = next + html;
    length += parts[index]!.length;
  }
  return { html: asHtml(html), length };
}

/**
 * Cuts Telegram HTML to at most `max` UTF-16 units (Telegram counts those): never inside a tag,
 * an entity or a grapheme cluster, and closes every tag still open at the cut.
 */
export function cutHtml(html: Html, max: number = MESSAGE_LIMIT): Html {
  if (html.length <= max) return html;
  const ellipsis = "…";
  const markup = /<\/?([a-z-]+)[^>]*>|&[#a-z0-9]+;/iy;
  const clusters = new Map<number, string>();
  // A cluster that reaches past max can't fit anyway: only the head needs segmenting.
  for (const part of segmenter().segment(html.slice(0, max + 1))) clusters.set(part.index, part.segment);
  const open: string[] = [];
  const closers = () =>
    open
      .map((tag) => `</${tag}>`)
      .reverse()
      .join("");
  let closingLength = 0;
  let end = 0;
  let index = 0;
  while (index < html.length) {
    markup.lastIndex = index;
    const match = markup.exec(html);
    // After an entity the next grapheme may start mid-cluster (a combining mark): take its code point.
    const token = match ? match[0] : (clusters.get(index) ?? String.fromCodePoint(html.codePointAt(index)!));
    const tag = match?.[1]?.toLowerCase();
    let nextOpen = open;
    if (tag && token.startsWith("</")) {
      const at = open.lastIndexOf(tag);
      nextOpen = at === -1 ? open : open.slice(0, at);
    } else if (tag) {
      nextOpen = [...open, tag];
    }
    const nextClosing = nextOpen === open ? closingLength : nextOpen.reduce((sum, name) => sum + name.length + 3, 0);
    if (index + token.length + nextClosing + ellipsis.length > max) break;
    open.splice(0, open.length, ...nextOpen);
    closingLength = nextClosing;
    index += token.length;
    end = index;
  }
  return asHtml(html.slice(0, end) + ellipsis + closers());
}

/**
 * `html` as it is when what Telegram counts fits `max`, else cut by cutHtml (which counts tags and
 * entities too, so it cuts early, never late). For messages whose parts are each budgeted already.
 */
export function fitHtml(html: Html, max: number = MESSAGE_LIMIT): Html {
  return visibleLength(html) <= max ? html : cutHtml(html, max);
}

/** What Telegram counts against its limits: the text after entity parsing, in UTF-16 units. */
export function visibleLength(html: string): number {
  return visibleText(html).length;
}

const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** The text Telegram shows for Hermes' own HTML: tags dropped, entities decoded. */
export function visibleText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&(?:([a-z]+)|#(\d+)|#x([0-9a-f]+));/gi, (_, name?: string, decimal?: string, hex?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? " ";
    const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : "?";
  });
}
