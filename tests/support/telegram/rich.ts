/**
 * Rich messages (Bot API 10.1–10.3: sendRichMessage, sendRichMessageDraft, editMessageText with
 * `rich_message`), checked as strictly as the documentation allows: what a rich message may hold,
 * read into one tree whatever it was written in (`html`, `markdown` or `blocks`), and Telegram's
 * limits counted on that tree. Both fakes use it (fake-telegram.ts over HTTP, memory-telegram.ts).
 *
 * The documentation (core.telegram.org/bots/api/rich-messages, as carried by grammY's types; the
 * project's summary is docs/phone.md's "Rich messages") says which tags, attributes, entities and
 * block types exist and what the limits are, not what Telegram does with anything else. So, as
 * telegram/html.ts does for parse_mode HTML, whatever it does not document is refused, and Hermes
 * never leans on an undocumented leniency:
 * - Rich HTML: a "<" always opens a tag; only the documented tags and, per tag, attributes; only the
 *   documented named entities (`&lt; &gt; &amp; &quot; &apos; &nbsp; &hellip; &mdash; &ndash; &lsquo;
 *   &rsquo; &ldquo; &rdquo;`) or numeric ones, each ended by ";"; tags closed in order; `br`, `hr`,
 *   `img` and `input` are void (`<br>` or `<br/>`), nothing else closes itself. Blocks hold blocks or
 *   inline text, never text loose beside blocks; a list holds only `li`, a table only `tr` (and a
 *   `caption`), a row only `th`/`td`, and a cell only inline formatting ("Table cells take only inline
 *   formatting"); `code` holds text only, `pre` text or one `code`; `details` starts with its
 *   `summary`. Links: http(s), mailto:, tel:, tg://user?id= and #anchors only.
 * - What only third-party code shows (10.3's `tg-button`, `tg-button-row`, `tg-document`, the
 *   `collapsed` or `expandable` blockquote) is refused; so is `tg-thinking` outside a draft.
 * - Whitespace outside `pre` reads as HTML reads it (a run of blanks and line breaks is one space):
 *   a line break is a `br`, never a newline the renderer hoped would be kept.
 * - Limits: 32,768 characters of text, counted in UTF-16 units (the page says "UTF-8 characters";
 *   UTF-16 units are never fewer than code points, so what passes here passes there), 500 blocks
 *   (every block element, list items and table rows included), 16 levels of nesting (every element,
 *   inline and block), 20 columns in a table (a row's cells, with their colspan).
 * Error texts past the limits are not documented: these ones are the fake's own, after "Bad Request: ".
 */
import { createRequire } from "node:module";
import type { Lexer as MarkedLexer, Token, Tokens } from "marked";

/** marked, loaded with the first Markdown read: a test that counts its loads (markdown-lazy.test.ts) sees none from the fakes. */
let lexer: typeof MarkedLexer | undefined;
function markedLexer(): typeof MarkedLexer {
  lexer ??= (createRequire(import.meta.url)("marked") as { Lexer: typeof MarkedLexer }).Lexer;
  return lexer;
}

/** 'refused': a Bot API server older than 10.1, which knows no rich message. */
export type RichMode = "supported" | "refused";

export const RICH_LIMITS = { text: 32768, blocks: 500, depth: 16, tableColumns: 20, media: 50 } as const;

/** One element of a rich message (a text node is a string). */
export interface RichNode {
  tag: string;
  attrs: Record<string, string>;
  children: Array<RichNode | string>;
}

export interface RichStats {
  /** Visible characters (UTF-16 units). */
  chars: number;
  blocks: number;
  depth: number;
  /** The widest table row (cells with their colspan); 0 without a table. */
  columns: number;
  media: number;
}

export interface RichContent {
  format: "html" | "markdown" | "blocks";
  /** The source as sent (the `html` or `markdown` string, or the `blocks` array). */
  source: unknown;
  /** Top-level blocks. */
  blocks: RichNode[];
  /** The visible text: blocks on lines of their own, a table's cells apart by " | ". */
  plain: string;
  stats: RichStats;
}

export type RichResult = { ok: true; content: RichContent } | { ok: false; error: string };

type Kind = "inline" | "block" | "void-inline" | "void-block";
type Holds = "blocks" | "inline" | "flow" | "text" | "pre" | "list" | "table" | "row" | "details" | "media" | "none";

interface TagRule {
  kind: Kind;
  holds: Holds;
  attrs: readonly string[];
  /** Counted among the 500 blocks. */
  counted?: boolean;
}

