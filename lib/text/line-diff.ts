// A unified diff of two texts, for OpenCode versions that report a file's whole text before and
// after a run instead of a patch (1.1.53). Line-based longest common subsequence with three lines
// of context; past a size bound it shows the whole file replaced (still a correct diff). Pure.

const CONTEXT = 3;
/** Cells of the LCS table (old lines × new lines) beyond which the diff is not minimised. */
const TABLE_LIMIT = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string };

export function unifiedDiff(file: string, before: string, after: string): string {
  const a = lines(before);
  const b = lines(after);
  const ops = a.length * b.length > TABLE_LIMIT ? replaceAll(a, b) : compare(a, b);
  const hunks = hunksOf(ops);
  if (hunks.length === 0) return "";
  const diff = [`--- a/${file}`, `+++ b/${file}`, ...hunks].join("\n");
  return `${diff}\n`;
}

function lines(text: string): string[] {
  if (text === "") return [];
  const split = text.split("\n");
  if (split[split.length - 1] === "") split.pop();
  return split;
}

function replaceAll(a: string[], b: string[]): Op[] {
  return [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))];
}

function compare(a: string[], b: string[]): Op[] {
  // table[i][j]: length of the LCS of a[i..] and b[j..], one flat array.
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] = a[i] === b[j] ? table[(i + 1) * width + j + 1]! + 1 : Math.max(table[(i + 1) * width + j]!, table[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i]! });
      i++;
      j++;
    } else if (table[(i + 1) * width + j]! >= table[i * width + j + 1]!) ops.push({ kind: "-", line: a[i++]! });
    else ops.push({ kind: "+", line: b[j++]! });
  }
  while (i < a.length) ops.push({ kind: "-", line: a[i++]! });
  while (j < b.length) ops.push({ kind: "+", line: b[j++]! });
  return ops;
}

/** Groups changes with their context into `@@ -l,n +l,n @@` hunks. */
function hunksOf(ops: Op[]): string[] {
  const out: string[] = [];
  let index = 0;
  while (index < ops.length) {
    const firstChange = ops.findIndex((op, at) => at >= index && op.kind !== " ");
    if (firstChange === -1) break;
    const start = Math.max(index, firstChange - CONTEXT);
    let end = firstChange;
    // Extend while the next change is within two contexts of the last one.
    for (let at = firstChange; at < ops.length; at++) {
      if (ops[at]!.kind !== " ") end = at;
      else if (at - end > CONTEXT * 2) break;
    }
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const slice = ops.slice(start, stop);
    const oldStart = ops.slice(0, start).filter((op) => op.kind !== "+").length;
    const newStart = ops.slice(0, start).filter((op) => op.kind !== "-").length;
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`, ...slice.map((op) => op.kind + op.line));
    index = stop;
  }
  return out;
}

/** Unified-diff line ranges: 1-based, and an empty range names the line before it. */
function range(start: number, count: number): string {
  return count === 1 ? String(start + 1) : `${count === 0 ? start : start + 1},${count}`;
}
