// Markdown, loaded on first use: marked (one 52 KB file, no dependencies) is imported when the first
// text the agent wrote is shown, never at start-up, and only once per process.
import { markdownRich } from "./markdown-rich.ts";
import type { RichText } from "./rich-text.ts";

/** Markdown source → Telegram's formatted text; `show` presents the source's own text (markdown-rich.ts). */
export type Markdown = (source: string, show?: (text: string) => string) => RichText;

/** No formatting: the text as it is (when marked could not be loaded). */
export const plainText: Markdown = (source, show = (text) => text) => ({ text: show(source), entities: [] });

/** marked's tokens of a Markdown source (GFM), as markdown-rich.ts walks them. */
export type Lex = (source: string) => Parameters<typeof markdownRich>[0];

let lexing: Promise<Lex | undefined> | undefined;
let loading: Promise<Markdown> | undefined;

/** marked's lexer (GFM: tables, strikethrough, task lists, bare URLs), loaded once; undefined if it can't be. */
export function loadLexer(): Promise<Lex | undefined> {
  lexing ??= import("marked").then(
    ({ Lexer }): Lex =>
      (source) =>
        Lexer.lex(source, { gfm: true }),
    () => undefined,
  );
  return lexing;
}

/** Markdown as Telegram's formatted text, once marked is loaded; plain text if it can't be. */
export function loadMarkdown(): Promise<Markdown> {
  loading ??= loadLexer().then((lex): Markdown => (lex ? (source, show) => markdownRich(lex(source), show) : plainText));
  return loading;
}