const INLINE_TAGS = ["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "mark", "sub", "sup", "tg-spoiler"];
const inline = (attrs: readonly string[] = []): TagRule => ({ kind: "inline", holds: "inline", attrs });
const block = (holds: Holds, attrs: readonly string[] = [], counted = true): TagRule => ({ kind: "block", holds, attrs, counted });

const TAGS: Record<string, TagRule> = {
  ...Object.fromEntries(INLINE_TAGS.map((name) => [name, inline()])),
  code: { kind: "inline", holds: "text", attrs: ["class"] },
  a: inline(["href", "name"]),
  "tg-reference": inline(["name"]),
  "tg-emoji": inline(["emoji-id"]),
  "tg-time": inline(["unix", "format"]),
  "tg-math": { kind: "inline", holds: "text", attrs: [] },
  br: { kind: "void-inline", holds: "none", attrs: [] },
  input: { kind: "void-inline", holds: "none", attrs: ["type", "checked"] },
  img: { kind: "void-inline", holds: "none", attrs: ["src", "alt", "width", "height"] },
  ...Object.fromEntries(["h1", "h2", "h3", "h4", "h5", "h6"].map((name) => [name, block("inline")])),
  p: block("inline"),
  footer: block("inline"),
  pre: block("pre"),
  hr: { kind: "void-block", holds: "none", attrs: [], counted: true },
  ul: block("list"),
  ol: block("list", ["start", "type", "reversed"]),
  li: block("flow", ["value", "type"]),
  blockquote: block("flow", ["cite"]),
  aside: block("flow", ["cite"]),
  figure: block("media", ["cite"]),
  figcaption: block("inline", [], false),
  video: block("none", ["src"]),
  audio: block("none", ["src"]),
  "tg-map": block("none", ["lat", "long", "zoom", "width", "height"]),
  "tg-collage": block("media"),
  "tg-slideshow": block("media"),
  table: block("table", ["bordered", "striped", "caption"]),
  caption: block("inline", [], false),
  tr: block("row"),
  th: block("inline", ["colspan", "rowspan", "align", "valign"], false),
  td: block("inline", ["colspan", "rowspan", "align", "valign"], false),
  details: block("details", ["open"]),
  summary: block("inline", [], false),
  "tg-math-block": block("text"),
  "tg-thinking": block("flow"),
};

/** Attributes that may stand alone (`<details open>`). */
const FLAG_ATTRS = new Set(["bordered", "striped", "reversed", "open", "checked"]);
const NAMED_ENTITIES: Record<string, string> = {
  lt: "<",
  gt: ">",
  amp: "&",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
};
const BLANK = /[ \t\r\n\f\v]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LINK = /^(?:https?:\/\/[^\s]+|mailto:[^\s]+|tel:[^\s]+|tg:\/\/user\?id=\d+|#[A-Za-z0-9_-]+)$/i;
const MEDIA_URL = /^https?:\/\/[^\s]+$/i;
const LANGUAGE_CLASS = /^language-[A-Za-z0-9_+#.-]{1,64}$/;

class RichError extends Error {}

/** Reads rich HTML into blocks (throws RichError with Telegram's detail). */
function readHtml(text: string, draft: boolean): RichNode[] {
  const root: RichNode = { tag: "#root", attrs: {}, children: [] };
  const stack: RichNode[] = [root];
  let i = 0;
  let pending = "";
  const flush = () => {
    if (pending === "") return;
    stack[stack.length - 1]!.children.push(pending);
    pending = "";
  };
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "&") {
      const entity = decodeEntity(text, i);
      if (!entity) throw new RichError(`unsupported or unescaped "&" at offset ${i}`);
      pending += entity.value;
      i = entity.end;
      continue;
    }
    if (ch === ">") throw new RichError(`unescaped ">" at offset ${i}`);
    if (ch !== "<") {
      pending += ch;
      i++;
      continue;
    }
    flush();
    const begin = i++;
    if (text[i] === "/") {
      i++;
      const nameStart = i;
      while (i < text.length && !BLANK.test(text[i]!) && text[i] !== ">") i++;
      const name = text.slice(nameStart, i).toLowerCase();
      while (i < text.length && BLANK.test(text[i]!)) i++;
      if (text[i] !== ">") throw new RichError(`unclosed end tag at offset ${begin}`);
      i++;
      const open = stack[stack.length - 1]!;
      if (open === root) throw new RichError(`unexpected end tag "</${name}>" at offset ${begin}`);
      if (name !== open.tag) throw new RichError(`unmatched end tag at offset ${begin}: expected "</${open.tag}>", found "</${name}>"`);
      stack.pop();
      continue;
    }
    const nameStart = i;
    while (i < text.length && !BLANK.test(text[i]!) && text[i] !== ">" && text[i] !== "/") i++;
    const name = text.slice(nameStart, i).toLowerCase();
    const rule = Object.hasOwn(TAGS, name) ? TAGS[name]! : undefined;
    if (!rule || (name === "tg-thinking" && !draft)) throw new RichError(`unsupported tag "${name}" at offset ${begin}`);
    const attrs: Record<string, string> = {};
    let selfClosed = false;
    for (;;) {
      while (i < text.length && BLANK.test(text[i]!)) i++;
      if (i >= text.length) throw new RichError(`unclosed start tag "${name}" at offset ${begin}`);
      if (text[i] === ">") {
        i++;
        break;
      }
      if (text[i] === "/" && text[i + 1] === ">") {
        selfClosed = true;
        i += 2;
        break;
      }
      const attrStart = i;
      while (i < text.length && !BLANK.test(text[i]!) && text[i] !== "=" && text[i] !== ">" && text[i] !== "/") i++;
      const attr = text.slice(attrStart, i).toLowerCase();
      if (attr === "") throw new RichError(`empty attribute name in the tag "${name}" at offset ${begin}`);
      if (!rule.attrs.includes(attr)) throw new RichError(`unsupported attribute "${attr}" of the tag "${name}" at offset ${attrStart}`);
      if (Object.hasOwn(attrs, attr)) throw new RichError(`duplicate attribute "${attr}" of the tag "${name}"`);
      while (i < text.length && BLANK.test(text[i]!)) i++;
      if (text[i] !== "=") {
        if (!FLAG_ATTRS.has(attr)) throw new RichError(`expected equal sign after the attribute "${attr}" of the tag "${name}"`);
        attrs[attr] = "";
        continue;
      }
      i++;
      while (i < text.length && BLANK.test(text[i]!)) i++;
      const quote = text[i];
      if (quote !== '"' && quote !== "'") throw new RichError(`the value of the attribute "${attr}" must be quoted at offset ${i}`);
      i++;
      let value = "";
      while (i < text.length && text[i] !== quote) {
        if (text[i] === "&") {
          const entity = decodeEntity(text, i);
          if (!entity) throw new RichError(`unsupported or unescaped "&" at offset ${i}`);
          value += entity.value;
          i = entity.end;
          continue;
        }
        if (text[i] === "<") throw new RichError(`unescaped "<" in an attribute at offset ${i}`);
        value += text[i++];
      }
      if (i >= text.length) throw new RichError(`unclosed attribute value in the tag "${name}"`);
      i++;
      attrs[attr] = value;
    }
    const voidTag = rule.kind === "void-inline" || rule.kind === "void-block";
    if (selfClosed && !voidTag) throw new RichError(`the tag "${name}" can't close itself`);
    const node: RichNode = { tag: name, attrs, children: [] };
    stack[stack.length - 1]!.children.push(node);
    if (!voidTag) stack.push(node);
  }
  flush();
  if (stack.length > 1) throw new RichError(`can't find end tag corresponding to start tag "${stack[stack.length - 1]!.tag}"`);
  return checkTree(root);
}

/** Checks where each element stands and what it holds; returns the top-level blocks (blank text between blocks dropped). */
function checkTree(root: RichNode): RichNode[] {
  root.children = checkChildren(root, "blocks");
  return root.children as RichNode[];
}

function isBlank(child: RichNode | string): boolean {
  return typeof child === "string" && !/[^ \t\r\n\f\v]/.test(child);
}

function isBlockNode(child: RichNode | string): boolean {
  if (typeof child === "string") return false;
  if (child.tag === "img") return !/^tg:\/\/emoji\?id=/.test(child.attrs.src ?? "");
  const kind = TAGS[child.tag]!.kind;
  return kind === "block" || kind === "void-block";
}

/** The children as `holds` allows, checked recursively; throws on the first misplaced one. */
function checkChildren(node: RichNode, holds: Holds): Array<RichNode | string> {
  const children = node.children;
  const where = node.tag === "#root" ? "the message" : `"${node.tag}"`;
  switch (holds) {
    case "none":
      if (children.some((c) => !isBlank(c))) throw new RichError(`${where} can't hold content`);
      return [];
    case "text":
      if (children.some((c) => typeof c !== "string")) throw new RichError(`entities can't be nested inside ${where}`);
      return children;
    case "pre": {
      const elements = children.filter((c) => typeof c !== "string") as RichNode[];
      if (elements.length === 0) return children;
      if (elements.length > 1 || elements[0]!.tag !== "code" || children.some((c) => typeof c === "string" && !isBlank(c))) {
        throw new RichError(`"pre" holds text or one "code"`);
      }
      const code = elements[0]!;
      const cls = code.attrs.class;
      if (cls !== undefined && !LANGUAGE_CLASS.test(cls)) throw new RichError(`unsupported code class "${cls}"`);
      checkChildren(code, "text");
      return [code];
    }
    case "inline":
      for (const child of children) if (typeof child !== "string") checkInline(child, where);
      return children;
    case "blocks":
    case "flow":
    case "details":
    case "media": {
      let blocks = children.filter((c) => !isBlank(c));
      const anyBlock = blocks.some(isBlockNode);
      const box = blocks[0];
      // A task item's checkbox stands first, before its text or its blocks.
      if (node.tag === "li" && anyBlock && typeof box === "object" && box.tag === "input") blocks = blocks.slice(1);
      if (holds === "flow" && !anyBlock) {
        const first = children.find((c) => !isBlank(c));
        for (const child of children) {
          if (typeof child === "string") continue;
          if (child.tag === "input" && child === first && node.tag === "li") continue;
          checkInline(child, where);
        }
        return children;
      }
      if (blocks.some((c) => !isBlockNode(c))) {
        const loose = blocks.find((c) => !isBlockNode(c))!;
        throw new RichError(`${where} holds blocks: ${typeof loose === "string" ? "text" : `"${loose.tag}"`} can't stand beside them`);
      }
      const elements = blocks as RichNode[];
      if (blocks.length < children.filter((c) => !isBlank(c)).length) checkCheckbox(node);
      if (holds === "details") {
        if (elements[0]?.tag !== "summary") throw new RichError(`"details" must start with its "summary"`);
        if (elements.slice(1).some((e) => e.tag === "summary")) throw new RichError(`"details" has one "summary"`);
      } else if (elements.some((e) => e.tag === "summary")) throw new RichError(`"summary" belongs in "details"`);
      for (const element of elements) {
        const inFigure = ["figcaption"].includes(element.tag);
        if (inFigure && node.tag !== "figure") throw new RichError(`"${element.tag}" belongs in "figure"`);
        if (["li", "tr", "th", "td", "caption"].includes(element.tag)) throw new RichError(`"${element.tag}" can't stand in ${where}`);
        if (holds === "media" && !["img", "video", "audio", "figcaption"].includes(element.tag)) {
          throw new RichError(`${where} holds media only`);
        }
        checkElement(element);
      }
      return node.tag === "li" && blocks.length < children.filter((c) => !isBlank(c)).length ? [box as RichNode, ...elements] : elements;
    }
    case "list": {
      const items = children.filter((c) => !isBlank(c));
      if (items.length === 0) throw new RichError("list must be non-empty");
      for (const item of items) {
        if (typeof item === "string" || item.tag !== "li") throw new RichError(`a list holds "li" only`);
        checkElement(item);
      }
      return items;
    }
    case "table": {
      const rows = children.filter((c) => !isBlank(c));
      for (const [index, row] of rows.entries()) {
        if (typeof row === "string" || (row.tag !== "tr" && !(row.tag === "caption" && index === 0))) throw new RichError(`a table holds "tr" only`);
        checkElement(row);
      }
      if (!rows.some((row) => typeof row !== "string" && row.tag === "tr")) throw new RichError("table must be non-empty");
      return rows;
    }
    case "row": {
      const cells = children.filter((c) => !isBlank(c));
      if (cells.length === 0) throw new RichError("table row must be non-empty");
      let columns = 0;
      for (const cell of cells) {
        if (typeof cell === "string" || (cell.tag !== "th" && cell.tag !== "td")) throw new RichError(`a table row holds "th" and "td" only`);
        const span = cell.attrs.colspan === undefined ? 1 : Number(cell.attrs.colspan);
        if (!Number.isInteger(span) || span < 1) throw new RichError("invalid table cell colspan specified");
        columns += span;
        checkElement(cell);
      }
      if (columns > RICH_LIMITS.tableColumns) throw new RichError(`too many table columns: ${columns}, at most ${RICH_LIMITS.tableColumns}`);
      return cells;
    }
  }
}

function checkElement(node: RichNode): void {
  const rule = TAGS[node.tag]!;
  if (node.tag === "a") checkLink(node);
  if (node.tag === "img") {
    const src = node.attrs.src ?? "";
    if (!MEDIA_URL.test(src)) throw new RichError(`unsupported image source "${src}"`);
  }
  if ((node.tag === "video" || node.tag === "audio") && !MEDIA_URL.test(node.attrs.src ?? "")) throw new RichError(`unsupported ${node.tag} source`);
  if (node.tag === "ol" && node.attrs.type !== undefined && !/^[aAiI1]$/.test(node.attrs.type)) throw new RichError("invalid list type specified");
  node.children = checkChildren(node, rule.holds);
  if (node.tag === "li") checkCheckbox(node);
}

/** A task item's checkbox: `<input type="checkbox">` first in its item, nowhere else. */
function checkCheckbox(item: RichNode): void {
  const first = item.children.find((c) => !isBlank(c));
  if (typeof first === "object" && first.tag === "input" && first.attrs.type !== "checkbox") throw new RichError(`unsupported input type`);
}

function checkInline(node: RichNode, where: string): void {
  if (isBlockNode(node)) throw new RichError(`"${node.tag}" is a block: it can't stand in ${where}`);
  if (node.tag === "input") throw new RichError(`"input" belongs first in a list item`);
  if (node.tag === "img") {
    if (!/^tg:\/\/emoji\?id=\d+$/.test(node.attrs.src ?? "")) throw new RichError("an inline image is a custom emoji (tg://emoji?id=…)");
    return;
  }
  if (node.tag === "a") checkLink(node);
  if (node.tag === "tg-time" && !/^\d+$/.test(node.attrs.unix ?? "")) throw new RichError(`"tg-time" needs its unix time`);
  if (node.tag === "tg-emoji" && !/^\d+$/.test(node.attrs["emoji-id"] ?? "")) throw new RichError(`"tg-emoji" needs its emoji-id`);
  const rule = TAGS[node.tag]!;
  if (node.tag === "code" && node.attrs.class !== undefined) throw new RichError(`"code" takes a language only inside "pre"`);
  node.children = checkChildren(node, rule.holds === "text" ? "text" : "inline");
}

function checkLink(node: RichNode): void {
  const { href, name } = node.attrs;
  if (href !== undefined && name !== undefined) throw new RichError(`a link is a target or an anchor, not both`);
  if (href !== undefined && !LINK.test(href.trim())) throw new RichError(`unsupported link "${href}"`);
  if (href === undefined && name === undefined) throw new RichError(`"a" needs href or name`);
  if (name !== undefined && node.children.some((c) => !isBlank(c))) throw new RichError(`an anchor is empty`);
}

/** A named entity of the documented list or a numeric one, ended by ";". */
function decodeEntity(text: string, at: number): { value: string; end: number } | undefined {
  const match = /^&(?:([a-z]+)|#x([0-9a-fA-F]{1,6})|#([0-9]{1,7}));/.exec(text.slice(at, at + 12));
  if (!match) return undefined;
  if (match[1] !== undefined) {
    const named = Object.hasOwn(NAMED_ENTITIES, match[1]) ? NAMED_ENTITIES[match[1]] : undefined;
    return named === undefined ? undefined : { value: named, end: at + match[0].length };
  }
  const code = match[2] !== undefined ? parseInt(match[2], 16) : parseInt(match[3]!, 10);
  if (!(code > 0 && code < 0x10ffff) || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  return { value: String.fromCodePoint(code), end: at + match[0].length };
}

// ---- Markdown: read by a GitHub-flavoured parser (marked) into the same tree. Raw HTML in it is
// rich HTML (its tags checked as above); an HTML block must be whole elements.

function readMarkdown(source: string, draft: boolean): RichNode[] {
  const tokens = new (markedLexer())({ gfm: true }).lex(source);
  return readHtml(mdBlocks(tokens), draft);
}

/** Markdown blocks written as rich HTML (text escaped, raw HTML as it is), for readHtml to check as one. */
function mdBlocks(tokens: Token[]): string {
  let out = "";
  for (const token of tokens) {
    switch (token.type) {
      case "space":
      case "def":
        break;
      case "heading":
        out += `<h${(token as Tokens.Heading).depth}>${mdInline((token as Tokens.Heading).tokens)}</h${(token as Tokens.Heading).depth}>`;
        break;
      case "paragraph":
        out += `<p>${mdInline((token as Tokens.Paragraph).tokens)}</p>`;
        break;
      case "text": {
        const text = token as Tokens.Text;
        out += `<p>${text.tokens ? mdInline(text.tokens) : escapeRichHtml(text.text)}</p>`;
        break;
      }
      case "code": {
        const code = token as Tokens.Code;
        const lang = code.lang?.trim().split(/\s/)[0];
        out += `<pre><code${lang ? ` class="language-${escapeRichHtml(lang)}"` : ""}>${escapeRichHtml(code.text)}</code></pre>`;
        break;
      }
      case "hr":
        out += "<hr/>";
        break;
      case "blockquote":
        out += `<blockquote>${mdBlocks((token as Tokens.Blockquote).tokens)}</blockquote>`;
        break;
      case "list": {
        const list = token as Tokens.List;
        const tag = list.ordered ? "ol" : "ul";
        out += `<${tag}>${list.items.map((item) => `<li>${item.task ? `<input type="checkbox"${item.checked ? " checked" : ""}>` : ""}${mdBlocks(item.tokens.filter((t) => t.type !== "checkbox"))}</li>`).join("")}</${tag}>`;
        break;
      }
      case "table": {
        const table = token as Tokens.Table;
        const row = (cells: Tokens.TableCell[], tag: string) => `<tr>${cells.map((cell) => `<${tag}>${mdInline(cell.tokens)}</${tag}>`).join("")}</tr>`;
        out += `<table>${row(table.header, "th")}${table.rows.map((r) => row(r, "td")).join("")}</table>`;
        break;
      }
      case "html":
        out += token.raw;
        break;
      default:
        throw new RichError(`unsupported Markdown "${token.type}"`);
    }
  }
  return out;
}

function mdInline(tokens: Token[] | undefined): string {
  let out = "";
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "text":
      case "escape":
        out += (token as Tokens.Text).tokens ? mdInline((token as Tokens.Text).tokens) : escapeRichHtml(token.text);
        break;
      case "html":
        out += token.raw;
        break;
      case "strong":
        out += `<b>${mdInline((token as Tokens.Strong).tokens)}</b>`;
        break;
      case "em":
        out += `<i>${mdInline((token as Tokens.Em).tokens)}</i>`;
        break;
      case "del":
        out += `<s>${mdInline((token as Tokens.Del).tokens)}</s>`;
        break;
      case "codespan":
        out += `<code>${escapeRichHtml((token as Tokens.Codespan).text)}</code>`;
        break;
      case "br":
        out += "<br/>";
        break;
      case "link": {
        const link = token as Tokens.Link;
        out += `<a href="${escapeRichHtml(link.href).replace(/"/g, "&quot;")}">${mdInline(link.tokens)}</a>`;
        break;
      }
      case "image": {
        const image = token as Tokens.Image;
        if (!/^tg:\/\/(emoji|time)\?/.test(image.href)) throw new RichError("media must be a block of its own");
        out += escapeRichHtml(image.text);
        break;
      }
      default:
        throw new RichError(`unsupported Markdown "${token.type}"`);
    }
  }
  return out;
}

function escapeRichHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// ---- Blocks (InputRichBlock, Bot API 10.2): the documented types; the fields Hermes could need.

const BLOCK_TYPES = new Set([
  "paragraph",
  "heading",
  "pre",
  "footer",
  "divider",
  "mathematical_expression",
  "anchor",
  "list",
  "blockquote",
  "pullquote",
  "collage",
  "slideshow",
  "table",
  "details",
  "map",
  "animation",
  "audio",
  "photo",
  "video",
  "voice_note",
  "thinking",
]);

function readBlocks(blocks: unknown, draft: boolean): RichNode[] {
  if (!Array.isArray(blocks)) throw new RichError(`field "blocks" must be an Array`);
  return blocks.map((b) => readBlock(b, draft));
}

function readBlock(value: unknown, draft: boolean): RichNode {
  if (value === null || typeof value !== "object") throw new RichError("a block must be an Object");
  const b = value as Record<string, unknown>;
  const type = String(b.type);
  if (!BLOCK_TYPES.has(type) || (type === "thinking" && !draft)) throw new RichError(`type "${type}" is unsupported`);
  switch (type) {
    case "paragraph":
    case "footer":
      return { tag: type === "paragraph" ? "p" : "footer", attrs: {}, children: richText(b.text) };
    case "heading": {
      const size = b.size;
      if (!Number.isInteger(size) || (size as number) < 1 || (size as number) > 6) throw new RichError("invalid section heading size specified");
      return { tag: `h${size}`, attrs: {}, children: richText(b.text) };
    }
    case "pre":
      return { tag: "pre", attrs: {}, children: [plainRichText(b.text)] };
    case "divider":
      return { tag: "hr", attrs: {}, children: [] };
    case "list": {
      if (!Array.isArray(b.items) || b.items.length === 0) throw new RichError("list must be non-empty");
      return { tag: "ul", attrs: {}, children: b.items.map((item: any) => ({ tag: "li", attrs: {}, children: readBlocks(item?.blocks, draft) })) };
    }
    case "blockquote":
    case "pullquote":
    case "thinking":
      return { tag: type === "pullquote" ? "aside" : "blockquote", attrs: {}, children: readBlocks(b.blocks ?? [], draft) };
    case "details":
      return {
        tag: "details",
        attrs: {},
        children: [{ tag: "summary", attrs: {}, children: richText(b.summary) }, ...readBlocks(b.blocks ?? [], draft)],
      };
    case "table": {
      if (!Array.isArray(b.cells) || b.cells.length === 0) throw new RichError("table must be non-empty");
      const rows = b.cells.map((row: unknown) => {
        if (!Array.isArray(row) || row.length === 0) throw new RichError("table row must be non-empty");
        let columns = 0;
        const cells = row.map((cell: any) => {
          const span = cell?.colspan ?? 1;
          if (!Number.isInteger(span) || span < 1) throw new RichError("invalid table cell colspan specified");
          columns += span;
          return { tag: cell?.is_header ? "th" : "td", attrs: {}, children: richText(cell?.text ?? "") };
        });
        if (columns > RICH_LIMITS.tableColumns) throw new RichError(`too many table columns: ${columns}, at most ${RICH_LIMITS.tableColumns}`);
        return { tag: "tr", attrs: {}, children: cells };
      });
      return { tag: "table", attrs: {}, children: rows };
    }
    default:
      // Media, maps and formulas: counted as a block, nothing the fake shows.
      return { tag: type === "mathematical_expression" ? "tg-math-block" : "figure", attrs: {}, children: [] };
  }
}

const TEXT_TYPES: Record<string, string> = {
  bold: "b",
  italic: "i",
  underline: "u",
  strikethrough: "s",
  spoiler: "tg-spoiler",
  subscript: "sub",
  superscript: "sup",
  marked: "mark",
  code: "code",
  url: "a",
};

function richText(value: unknown): Array<RichNode | string> {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(richText);
  if (value && typeof value === "object") {
    const t = value as Record<string, unknown>;
    const tag = TEXT_TYPES[String(t.type)];
    if (tag === undefined) throw new RichError(`type "${String(t.type)}" is unsupported`);
    return [{ tag, attrs: {}, children: richText(t.text) }];
  }
  throw new RichError("can't parse rich text");
}

function plainRichText(value: unknown): string {
  return richText(value)
    .map((c) => (typeof c === "string" ? c : plainOf(c)))
    .join("");
}

// ---- The whole message: exactly one of html, markdown, blocks; then the limits.

/**
 * Checks an InputRichMessage as sendRichMessage, sendRichMessageDraft (`draft`) and editMessageText
 * read it; the detail of Telegram's 400 when refused.
 */
export function readRichMessage(value: unknown, draft = false): RichResult {
  try {
    if (typeof value === "string") {
      try {
        value = JSON.parse(value);
      } catch {
        throw new RichError("can't parse rich message JSON object");
      }
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) throw new RichError("can't parse rich message JSON object");
    const message = value as Record<string, unknown>;
    const known = new Set(["html", "markdown", "blocks", "media", "is_rtl", "skip_entity_detection"]);
    for (const key of Object.keys(message)) if (!known.has(key)) throw new RichError(`field "${key}" of the rich message is unexpected`);
    const given = (["html", "markdown", "blocks"] as const).filter((key) => message[key] !== undefined);
    if (given.length === 0) throw new RichError("rich message must be non-empty");
    if (given.length > 1) throw new RichError("exactly one of html, markdown and blocks must be specified");
    const format = given[0]!;
    const source = message[format];
    if (format !== "blocks" && typeof source !== "string") throw new RichError(`field "${format}" must be a String`);
    if (message.media !== undefined) throw new RichError("media are not supported by this fake");
    const blocks =
      format === "html" ? readHtml(source as string, draft) : format === "markdown" ? readMarkdown(source as string, draft) : readBlocks(source, draft);
    normalise(blocks, false);
    const stats = measure(blocks);
    const plain = blocks
      .map((block) => plainOf(block))
      .join("\n")
      .trim();
    if (plain === "" && stats.blocks === 0) throw new RichError("rich message must be non-empty");
    if (LONE_SURROGATE.test(plain)) throw new RichError("text contains invalid Unicode characters");
    if (stats.chars > RICH_LIMITS.text) throw new RichError(`rich message is too long: ${stats.chars} characters, at most ${RICH_LIMITS.text}`);
    if (stats.blocks > RICH_LIMITS.blocks) throw new RichError(`too many blocks: ${stats.blocks}, at most ${RICH_LIMITS.blocks}`);
    if (stats.depth > RICH_LIMITS.depth) throw new RichError(`too deeply nested: ${stats.depth} levels, at most ${RICH_LIMITS.depth}`);
    if (stats.media > RICH_LIMITS.media) throw new RichError(`too many media: ${stats.media}, at most ${RICH_LIMITS.media}`);
    return { ok: true, content: { format, source, blocks, plain, stats } };
  } catch (error) {
    if (error instanceof RichError) return { ok: false, error: error.message };
    throw error;
  }
}

/** Text as Telegram keeps it (whitespace outside pre read as HTML reads it), adjacent texts joined: two spellings of one message compare equal. */
function normalise(nodes: Array<RichNode | string>, pre: boolean): void {
  for (const [index, node] of nodes.entries()) {
    if (typeof node === "string") nodes[index] = shown(node, pre);
    else normalise(node.children, pre || node.tag === "pre" || node.tag === "tg-math-block");
  }
  for (let i = nodes.length - 1; i > 0; i--) {
    if (typeof nodes[i] === "string" && typeof nodes[i - 1] === "string") nodes.splice(i - 1, 2, (nodes[i - 1] as string) + (nodes[i] as string));
  }
}

function measure(blocks: RichNode[]): RichStats {
  const stats: RichStats = { chars: 0, blocks: 0, depth: 0, columns: 0, media: 0 };
  const walk = (node: RichNode | string, depth: number) => {
    if (typeof node === "string") {
      stats.chars += node.length;
      return;
    }
    stats.depth = Math.max(stats.depth, depth);
    if (TAGS[node.tag]?.counted) stats.blocks++;
    if (["img", "video", "audio"].includes(node.tag) && isBlockNode(node)) stats.media++;
    if (node.tag === "tr") {
      const columns = node.children.reduce<number>((sum, cell) => sum + (typeof cell === "string" ? 0 : Number(cell.attrs.colspan ?? 1)), 0);
      stats.columns = Math.max(stats.columns, columns);
    }
    for (const child of node.children) walk(child, depth + 1);
  };
  for (const block of blocks) walk(block, 1);
  return stats;
}

/** Text as shown: outside pre, a run of blanks and line breaks is one space. */
function shown(text: string, pre: boolean): string {
  return pre ? text : text.replace(/[ \t\r\n\f\v]+/g, " ");
}

/** A node's visible text (blocks each on a line, a table's cells apart by " | "). */
export function plainOf(node: RichNode | string, pre = false): string {
  if (typeof node === "string") return shown(node, pre);
  if (node.tag === "br") return "\n";
  if (node.tag === "hr") return "";
  if (node.tag === "img") return node.attrs.alt ?? "";
  if (node.tag === "input") return node.attrs.checked !== undefined ? "[x] " : "[ ] ";
  const inPre = pre || node.tag === "pre";
  if (node.tag === "tr")
    return node.children
      .map((c) => plainOf(c, inPre))
      .join(" | ")
      .trim();
  const parts = node.children.map((c) => plainOf(c, inPre));
  const blockish = node.children.some(isBlockNode) || ["table", "ul", "ol", "details"].includes(node.tag);
  const text = blockish ? parts.map((p) => p.trim()).join("\n") : parts.join("");
  return !inPre && (isBlockNode(node) || ["summary", "th", "td", "li", "caption"].includes(node.tag)) ? text.replace(/^ +| +$/gm, "") : text;
}

/** The blocks of a type anywhere in the message, outer first (a test looking for a table, a collapsible block). */
export function findBlocks(content: Pick<RichContent, "blocks">, tag: string): RichNode[] {
  const found: RichNode[] = [];
  const walk = (node: RichNode | string) => {
    if (typeof node === "string") return;
    if (node.tag === tag) found.push(node);
    node.children.forEach(walk);
  };
  content.blocks.forEach(walk);
  return found;
}

/** Whether two rich messages show the same (for "message is not modified"). */
export function sameRich(a: Pick<RichContent, "blocks">, b: Pick<RichContent, "blocks">): boolean {
  return JSON.stringify(a.blocks) === JSON.stringify(b.blocks);
}
