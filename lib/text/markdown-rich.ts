// Markdown as the agent wrote it, parsed (marked's tokens), turned into Telegram's formatted text:
// bold, italic, strikethrough, code, code blocks with their language, links, quotes (long ones
// folded), lists as "•" / "1." lines, headings as bold lines, tables as aligned monospace text.
// Raw HTML is text. Only http: and https: targets become links (a tg: link behind innocent text
// could add a proxy or join a chat: it stays text, its target shown). Pure: marked is only a type here.
import type { Token, Tokens } from "marked";
import type { Entity, EntityKind, RichText } from "./rich-text.ts";
import { tableText } from "./markdown-table.ts";

/** A quote longer than this (lines, or visible units) is shown folded: a tap opens it. */
const QUOTE_FOLD_LINES = 4;
const QUOTE_FOLD_LENGTH = 300;
const LIST_INDENT = "   ";
const RULE = "──────────";
const LINK_SCHEMES = /^https?:/i;
/** A code block's language becomes class="language-…" only when it is a plain name. */
const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,32}$/;

/** `show`: how the source's own text is presented (reveal.ts's markers for blank runs, in a prompt). */
export function markdownRich(tokens: Token[], show: (text: string) => string = (text) => text): RichText {
  const writer = new RichWriter(show);
  writer.blocks(tokens, "\n\n", 0);
  return writer.result();
}

/** Whether a link's target may become a tappable link. */
export function isLinkable(href: string): boolean {
  return LINK_SCHEMES.test(href.trim());
}

class RichWriter {
  readonly #present: (text: string) => string;
  #text = "";
  readonly #entities: Entity[] = [];
  #inLink = false;
  #inQuote = false;
  /** The kinds of the entities being written, outermost first. */
  readonly #open: EntityKind[] = [];

  constructor(present: (text: string) => string) {
    this.#present = present;
  }

  result(): RichText {
    const end = this.#text.trimEnd().length;
    const entities = this.#entities
      .map((entity) => ({ ...entity, length: Math.min(entity.offset + entity.length, end) - entity.offset }))
      .filter((entity) => entity.length > 0);
    return { text: this.#text.slice(0, end), entities };
  }

  blocks(tokens: Token[], separator: string, depth: number): void {
    let first = true;
    for (const token of tokens) {
      if (token.type === "space" || token.type === "def" || token.type === "checkbox") continue;
      if (!first) this.#write(separator);
      first = false;
      this.#block(token, depth);
    }
  }

  #block(token: Token, depth: number): void {
    switch (token.type) {
      case "paragraph":
      case "heading":
      case "text":
        if (token.type === "heading") this.#span("b", () => this.#inlineOf(token));
        else this.#inlineOf(token);
        break;
      case "code":
        this.#code(token as Tokens.Code);
        break;
      case "blockquote":
        this.#quote(token as Tokens.Blockquote, depth);
        break;
      case "list":
        this.#list(token as Tokens.List, depth);
        break;
      case "table":
        this.#span("pre", () => this.#write(tableText(token as Tokens.Table, (cell) => this.#plain(cell))));
        break;
      case "hr":
        this.#write(RULE);
        break;
      case "html":
        this.#show((token as Tokens.HTML).text.replace(/\n+$/, ""));
        break;
      default:
        this.#show(typeof token.raw === "string" ? token.raw.replace(/\n+$/, "") : "");
    }
  }

  inline(tokens: Token[]): void {
    for (const token of tokens) this.#inline(token);
  }

  #inline(token: Token): void {
    switch (token.type) {
      case "text":
        this.#inlineOf(token);
        break;
      case "escape":
      case "html":
        this.#show((token as Tokens.Escape).text);
        break;
      case "strong":
        this.#span("b", () => this.#inlineOf(token));
        break;
      case "em":
        this.#span("i", () => this.#inlineOf(token));
        break;
      case "del":
        this.#span("s", () => this.#inlineOf(token));
        break;
      case "codespan":
        // A link holds no other entity but bold, italic and strikethrough.
        if (this.#inLink) this.#show((token as Tokens.Codespan).text);
        else this.#span("code", () => this.#show((token as Tokens.Codespan).text));
        break;
      case "br":
        this.#write("\n");
        break;
      case "link":
        this.#link(token as Tokens.Link);
        break;
      case "image":
        this.#image(token as Tokens.Image);
        break;
      case "checkbox":
        break;
      default:
        this.#show(typeof token.raw === "string" ? token.raw : "");
    }
  }

