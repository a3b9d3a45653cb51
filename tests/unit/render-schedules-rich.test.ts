// /schedules as a rich message (issue 52): the title, then a table with a row a schedule (its
// number as on its cancel button, when, project, next run, instruction), ten at most and the rest
// counted; hostile projects and instructions pass the fakes' rich validator and show verbatim, in
// English and Chinese.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { renderScheduleListRich, type ScheduleView } from "../../lib/telegram/render/render-schedules.ts";
import { findBlocks, plainOf, readRichMessage } from "../support/telegram/rich.ts";

const NOW = Date.UTC(2026, 11, 2, 8, 0);
const HOSTILE = ['<b>x</b> & "q" &amp;', "漢字 😀👨‍👩‍👧 | a | b |", "**bold** `code` <details>"];

function read(rich: string | undefined) {
  const result = readRichMessage({ html: rich });
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.content;
}

const view = (index: number, instruction: string, project = `app-${index}`): ScheduleView => ({
  id: `s${index}`,
  directory: `/home/dev/${project}`,
  when: { kind: "interval", minutes: 30 + index, anchor: NOW },
  instruction,
  next: NOW + (index + 1) * 60_000,
});

describe("/schedules as a rich message", () => {
  for (const lang of ["en", "zh"] as const) {
    it(`a table, a row a schedule, hostile text verbatim (${lang})`, () => {
      const t = CATALOGS[lang];
      const views = HOSTILE.map((instruction, index) => view(index, instruction, index === 0 ? 'p<r>&"j"' : `app-${index}`));
      const content = read(renderScheduleListRich(views, NOW, t));
      const [table] = findBlocks(content, "table");
      expect(table).toBeDefined();
      const rows = findBlocks(content, "tr");
      expect(rows).toHaveLength(4);
      expect(findBlocks(content, "th").map((cell) => plainOf(cell))).toEqual([...t.rich.scheduleColumns]);
      const cells = rows.slice(1).map((row) => row.children.map((cell) => plainOf(cell as never)));
      expect(cells.map((row) => row[0])).toEqual(["1", "2", "3"]);
      expect(cells.map((row) => row[4])).toEqual(HOSTILE);
      expect(cells[0]![2]).toBe('p<r>&"j"');
    });
  }

  it("twelve schedules: ten rows, the rest counted; none: the empty list's line", () => {
    const t = CATALOGS.en;
    const content = read(
      renderScheduleListRich(
        Array.from({ length: 12 }, (_, i) => view(i, `run ${i}`)),
        NOW,
        t,
      ),
    );
    expect(findBlocks(content, "tr")).toHaveLength(11);
    expect(content.blocks.map((block) => plainOf(block)).join("\n")).toContain("2 more");
    const none = read(renderScheduleListRich([], NOW, t));
    expect(plainOf(none.blocks[0]!)).toContain("No schedules.");
  });
});
