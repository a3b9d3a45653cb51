/**
 * Telegram's parse_mode=HTML, parsed the way tdlib's parse_html does it (td/telegram/MessageEntity.cpp,
 * which the Bot API server runs): the visible text (tags removed, entities decoded) with the
 * message entities Telegram would store for it, or the error Telegram puts after "can't parse
 * entities: ". Both fakes use it (fake-telegram.ts over HTTP, memory-telegram.ts in memory).
 *
 * As tdlib: a "<" always opens a tag, whose name runs to a blank or ">"; only the supported tags
 * (b strong i em u ins s strike del tg-spoiler span code pre blockquote a tg-emoji); attributes as
 * name=value, value quoted or a name token ([A-Za-z0-9.-]), `expandable` alone on a blockquote;
 * span only with class="tg-spoiler"; an end tag closes the last open one (an empty name too); a
 * tag left open is refused; decoded entities must leave valid Unicode (no lone surrogate).
 *
 * Stricter than tdlib where the Bot API documentation is ("All <, > and & symbols that are not a
 * part of a tag or an HTML entity must be replaced with the corresponding HTML entities"; "only the
 * following named HTML entities: &lt;, &gt;, &amp; and &quot;"): tdlib keeps an "&" that starts no
 * entity as text and decodes "&lt" without its ";", this parser refuses both, so Hermes never leans
 * on an undocumented leniency. Entities nested inside code or pre (but pre's own code) are refused
 * too: Telegram would drop their formatting.
 */
export type HtmlResult = { ok: true; plain: string; entities: MessageEntity[] } | { ok: false; error: string };

/** A formatting span as Telegram stores it (offset and length in UTF-16 code units of the plain text). */
export interface MessageEntity {
  type: string;
  offset: number;
  length: number;
  url?: string;
  language?: string;
  custom_emoji_id?: string;
}

/** Tags that mean the same entity (<b> and <strong> are both "bold"). */
const ENTITY_TYPES: Record<string, string> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  u: "underline",
  ins: "underline",
  s: "strikethrough",
  strike: "strikethrough",
  del: "strikethrough",
  "tg-spoiler": "spoiler",
  span: "spoiler",
  code: "code",
  pre: "pre",
  blockquote: "blockquote",
  a: "text_link",
  "tg-emoji": "custom_emoji",
};

const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };
/** tdlib's is_space (the end of the text counts as one too). */
const BLANK = new Set([" ", "\t", "\r", "\n", "\v", "\f", "\0"]);
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface OpenTag {
  name: string;
  /** Where the tag's text starts in the plain text. */
  start: number;
  attrs: Map<string, string>;
}

export function parseTelegramHtml(text: string): HtmlResult {
  const stack: OpenTag[] = [];
  const entities: MessageEntity[] = [];
  const at = (index: number) => `at byte offset ${byteOffset(text, index)}`;
  const blank = (index: number) => index >= text.length || BLANK.has(text[index]!);
  let plain = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "&") {
      const entity = decodeEntity(text, i);
      if (!entity) return fail(`Unsupported or unescaped "&" ${at(i)}`);
      plain += entity.value;
      i = entity.end;
      continue;
    }
    if (ch !== "<") {
      plain += ch;
      i++;
      continue;
    }
    const begin = i++;
    if (text[i] !== "/") {
      while (!blank(i) && text[i] !== ">") i++;
      if (i >= text.length) return fail(`Unclosed start tag ${at(begin)}`);
      const name = text.slice(begin + 1, i).toLowerCase();
      if (!Object.hasOwn(ENTITY_TYPES, name)) return fail(`Unsupported start tag "${name}" ${at(begin)}`);
      const attrs = new Map<string, string>();
      while (text[i] !== ">") {
        while (i < text.length && blank(i)) i++;
        if (i >= text.length) return fail(`Unclosed start tag "${name}" ${at(begin)}`);
        if (text[i] === ">") break;
        const nameStart = i;
        while (!blank(i) && text[i] !== "=" && text[i] !== ">") i++;
        const attribute = text.slice(nameStart, i);
        if (attribute === "") return fail(`Empty attribute name in the tag "${name}" ${at(begin)}`);
        while (i < text.length && blank(i)) i++;
        if (text[i] !== "=") {
          if (name === "blockquote" && attribute === "expandable") {
            attrs.set("expandable", "");
            continue;
          }
          return fail(`Expected equal sign in declaration of an attribute of the tag "${name}" ${at(begin)}`);
        }
        i++;
        while (i < text.length && blank(i)) i++;
        if (i >= text.length) return fail(`Unclosed start tag "${name}" ${at(begin)}`);
        let value = "";
        if (text[i] !== "'" && text[i] !== '"') {
          const tokenStart = i;
          while (i < text.length && /[A-Za-z0-9.-]/.test(text[i]!)) i++;
          value = text.slice(tokenStart, i).toLowerCase();
          if (!blank(i) && text[i] !== ">") return fail(`Unexpected end of name token ${at(tokenStart)}`);
        } else {
          const quote = text[i++];
          while (i < text.length && text[i] !== quote) {
            if (text[i] === "&") {
              const entity = decodeEntity(text, i);
              if (!entity) return fail(`Unsupported or unescaped "&" ${at(i)}`);
              value += entity.value;
              i = entity.end;
              continue;
            }
            value += text[i++];
          }
          if (text[i] === quote) i++;
        }
        if (i >= text.length) return fail(`Unclosed start tag ${at(begin)}`);
        attrs.set(attribute.toLowerCase(), value);
      }
      if (name === "span" && attrs.get("class") !== "tg-spoiler") return fail(`Tag "span" must have class "tg-spoiler" ${at(begin)}`);
      const parent = stack[stack.length - 1]?.name;
      if (parent === "code") return fail(`Entities can't be nested inside "code" ${at(begin)}`);
      if (parent === "pre" && name !== "code") return fail(`Entities can't be nested inside "pre" ${at(begin)}`);
      stack.push({ name, start: plain.length, attrs });
    } else {
      if (stack.length === 0) return fail(`Unexpected end tag ${at(begin)}`);
      i++;
      while (!blank(i) && text[i] !== ">") i++;
      const name = text.slice(begin + 2, i).toLowerCase();
      while (i < text.length && blank(i)) i++;
      if (text[i] !== ">") return fail(`Unclosed end tag ${at(begin)}`);
      const open = stack[stack.length - 1]!;
      if (name !== "" && name !== open.name) return fail(`Unmatched end tag ${at(begin)}, expected "</${open.name}>", found "</${name}>"`);
      stack.pop();
      closeEntity(open, plain.length, stack, entities);
    }
    i++;
  }
  const unclosed = stack.pop();
  if (unclosed) return fail(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  if (LONE_SURROGATE.test(plain))
    return fail("Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units");
  entities.sort((a, b) => a.offset - b.offset || b.length - a.length || a.type.localeCompare(b.type));
  return { ok: true, plain, entities };
}

