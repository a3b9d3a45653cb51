// A Markdown table as monospace text: columns padded to line up (a CJK character or an emoji takes
// two columns on a phone's monospace font), a rule under the header. Pure.
import type { Tokens } from "marked";
import { graphemes } from "./html.ts";

const WIDE =
  /^(?:[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|[\u{20000}-\u{3FFFD}]|\p{Extended_Pictographic}|\p{Regional_Indicator})/u;

/** The columns a piece of text takes in a monospace font. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const grapheme of graphemes(text)) width += WIDE.test(grapheme) ? 2 : 1;
  return width;
}

export function tableText(table: Tokens.Table, plain: (cell: Tokens.TableCell) => string): string {
  const rows = [table.header, ...table.rows].map((row) => row.map((cell) => plain(cell).replace(/\s*\n\s*/g, " ")));
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, column) => Math.max(1, ...rows.map((row) => displayWidth(row[column] ?? ""))));
  const line = (row: string[]) =>
    widths
      .map((width, column) => pad(row[column] ?? "", width, table.align[column] ?? null))
      .join(" | ")
      .trimEnd();
  const [header, ...body] = rows;
  return [line(header!), widths.map((width) => "-".repeat(width)).join("-+-"), ...body.map(line)].join("\n");
}

function pad(text: string, width: number, align: "center" | "left" | "right" | null): string {
  const room = width - displayWidth(text);
  if (align === "right") return " ".repeat(room) + text;
  if (align === "center") return " ".repeat(Math.floor(room / 2)) + text + " ".repeat(room - Math.floor(room / 2));
  return text + " ".repeat(room);
}
