// The rich form of an answer, with its Markdown parser loaded on first use (marked, through
// lib/text/markdown.ts' loader, the one today's messages use; a waiting OpenCode loads it not). The
// answer's hidden characters are marked first (lib/text/reveal.ts), as in today's messages.
import type { Strings } from "../i18n/catalog.ts";
import type { Html } from "../text/html.ts";
import { loadLexer } from "../text/markdown.ts";
import { reveal } from "../text/reveal.ts";
import { type RichAnswer, renderRichAnswer, renderRichDraft } from "./rich-answer.ts";
import type { RichHtml } from "./rich-html.ts";

/** `head` and `tail`: Hermes' lines around the answer (tail undefined: none); undefined: no rich form. */
export type RichAnswerRenderer = (head: Html, answer: string, tail: Html | undefined, file: string, t: Strings) => RichAnswer | undefined;

let loading: Promise<RichAnswerRenderer | undefined> | undefined;

/** The renderer, once marked is loaded; undefined if it can't be (then there is no rich form: today's HTML). */
export function loadRichAnswer(): Promise<RichAnswerRenderer | undefined> {
  loading ??= loadLexer().then((lex): RichAnswerRenderer | undefined =>
    lex ? (head, answer, tail, file, t) => renderRichAnswer(head, lex(reveal(answer.trim(), t, false)), tail, file, t) : undefined,
  );
  return loading;
}

/** An answer being written as a rich draft (rich-answer.ts' renderRichDraft); undefined: nothing shows yet. */
export type RichDraftRenderer = (answer: string, t: Strings) => RichHtml | undefined;

let loadingDraft: Promise<RichDraftRenderer | undefined> | undefined;

/** The draft renderer, once marked is loaded; undefined if it can't be (then drafts are today's). */
export function loadRichDraft(): Promise<RichDraftRenderer | undefined> {
  loadingDraft ??= loadLexer().then((lex): RichDraftRenderer | undefined =>
    lex ? (answer, t) => (answer.trim() === "" ? undefined : renderRichDraft(lex(reveal(answer.trim(), t, false)))) : undefined,
  );
  return loadingDraft;
}
