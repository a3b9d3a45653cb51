/**
 * Validator for Telegram's parse_mode=HTML subset. Returns the visible text (tags removed,
 * entities decoded) with the message entities Telegram would store for it, or the error text
 * Telegram would put after "can't parse entities: ".
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

const SIMPLE_TAGS = new Set(["b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "tg-spoiler", "code", "pre", "blockquote", "a", "span", "tg-emoji"]);
const NAMED_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"' };

interface OpenTag {
  name: string;
  offset: number;
  /** Where the tag's text starts in the plain text. */
  start: number;
  attrs: Map<string, string>;
}

export function parseTelegramHtml(text: string): HtmlResult {
  const stack: OpenTag[] = [];
  const entities: MessageEntity[] = [];
  let plain = "";
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "&") {
      const entity = decodeEntity(text, i);
      if (!entity) return fail(`Unsupported or unterminated character entity at byte offset ${byteOffset(text, i)}`);
      plain += entity.value;
      i = entity.end;
      continue;
    }
    if (ch !== "<") {
      plain += ch;
      i++;
      continue;
    }
    const close = text.indexOf(">", i);
    if (close === -1) return fail(`Unclosed start tag at byte offset ${byteOffset(text, i)}`);
    const inner = text.slice(i + 1, close);
    if (inner.startsWith("/")) {
      const name = inner.slice(1).trim().toLowerCase();
      const open = stack.pop();
      if (!open) return fail(`Unexpected end tag at byte offset ${byteOffset(text, i)}`);
      if (open.name !== name) {
        return fail(`Unmatched end tag at byte offset ${byteOffset(text, i)}, expected "</${open.name}>", found "</${name}>"`);
      }
      closeEntity(open, plain.length, stack, entities);
    } else {
      const tag = parseStartTag(inner);
      if (!tag) return fail(`Expected tag name at byte offset ${byteOffset(text, i)}`);
      const problem = checkStartTag(tag, stack);
      if (problem) return fail(`${problem} at byte offset ${byteOffset(text, i)}`);
      stack.push({ name: tag.name, offset: i, start: plain.length, attrs: tag.attrs });
    }
    i = close + 1;
  }
  const unclosed = stack.pop();
  if (unclosed) return fail(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
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

interface StartTag {
  name: string;
  attrs: Map<string, string>;
}

function parseStartTag(inner: string): StartTag | undefined {
  const m = /^([a-zA-Z][a-zA-Z0-9-]*)([\s\S]*)$/.exec(inner);
  if (!m) return undefined;
  const attrs = new Map<string, string>();
  const attrRe = /([a-zA-Z-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;
  const rest = m[2]!.trim().replace(/\/$/, "");
  for (const a of rest.matchAll(attrRe)) {
    attrs.set(a[1]!.toLowerCase(), a[2] ?? a[3] ?? a[4] ?? "");
  }
  return { name: m[1]!.toLowerCase(), attrs };
}

function checkStartTag(tag: StartTag, stack: OpenTag[]): string | undefined {
  if (!SIMPLE_TAGS.has(tag.name)) return `Unsupported start tag "${tag.name}"`;
  if (tag.name === "span" && tag.attrs.get("class") !== "tg-spoiler") return `Unsupported start tag "span"`;
  if (tag.name === "tg-emoji" && !tag.attrs.has("emoji-id")) return `Unsupported start tag "tg-emoji"`;
  const parent = stack[stack.length - 1]?.name;
  if (parent === "code") return `Entities can't be nested inside "code"`;
  if (parent === "pre" && tag.name !== "code") return `Entities can't be nested inside "pre"`;
  return undefined;
}

function decodeEntity(text: string, at: number): { value: string; end: number } | undefined {
  const semi = text.indexOf(";", at);
  if (semi === -1 || semi - at > 12) return undefined;
  const body = text.slice(at + 1, semi);
  const named = NAMED_ENTITIES[body];
  if (named !== undefined) return { value: named, end: semi + 1 };
  const num = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(body);
  if (!num) return undefined;
  const code = num[1] !== undefined ? parseInt(num[1], 16) : parseInt(num[2]!, 10);
  if (!Number.isFinite(code) || code > 0x10ffff) return undefined;
  return { value: String.fromCodePoint(code), end: semi + 1 };
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