  /** A token's inline children, or its own text when it has none. */
  #inlineOf(token: Token): void {
    const { tokens, text } = token as Tokens.Generic;
    if (Array.isArray(tokens)) this.inline(tokens);
    else if (typeof text === "string") this.#show(text);
  }

  #link(link: Tokens.Link): void {
    if (this.#inLink) {
      this.inline(link.tokens);
    } else if (isLinkable(link.href)) {
      this.#inLink = true;
      this.#wrap("a", { href: link.href.trim() }, () => this.inline(link.tokens));
      this.#inLink = false;
    } else {
      // Not a link Telegram should open (a path, mailto:, javascript:): its text, and where it pointed.
      this.inline(link.tokens);
      if (!link.autolink && link.href && link.href !== link.text) this.#show(` (${link.href})`);
    }
  }

  #image(image: Tokens.Image): void {
    const label = `🖼 ${image.text || image.href}`;
    if (this.#inLink || !isLinkable(image.href)) this.#show(image.href && image.text ? `${label} (${image.href})` : label);
    else this.#wrap("a", { href: image.href.trim() }, () => this.#show(label));
  }

  #code(code: Tokens.Code): void {
    const language = code.lang?.trim().split(/\s+/)[0] ?? "";
    this.#wrap("pre", LANGUAGE.test(language) ? { language } : {}, () => this.#show(code.text));
  }

  #quote(quote: Tokens.Blockquote, depth: number): void {
    // Quotes can't be nested in Telegram: an inner quote is shown as part of the outer one.
    if (this.#inQuote) {
      this.blocks(quote.tokens, "\n", depth);
      return;
    }
    this.#inQuote = true;
    const entity = this.#wrap("blockquote", {}, () => this.blocks(quote.tokens, "\n", depth));
    this.#inQuote = false;
    const shown = this.#text.slice(entity.offset, entity.offset + entity.length);
    if (shown.length > QUOTE_FOLD_LENGTH || shown.split("\n").length > QUOTE_FOLD_LINES) entity.expandable = true;
  }

  #list(list: Tokens.List, depth: number): void {
    const start = typeof list.start === "number" ? list.start : 1;
    list.items.forEach((item, index) => {
      if (index > 0) this.#write("\n");
      const marker = item.task ? (item.checked ? "☑" : "☐") : list.ordered ? `${start + index}.` : "•";
      this.#write(`${LIST_INDENT.repeat(depth)}${marker} `);
      this.blocks(item.tokens, "\n", depth + 1);
    });
  }

  /** A cell's text without its formatting (a table is monospace text). */
  #plain(cell: Tokens.TableCell): string {
    const writer = new RichWriter(this.#present);
    writer.inline(cell.tokens);
    return writer.result().text;
  }

  /** Text the source holds (not a marker or padding of ours), as `show` presents it. */
  #show(text: string): void {
    this.#write(this.#present(text));
  }

  #write(text: string): void {
    this.#text += text;
  }

  /** Bold inside bold (a bold heading's **word**) adds nothing: written once. */
  #span(kind: EntityKind, body: () => void): void {
    if (this.#open.includes(kind)) body();
    else this.#wrap(kind, {}, body);
  }

  /** Writes what `body` writes inside one entity; listed before any entity the body adds (outer first). */
  #wrap(kind: EntityKind, extra: Partial<Entity>, body: () => void): Entity {
    const entity: Entity = { kind, offset: this.#text.length, length: 0, ...extra };
    this.#entities.push(entity);
    this.#open.push(kind);
    body();
    this.#open.pop();
    entity.length = this.#text.length - entity.offset;
    return entity;
  }
}
