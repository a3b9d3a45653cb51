// /diff as a rich message (Bot API 10.1+, issue 52): the summary open (project, branch, upstream),
// then each file's change in its own collapsible block, its summary line the file and its +/−
// counts. What does not fit one rich message (32,768 characters, 500 blocks, less the machine's
// label) is named in a line of its own, and the message says the whole diff follows as
// changes.diff. Pure: the diff's hidden characters marked, every outside text escaped.
import type { Strings } from "../../i18n/catalog.ts";
import { escapeRich, joinRich, RICH_LIMITS, rich, richDetails, richFromHtml, type RichHtml } from "../../rich/rich-html.ts";
import { RICH_LABEL_ROOM } from "../../rich/rich-answer.ts";
import { escapeHtml, escapeWithin, html, joinHtml } from "../../text/html.ts";
import { reveal, revealDiff } from "../../text/reveal.ts";
import type { DiffFileView, DiffView } from "./render-git.ts";
import { diffHead } from "./render-git.ts";
import { CHANGES_FILE } from "./render-changes.ts";

const NAME_LIMIT = 120;
/** Blocks one file takes: its collapsible block, the summary, the code block, and a margin. */
const FILE_BLOCKS = 4;
/** Room kept for the head, the note and the lines of files that did not fit. */
const OWN_ROOM = { chars: 2_000, blocks: 6 } as const;
/** Files named one by one when they did not fit; past them a count. */
const NAMED_LEFT_OUT = 40;

/** One file's part of a unified diff: its header line on. */
export interface DiffChunk {
  /** The file it names (a DiffFileView's path when one matches its header). */
  path: string;
  text: string;
  added: number;
  removed: number;
}

/** A unified diff cut at each `diff --git` line, each part matched to the file it names. */
export function splitDiff(diff: string, files: readonly DiffFileView[]): DiffChunk[] {
  const starts = [...diff.matchAll(/^diff --git /gm)].map((match) => match.index);
  if (starts.length === 0) return [];
  const chunks: DiffChunk[] = [];
  starts.forEach((start, index) => {
    const text = diff.slice(start, starts[index + 1] ?? diff.length).replace(/\n$/, "");
    const header = text.slice(0, text.indexOf("\n") < 0 ? text.length : text.indexOf("\n"));
    const file = files.find((f) => header === `diff --git a/${f.path} b/${f.path}`);
    const lines = text.split("\n");
    chunks.push({
      path: file?.path ?? header.slice("diff --git ".length),
      text,
      added: lines.filter((line) => line.startsWith("+") && !line.startsWith("+++")).length,
      removed: lines.filter((line) => line.startsWith("-") && !line.startsWith("---")).length,
    });
  });
  return chunks;
}

export interface RichDiff {
  rich: RichHtml;
  /** Some files' changes are not in it: changes.diff must follow. */
  needsFile: boolean;
}

/** /diff's message as rich HTML; undefined when a line of it has no rich form (today's message goes). */
export function renderDiffRich(view: DiffView, diff: string, t: Strings): RichDiff | undefined {
  const head = richFromHtml(diffHead(view, t));
  if (head === undefined) return undefined;
  if (view.files.length === 0) {
    const clean = richFromHtml(t.git.clean);
    return clean ? { rich: joinRich([head, clean]), needsFile: false } : undefined;
  }
  const budget = {
    chars: RICH_LIMITS.text - RICH_LABEL_ROOM.chars - OWN_ROOM.chars,
    blocks: RICH_LIMITS.blocks - RICH_LABEL_ROOM.blocks - OWN_ROOM.blocks,
  };
  const blocks: RichHtml[] = [head];
  const left: DiffChunk[] = [];
  for (const chunk of splitDiff(diff, view.files)) {
    const shown = revealDiff(chunk.text, t);
    const name = escapeWithin(reveal(chunk.path, t), NAME_LIMIT);
    const summary = richFromHtml(t.rich.fileSummary(name, escapeHtml(kindOf(view.files, chunk.path, t)), chunk.added, chunk.removed));
    const chars = shown.length + NAME_LIMIT + 40;
    if (summary === undefined || chars > budget.chars || FILE_BLOCKS > budget.blocks) {
      left.push(chunk);
      continue;
    }
    budget.chars -= chars;
    budget.blocks -= FILE_BLOCKS;
    blocks.push(richDetails(summary, rich`<pre><code class="language-diff">${escapeRich(shown)}</code></pre>`));
  }
  if (left.length > 0) {
    const named = left
      .slice(0, NAMED_LEFT_OUT)
      .map((chunk) => html`<code>${escapeWithin(reveal(chunk.path, t), NAME_LIMIT)}</code> +${chunk.added} −${chunk.removed}`);
    if (left.length > NAMED_LEFT_OUT) named.push(t.git.moreFiles(left.length - NAMED_LEFT_OUT));
    const note = richFromHtml(joinHtml([t.rich.diffLeftOut(left.length, escapeHtml(CHANGES_FILE)), ...named], "\n"));
    if (note === undefined) return undefined;
    blocks.push(note);
  }
  return { rich: joinRich(blocks), needsFile: left.length > 0 };
}

function kindOf(files: readonly DiffFileView[], path: string, t: Strings): string {
  const file = files.find((f) => f.path === path);
  if (!file) return "";
  return file.kind === "new"
    ? t.git.fileNew
    : file.kind === "deleted"
      ? t.git.fileDeleted
      : file.kind === "renamed"
        ? t.git.fileRenamed
        : file.binary
          ? t.git.fileBinary
          : "";
}
