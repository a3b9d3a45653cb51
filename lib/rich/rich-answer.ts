// A message that carries an answer the agent wrote, as one rich message: Hermes' own lines above
// it (the Done notice's status, time, cost, project) and below it (what changed, the reply hint),
// and between them the answer's Markdown as rich blocks (markdown-blocks.ts). Within Telegram's
// limits it is the whole answer; past them, as today's messages do, its end (what it did, what is
// next), whole blocks kept, with a line saying how much shows and that the whole answer is in the
// file sent with it. Undefined when Hermes' own lines have no rich form (richFromHtml). Pure.
import type { Token } from "marked";
import type { Strings } from "../i18n/catalog.ts";
import { escapeHtml, graphemeStart, type Html } from "../text/html.ts";
import { markdownBlocks, type RichBlock } from "./markdown-blocks.ts";
import { escapeRich, htmlTally, joinRich, RICH_LIMITS, rich, richFromHtml, type RichHtml } from "./rich-html.ts";

/** Left free for what a wrapper adds to every message (the machine's label, lib/telegram/render/machine-label.ts). */
export const RICH_LABEL_ROOM = { chars: 80, blocks: 1 } as const;

export interface RichAnswer {
  html: RichHtml;
  /** Only the answer's end shows: the whole goes with it as a file. */
  shortened: boolean;
}

/**
 * `head` and `tail`: Hermes' lines (Telegram HTML) above and below the answer; `tokens`: the
 * answer's Markdown, lexed; `file`: the name the whole answer is attached as.
 */
export function renderRichAnswer(head: Html, tokens: Token[], tail: Html | undefined, file: string, t: Strings): RichAnswer | undefined {
  const top = richFromHtml(head);
  const bottom = tail === undefined ? undefined : richFromHtml(tail);
  if (top === undefined || (tail !== undefined && bottom === undefined)) return undefined;
  const blocks = markdownBlocks(tokens);
  const total = blocks.reduce((sum, block) => sum + block.chars, 0);
  // The note's numbers are at most six digits: measured at its widest.
  const note = t.rich.answerCut(999_999, 999_999, escapeHtml(file));
  const own = [head, note, ...(tail !== undefined ? [tail] : [])].map(htmlTally);
  const room = {
    chars: RICH_LIMITS.text - RICH_LABEL_ROOM.chars - own.reduce((sum, part) => sum + part.chars, 0),
    blocks: RICH_LIMITS.blocks - RICH_LABEL_ROOM.blocks - own.length,
  };
  const kept = fittingEnd(blocks, room);
  const shortened = kept.length < blocks.length;
  let body = joinRich(kept.map((block) => block.html));
  let shown = kept.reduce((sum, block) => sum + block.chars, 0);
  if (kept.length === 0 && blocks.length > 0) {
    // Not even the last block fits (one huge code block, a list of a thousand items): the end of its text, as written.
    const last = blocks[blocks.length - 1]!;
    const text = last.source.replace(/\n+$/, "");
    const end = text.slice(graphemeStart(text, text.length - room.chars));
    body = rich`<pre>${escapeRich(end)}</pre>`;
    shown = end.length;
  }
  const cut = shortened ? richFromHtml(t.rich.answerCut(shown, total, escapeHtml(file))) : undefined;
  return { html: joinRich([top, body, ...(cut ? [cut] : []), ...(bottom ? [bottom] : [])]), shortened };
}

/**
 * An answer still being written, as a rich draft (sendRichMessageDraft): its Markdown as rich
 * blocks, its end in whole blocks past the limits (a draft is a preview: no note, no file), the
 * end of a single huge block's text as written. Undefined while nothing shows.
 */
export function renderRichDraft(tokens: Token[]): RichHtml | undefined {
  const blocks = markdownBlocks(tokens);
  const room = { chars: RICH_LIMITS.text - RICH_LABEL_ROOM.chars, blocks: RICH_LIMITS.blocks - RICH_LABEL_ROOM.blocks };
  const kept = fittingEnd(blocks, room);
  if (kept.length > 0) return joinRich(kept.map((block) => block.html));
  const last = blocks[blocks.length - 1];
  if (last === undefined) return undefined;
  const text = last.source.replace(/\n+$/, "");
  return rich`<pre>${escapeRich(text.slice(graphemeStart(text, text.length - room.chars)))}</pre>`;
}

/** The longest run of blocks at the end that fits the room. */
function fittingEnd(blocks: RichBlock[], room: { chars: number; blocks: number }): RichBlock[] {
  let chars = 0;
  let count = 0;
  let start = blocks.length;
  while (start > 0) {
    const block = blocks[start - 1]!;
    if (chars + block.chars > room.chars || count + block.blocks > room.blocks) break;
    chars += block.chars;
    count += block.blocks;
    start--;
  }
  return blocks.slice(start);
}
