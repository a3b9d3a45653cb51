// /diff as a rich message (issue 52): each file's change in its own collapsible block under the
// open summary, the file and its +/− counts on its summary line, every line verbatim (hostile
// names and lines included) and passing the fakes' rich validator; what does not fit one rich
// message is named, the message says the whole diff is in changes.diff (needsFile).
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { renderDiffRich, splitDiff } from "../../lib/telegram/render/render-diff-rich.ts";
import type { DiffFileView, DiffView } from "../../lib/telegram/render/render-git.ts";
import { findBlocks, plainOf, readRichMessage } from "../support/telegram/rich.ts";

const t = CATALOGS.en;

function fileDiff(path: string, lines: string[]): string {
  return [`diff --git a/${path} b/${path}`, "index 1111111..2222222 100644", `--- a/${path}`, `+++ b/${path}`, `@@ -1,1 +1,${lines.length} @@`, ...lines].join(
    "\n",
  );
}

function view(files: DiffFileView[]): DiffView {
  return { project: "hermes", branch: "main", upstream: "origin/main", ahead: 1, behind: 0, files };
}

const modified = (path: string, added: number, removed = 0): DiffFileView => ({ path, kind: "modified", added, removed, binary: false });

function read(rich: string) {
  const result = readRichMessage({ html: rich });
  if (!result.ok) throw new Error(`refused: ${result.error}`);
  return result.content;
}

describe("/diff as a rich message", () => {
  it("each file in its own closed collapsible block, its name and counts on the summary, every line verbatim", () => {
    const hostile = ['+<b>bold</b> & "quoted" &amp; 漢字 😀👨‍👩‍👧 🇫🇷', "-old <i>line</i>", "+**not markdown** `x` | a | b |"];
    const diff = `${fileDiff("src/a <b>.ts", hostile)}\n${fileDiff("docs/b.md", ["+one", "+two"])}\n`;
    const files = [modified("src/a <b>.ts", 2, 1), { ...modified("docs/b.md", 2), kind: "new" as const }];
    const rendered = renderDiffRich(view(files), diff, t)!;
    expect(rendered.needsFile).toBe(false);
    const content = read(rendered.rich);
    const blocks = findBlocks(content, "details");
    expect(blocks).toHaveLength(2);
    for (const block of blocks) expect(block.attrs.open).toBeUndefined();
    expect(plainOf(blocks[0]!.children[0]!)).toBe("📄 src/a <b>.ts +2 −1");
    expect(plainOf(blocks[1]!.children[0]!)).toBe("📄 docs/b.md (new) +2 −0");
    for (const line of hostile) expect(plainOf(blocks[0]!)).toContain(line);
    expect(findBlocks(content, "code").filter((code) => code.attrs.class === "language-diff")).toHaveLength(2);
    expect(plainOf(content.blocks[0]!)).toContain("hermes on main");
  });

  it("a clean tree: the summary and 'Nothing uncommitted.'", () => {
    const content = read(renderDiffRich(view([]), "", t)!.rich);
    expect(findBlocks(content, "details")).toHaveLength(0);
    expect(content.blocks.map((block) => plainOf(block)).join("\n")).toContain("Nothing uncommitted.");
  });

  it("past the limits: the files that fit as blocks, the rest named, and the message says changes.diff follows", () => {
    const big = Array.from({ length: 700 }, (_, i) => `+line ${i} of a long file`);
    const paths = ["one.ts", "two.ts", "three.ts", "four.ts"];
    const diff = paths.map((path) => fileDiff(path, big)).join("\n");
    const rendered = renderDiffRich(view(paths.map((path) => modified(path, 700))), diff, t)!;
    expect(rendered.needsFile).toBe(true);
    const content = read(rendered.rich);
    expect(content.stats.chars).toBeLessThanOrEqual(32768 - 80);
    const shown = findBlocks(content, "details");
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(4);
    const text = content.blocks.map((block) => plainOf(block)).join("\n");
    expect(text).toMatch(/files' changes do not fit in this message: the whole diff is in the file changes\.diff below\./);
    expect(text).toContain("four.ts +700 −0");
  });

  it("500 files: within 500 blocks, the rest named and counted", () => {
    const paths = Array.from({ length: 500 }, (_, i) => `f${i}.txt`);
    const diff = paths.map((path) => fileDiff(path, ["+x"])).join("\n");
    const rendered = renderDiffRich(view(paths.map((path) => modified(path, 1))), diff, t)!;
    const content = read(rendered.rich);
    expect(content.stats.blocks).toBeLessThanOrEqual(500);
    expect(rendered.needsFile).toBe(true);
    expect(content.blocks.map((block) => plainOf(block)).join("\n")).toMatch(/… and \d+ more/);
  });

  it("splitDiff: a part per file, a quoted header named as git wrote it", () => {
    const diff = `${fileDiff("a.ts", ["+1"])}\ndiff --git "a/t\\303\\251.txt" "b/t\\303\\251.txt"\nnew file mode 100644\n--- /dev/null\n+++ "b/t\\303\\251.txt"\n@@ -0,0 +1 @@\n+é\n`;
    const chunks = splitDiff(diff, [modified("a.ts", 1)]);
    expect(chunks.map((chunk) => [chunk.path, chunk.added, chunk.removed])).toEqual([
      ["a.ts", 1, 0],
      ['"a/t\\303\\251.txt" "b/t\\303\\251.txt"', 1, 0],
    ]);
  });
});
