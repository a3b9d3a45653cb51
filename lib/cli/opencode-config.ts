// Adding Hermes to a user's opencode.json, which may be JSONC (comments, trailing commas): edited
// with jsonc-parser, so everything else in the file stays byte for byte. Pure: text in, text out.
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { isHermesSpec } from "../config/hermes-spec.ts";

const CONFIG_SCHEMA = "https://opencode.ai/config.json";

export type PluginEntryEdit =
  | { kind: "add"; text: string }
  /** Hermes is listed already (by name, path or a clone): nothing to change. */
  | { kind: "present"; spec: string; index: number; tuple: boolean }
  | { kind: "invalid"; reason: string };

/** `text`: the file's content ("" for a file that does not exist yet). */
export function addPluginEntry(text: string, entry: string): PluginEntryEdit {
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
  if (text.trim() === "") return { kind: "add", text: `${JSON.stringify({ $schema: CONFIG_SCHEMA, plugin: [entry] }, null, 2)}\n` };
  const errors: ParseError[] = [];
  const config = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) return { kind: "invalid", reason: `it is not valid JSON(C): ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}` };
  if (typeof config !== "object" || config === null || Array.isArray(config)) return { kind: "invalid", reason: "it does not hold a JSON object" };
  const plugins: unknown = (config as Record<string, unknown>).plugin;
  if (plugins !== undefined && !Array.isArray(plugins)) return { kind: "invalid", reason: 'its "plugin" is not a list' };
  const index = (plugins ?? []).findIndex((spec) => isHermesSpec(spec));
  if (index !== -1) {
    const present: unknown = (plugins as unknown[])[index];
    return { kind: "present", spec: JSON.stringify(present), index, tuple: Array.isArray(present) };
  }
  // First in the list: appended after a last element with a trailing comma, jsonc-parser would move
  // that element's line comment onto the new entry. (Order does not matter to Hermes.)
  const edits =
    plugins === undefined
      ? modify(text, ["plugin"], [entry], { formattingOptions })
      : modify(text, ["plugin", 0], entry, { formattingOptions, isArrayInsertion: true });
  return { kind: "add", text: applyEdits(text, edits) };
}

/** The Hermes entry at `index` of the plugin list named `entry` instead (a tuple keeps its options). */
export function replacePluginEntry(text: string, present: { index: number; tuple: boolean }, entry: string): string {
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
  const at = present.tuple ? ["plugin", present.index, 0] : ["plugin", present.index];
  return applyEdits(text, modify(text, at, entry, { formattingOptions }));
}

/** The changed lines, `-` before and `+` after, with one line of context on each side. */
export function lineDiff(before: string, after: string): string[] {
  const a = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const b = after.replace(/\n$/, "").split("\n");
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const lines: string[] = [];
  if (start > 0) lines.push(`  ${a[start - 1]}`);
  for (const line of a.slice(start, endA)) lines.push(`- ${line}`);
  for (const line of b.slice(start, endB)) lines.push(`+ ${line}`);
  if (endA < a.length) lines.push(`  ${a[endA]}`);
  return lines;
}
