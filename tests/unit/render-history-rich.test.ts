// /history as a rich message (issue 52): the title, then a table with a row a prompt (its number
// as on its button, the prompt, the files its run changed), five a page and the page line; hostile
// prompts and file names pass the fakes' rich validator and show verbatim, in English and Chinese.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { html } from "../../lib/text/html.ts";
import { renderHistoryRich, type PromptView } from "../../lib/telegram/render/render-vocabulary.ts";
import { findBlocks, plainOf, readRichMessage } from "../support/telegram/rich.ts";

const TITLE = html`📁 <code>acme</code> · a &lt;title&gt;`;
const HOSTILE = ['<b>x</b> & "q" &amp;', "漢字 😀👨‍👩‍👧 | a | b |", "**bold** `code` <details>"];

function read(rich: string | undefined) {
  const result = readRichMessage({ html: rich });
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.content;
}

const prompt = (index: number, text: string, files: string[] = []): PromptView => ({ messageID: `msg_${index}`, text, files });

describe("/history as a rich message", () => {
  for (const lang of ["en", "zh"] as const) {
    it(`a table, a row a prompt with its files, hostile text verbatim (${lang})`, () => {
      const t = CATALOGS[lang];
      const entries = HOSTILE.map((text, index) => prompt(index, text, index === 0 ? ['src/<a>&"b".ts', "c.ts"] : []));
      const content = read(renderHistoryRich(entries, TITLE, 0, t));
      expect(findBlocks(content, "th").map((cell) => plainOf(cell))).toEqual([...t.rich.historyColumns]);
      const rows = findBlocks(content, "tr").slice(1);
      const cells = rows.map((row) => row.children.map((cell) => plainOf(cell as never)));
      expect(cells.map((row) => row[0])).toEqual(["1", "2", "3"]);
      expect(cells.map((row) => row[1])).toEqual(HOSTILE);
      expect(cells[0]![2]).toBe('src/<a>&"b".ts, c.ts');
      expect(plainOf(content.blocks[0]!)).toContain("a <title>");
    });
  }

  it("twelve prompts: five a page, the page line; none: the empty line", () => {
    const t = CATALOGS.en;
    const entries = Array.from({ length: 12 }, (_, i) => prompt(i, `prompt ${i}`));
    const second = read(renderHistoryRich(entries, TITLE, 1, t));
    const rows = findBlocks(second, "tr").slice(1);
    expect(rows.map((row) => plainOf(row.children[0] as never))).toEqual(["6", "7", "8", "9", "10"]);
    expect(second.blocks.map((block) => plainOf(block)).join("\n")).toContain("Page 2 of 3");
    expect(plainOf(read(renderHistoryRich([], TITLE, 0, t)).blocks[0]!)).toContain("no prompts yet");
  });
});