function closeEntity(open: OpenTag, end: number, stack: OpenTag[], entities: MessageEntity[]): void {
  const length = end - open.start;
  if (length === 0) return;
  const type = open.name === "blockquote" && open.attrs.has("expandable") ? "expandable_blockquote" : ENTITY_TYPES[open.name]!;
  const entity: MessageEntity = { type, offset: open.start, length };
  if (type === "text_link") entity.url = open.attrs.get("href") ?? "";
  if (type === "custom_emoji") entity.custom_emoji_id = open.attrs.get("emoji-id") ?? "";
  if (type === "code" && stack[stack.length - 1]?.name === "pre") {
    // <pre><code class="language-x"> is one pre entity with a language.
    const language = /^language-(.+)$/.exec(open.attrs.get("class") ?? "")?.[1];
    if (language) stack[stack.length - 1]!.attrs.set("language", language);
    return;
  }
  if (type === "pre" && open.attrs.has("language")) entity.language = open.attrs.get("language")!;
  entities.push(entity);
}

/** Telegram drops leading and trailing whitespace from a message; entities move with the text. */
export function trimmed(plain: string, entities: MessageEntity[]): { plain: string; entities: MessageEntity[] } {
  const start = plain.length - plain.trimStart().length;
  const text = plain.trim();
  const kept: MessageEntity[] = [];
  for (const entity of entities) {
    const from = Math.max(entity.offset - start, 0);
    const to = Math.min(entity.offset + entity.length - start, text.length);
    if (to > from) kept.push({ ...entity, offset: from, length: to - from });
  }
  return { plain: text, entities: kept };
}

/** One of the four named entities or a numeric one (as tdlib: not 0, below U+10FFFF, under 10 characters), ended by ";". */
function decodeEntity(text: string, at: number): { value: string; end: number } | undefined {
  const match = /^&(?:([a-z]+)|#x([0-9a-fA-F]+)|#([0-9]+));/.exec(text.slice(at, at + 12));
  if (!match) return undefined;
  if (match[1] !== undefined) {
    const named = Object.hasOwn(NAMED_ENTITIES, match[1]) ? NAMED_ENTITIES[match[1]] : undefined;
    return named === undefined ? undefined : { value: named, end: at + match[0].length };
  }
  if (match[0].length - 1 >= 10) return undefined;
  const code = match[2] !== undefined ? parseInt(match[2], 16) : parseInt(match[3]!, 10);
  if (!(code > 0 && code < 0x10ffff)) return undefined;
  return { value: String.fromCodePoint(code), end: at + match[0].length };
}

function byteOffset(text: string, index: number): number {
  return Buffer.byteLength(text.slice(0, index));
}

function fail(error: string): HtmlResult {
  return { ok: false, error };
}

/** Escapes text for parse_mode HTML (handy for tests building expected strings). */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
