// What of an answer is read aloud, pure: the agent's Markdown as plain speech. A code block, a table
// and a link are named, not spelled out ("a code block of 12 lines"); emphasis, headings, quotes
// and list marks go; inline code keeps its words. At most SPOKEN_LIMIT_CHARS (about two minutes
// of speech), cut after a sentence, and then the voice says the rest is in the text.
import type { SpeechStrings } from "../i18n/speech-strings.ts";

/** About two minutes of speech: some 150 words a minute, six characters a word (fewer for Chinese, which is denser). */
export const SPOKEN_LIMIT_CHARS = 1_800;
/** A cut looks back this far for a sentence's end, else it ends at a space. */
const SENTENCE_REACH = 400;

export function spokenText(markdown: string, say: SpeechStrings["spoken"]): { text: string; cut: boolean } {
  const plain = speakable(markdown, say);
  if (plain.length <= SPOKEN_LIMIT_CHARS) return { text: plain, cut: false };
  const head = plain.slice(0, SPOKEN_LIMIT_CHARS);
  const sentence = Math.max(...[". ", "! ", "? ", "。", "！", "？", "\n"].map((end) => head.lastIndexOf(end)));
  const space = head.lastIndexOf(" ");
  const at = sentence >= SPOKEN_LIMIT_CHARS - SENTENCE_REACH ? sentence + 1 : space > 0 ? space : SPOKEN_LIMIT_CHARS;
  return { text: `${head.slice(0, at).trim()}\n\n${say.restInText}`, cut: true };
}

/** The Markdown as words. */
function speakable(markdown: string, say: SpeechStrings["spoken"]): string {
  return markdown
    .replace(/\r\n?/g, "\n")
    .replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)(?:\n {0,3}\1[`~]*[ \t]*(?=\n|$)|$(?![\s\S]))/gm, (_, _fence, code: string) =>
      say.codeBlock(code === "" ? 0 : code.split("\n").length),
    )
    .replace(/(?:^[ \t]*\|.*\|[ \t]*(?:\n|$)){2,}/gm, (table: string) => `${say.table(tableRows(table))}\n`)
    .replace(/!\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/\[([^\]\n]+)\]\([^)\n]*\)/g, "$1")
    .replace(/<?\bhttps?:\/\/[^\s>)]+>?/g, say.link)
    .replace(/`([^`\n]+)`/g, "$1")
    .replace(/^ {0,3}#{1,6}[ \t]+/gm, "")
    .replace(/^ {0,3}>[ \t]?/gm, "")
    .replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, "")
    .replace(/^ {0,3}(?:[-*_][ \t]*){3,}$/gm, "")
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[^\w*])[*_](?=\S)([^*_\n]*?\S)[*_](?!\w)/g, "$1$2")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A Markdown table's rows, its header and the line under it left out. */
function tableRows(table: string): number {
  const lines = table.trim().split("\n");
  const separator = lines.findIndex((line) => /^[\s|:-]+$/.test(line));
  return separator === -1 ? lines.length : lines.length - separator - 1;
}
