// What the agent wrote, as the phone shows it: its Markdown rendered (lib/text/markdown.ts), invisible
// characters marked (lib/text/reveal.ts), and cut to fit by what Telegram counts. An answer keeps its end
// (what it did, what is next) and says when the rest is in a file; a question keeps its start. Pure.
import type { Strings } from "../../i18n/catalog.ts";
import { escapeHtml, html, type Html, MESSAGE_LIMIT, visibleLength } from "../../text/html.ts";
import { LABEL_ROOM } from "./machine-label.ts";
import { plainText, type Markdown } from "../../text/markdown.ts";
import { reveal } from "../../text/reveal.ts";
import { richHead, richHtml, richTail, type RichText } from "../../text/rich-text.ts";

/** The whole answer, attached when the message can't show all of it. */
export const ANSWER_FILE = "answer.md";

/**
 * The agent's text as formatted text, hidden characters marked. An answer keeps line breaks and
 * indentation as written (code needs them); a prompt (`runs`) also marks long runs of blanks and
 * line breaks, so nothing in a question can be pushed out of view.
 */
export function agentRich(text: string, markdown: Markdown | undefined, t: Strings, runs = false): RichText {
  const source = reveal(text.trim(), t, false);
  return runs ? (markdown ?? plainText)(source, (piece) => reveal(piece, t)) : (markdown ?? plainText)(source);
}

/**
 * An answer in at most `room` visible units: all of it, or its end under a line saying it was
 * shortened (`shortened`: send the whole text as ANSWER_FILE with it).
 */
export function renderAnswer(text: string, markdown: Markdown | undefined, room: number, t: Strings): { html: Html; shortened: boolean } {
  const rich = agentRich(text, markdown, t);
  if (rich.text.length <= room) return { html: richHtml(rich), shortened: false };
  const note = t.answer.shortened(escapeHtml(ANSWER_FILE));
  return { html: html`${note}\n${richHtml(richTail(rich, room - visibleLength(note) - 1))}`, shortened: true };
}

/** Text the agent wrote in a prompt (a question, an option's description): its start, in at most `max` visible units. */
export function renderAgentText(text: string, markdown: Markdown | undefined, max: number, t: Strings): { html: Html; cut: boolean } {
  const rich = agentRich(text, markdown, t, true);
  return { html: richHtml(richHead(rich, max)), cut: rich.text.length > max };
}

/** A message showing an answer under `header` (HTML, one or more lines): "show this session's answer". */
export function renderAnswerMessage(header: Html, text: string, markdown: Markdown | undefined, t: Strings): { html: Html; shortened: boolean } {
  const answer = renderAnswer(text, markdown, MESSAGE_LIMIT - LABEL_ROOM - visibleLength(header) - 2, t);
  return { html: html`${header}\n\n${answer.html}`, shortened: answer.shortened };
}
