// Adding Hermes to a user's opencode.json, which may be JSONC (comments, trailing commas): edited
// with jsonc-parser, so everything else in the file stays byte for byte. Pure: text in, text out.
import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from "jsonc-parser";
import { isHermesSpec } from "../config/hermes-spec.ts";
import { isRecord } from "../util/is-record.ts";

/** The list OpenCode reads plugins from: `plugin` on 1.x, `plugins` on 2.x. */
export type PluginKey = "plugin" | "plugins";

const CONFIG_SCHEMA = "https://opencode.ai/config.json";

export type PluginEntryEdit =
  | { kind: "add"; text: string }
  /** Hermes is listed already (by name, path or a clone): nothing to change. `tuple`: 1.x `[spec, options]`; `object`: 2.x `{ package, options }`. */
  | { kind: "present"; spec: string; index: number; tuple: boolean; object?: boolean }
  | { kind: "invalid"; reason: string };

/** `text`: the file's content ("" for a file that does not exist yet); `key`: the list to add to. */
export function addPluginEntry(text: string, entry: string, key: PluginKey = "plugin"): PluginEntryEdit {
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
  if (text.trim() === "") return { kind: "add", text: `${JSON.stringify({ $schema: CONFIG_SCHEMA, [key]: [entry] }, null, 2)}\n` };
  const errors: ParseError[] = [];
  const config = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) return { kind: "invalid", reason: `it is not valid JSON(C): ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}` };
  if (typeof config !== "object" || config === null || Array.isArray(config)) return { kind: "invalid", reason: "it does not hold a JSON object" };
  const plugins: unknown = (config as Record<string, unknown>)[key];
  if (plugins !== undefined && !Array.isArray(plugins)) return { kind: "invalid", reason: `its "${key}" is not a list` };
  const index = (plugins ?? []).findIndex((spec) => isHermesSpec(isRecord(spec) ? spec.package : spec));
  if (index !== -1) {
    const present: unknown = (plugins as unknown[])[index];
    return {
      kind: "present",
      spec: JSON.stringify(isRecord(present) ? present.package : present),
      index,
      tuple: Array.isArray(present),
      ...(isRecord(present) ? { object: true } : {}),
    };
  }
  // First in the list: appended after a last element with a trailing comma, jsonc-parser would move
  // that element's line comment onto the new entry. (Order does not matter to Hermes.)
  const edits =
    plugins === undefined ? modify(text, [key], [entry], { formattingOptions }) : modify(text, [key, 0], entry, { formattingOptions, isArrayInsertion: true });
  return { kind: "add", text: applyEdits(text, edits) };
}

/** The Hermes entry at `index` of the plugin list named `entry` instead (a tuple or an object keeps its options). */
export function replacePluginEntry(
  text: string,
  present: { index: number; tuple: boolean; object?: boolean },
  entry: string,
  key: PluginKey = "plugin",
): string {
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
  const at = present.tuple ? [key, present.index, 0] : present.object ? [key, present.index, "package"] : [key, present.index];
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
