// Markdown, loaded on first use: marked (one 52 KB file, no dependencies) is imported when the first
// text the agent wrote is shown, never at start-up, and only once per process.
import { markdownRich } from "./markdown-rich.ts";
import type { RichText } from "./rich-text.ts";

/** Markdown source → Telegram's formatted text; `show` presents the source's own text (markdown-rich.ts). */
export type Markdown = (source: string, show?: (text: string) => string) => RichText;

/** No formatting: the text as it is (when marked could not be loaded). */
export const plainText: Markdown = (source, show = (text) => text) => ({ text: show(source), entities: [] });

let loading: Promise<Markdown> | undefined;

/** marked's lexer (GFM: tables, strikethrough, task lists, bare URLs), loaded once; plain text if it can't be. */
export function loadMarkdown(): Promise<Markdown> {
  loading ??= import("marked").then(
    ({ Lexer }): Markdown =>
      (source, show) =>
        markdownRich(Lexer.lex(source, { gfm: true }), show),
    (): Markdown => plainText,
  );
  return loading;
}
