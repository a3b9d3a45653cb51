// Formatted text as Telegram itself models it: the visible text, and entities over ranges of it
// (UTF-16 offsets, the units Telegram counts). Cut on graphemes by what the user sees, then written
// as Telegram HTML with every tag closed where it opened. Pure.
import { escapeHtml, graphemeEnd, graphemeStart, type Html, trustedHtml } from "./html.ts";

export type EntityKind = "b" | "i" | "s" | "code" | "pre" | "a" | "blockquote";

export interface Entity {
  kind: EntityKind;
  offset: number;
  length: number;
  /** `pre`: the code block's language (already checked to be a plain name). */
  language?: string;
  /** `a`: the link's target (already checked to be http: or https:). */
  href?: string;
  /** `blockquote`: shown folded, a tap opens it. */
  expandable?: boolean;
}

/**
 * Entities are properly nested (two that share characters: one holds the other) and listed outer
 * first, as a tree walk writes them.
 */
export interface RichText {
  text: string;
  entities: Entity[];
}

const ELLIPSIS = "…";
/** A tail cut moves on to the next line start when one is this close: a whole line reads better. */
const LINE_START_REACH = 200;

/** The last `max` visible units at most, "…" first when cut; whole graphemes, every entity kept where it overlaps. */
export function richTail(rich: RichText, max: number): RichText {
  if (rich.text.length <= max) return rich;
  if (max < 1) return { text: "", entities: [] };
  let start = graphemeStart(rich.text, rich.text.length - (max - ELLIPSIS.length));
  const lineBreak = rich.text.indexOf("\n", start);
  if (lineBreak !== -1 && lineBreak - start < LINE_START_REACH) {
    let next = lineBreak;
    while (rich.text[next] === "\n") next++;
    if (next < rich.text.length) start = next;
  }
  return shifted(clip(rich, start, rich.text.length), ELLIPSIS, "");
}

/** The first `max` visible units at most, "…" last when cut; whole graphemes. */
export function richHead(rich: RichText, max: number): RichText {
  if (rich.text.length <= max) return rich;
  if (max < 1) return { text: "", entities: [] };
  const end = graphemeEnd(rich.text, max - ELLIPSIS.length);
  return shifted(clip(rich, 0, end), "", ELLIPSIS);
}

/** Telegram HTML for the text: each entity one tag pair, the text escaped. */
export function richHtml(rich: RichText): Html {
  const entities = rich.entities
    .filter((entity) => entity.length > 0)
    .map((entity, order) => ({ entity, order }))
    .sort((a, b) => a.entity.offset - b.entity.offset || b.entity.length - a.entity.length || a.order - b.order)
    .map(({ entity }) => entity);
  let html = "";
  let at = 0;
  const open: Entity[] = [];
  const closeUntil = (position: number) => {
    while (open.length > 0 && open[open.length - 1]!.offset + open[open.length - 1]!.length <= position) {
      const entity = open.pop()!;
      html += escapeHtml(rich.text.slice(at, entity.offset + entity.length)) + closeTag(entity);
      at = entity.offset + entity.length;
    }
  };
  for (const entity of entities) {
    closeUntil(entity.offset);
    html += escapeHtml(rich.text.slice(at, entity.offset)) + openTag(entity);
    at = entity.offset;
    open.push(entity);
  }
  closeUntil(Number.POSITIVE_INFINITY);
  // Every piece is an escaped text or a tag pair of openTag/closeTag: markup of Hermes' own.
  return trustedHtml(html + escapeHtml(rich.text.slice(at)));
}

/** Joins pieces of rich text with `separator` between them. */
export function richJoin(parts: RichText[], separator: string): RichText {
  let text = "";
  const entities: Entity[] = [];
  for (const part of parts) {
    if (text.length > 0) text += separator;
    for (const entity of part.entities) entities.push({ ...entity, offset: entity.offset + text.length });
    text += part.text;
  }
  return { text, entities };
}

function openTag(entity: Entity): string {
  switch (entity.kind) {
    case "pre":
      return entity.language ? `<pre><code class="language-${escapeHtml(entity.language)}">` : "<pre>";
    case "a":
      return `<a href="${escapeHtml(entity.href ?? "")}">`;
    case "blockquote":
      return entity.expandable ? "<blockquote expandable>" : "<blockquote>";
    default:
      return `<${entity.kind}>`;
  }
}

function closeTag(entity: Entity): string {
  return entity.kind === "pre" && entity.language ? "</code></pre>" : `</${entity.kind}>`;
}

function clip(rich: RichText, start: number, end: number): RichText {
  const entities: Entity[] = [];
  for (const entity of rich.entities) {
    const from = Math.max(entity.offset, start);
    const to = Math.min(entity.offset + entity.length, end);
    if (to > from) entities.push({ ...entity, offset: from - start, length: to - from });
  }
  return { text: rich.text.slice(start, end), entities };
}

function shifted(rich: RichText, before: string, after: string): RichText {
  return {
    text: before + rich.text + after,
    entities: rich.entities.map((entity) => ({ ...entity, offset: entity.offset + before.length })),
  };
}
