// lib/cli/opencode-config.ts: adding Hermes to an opencode.json that may be JSONC, and the diff
// setup shows before writing. The file I/O and the question are in tests/unit/setup.test.ts.
import { parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { addPluginEntry, replacePluginEntry, lineDiff } from "../../lib/cli/opencode-config.ts";

const ENTRY = "opencode-hermes@0.2.0";

describe("addPluginEntry", () => {
  it("starts a new file with the schema and the entry", () => {
    const edit = addPluginEntry("", ENTRY);
    expect(edit.kind).toBe("add");
    expect(edit.kind === "add" && JSON.parse(edit.text)).toEqual({ $schema: "https://opencode.ai/config.json", plugin: [ENTRY] });
  });

  it("adds a plugin list to a config without one, keeping comments", () => {
    const text = '{\n  // model\n  "model": "x/y", /* why */\n}\n';
    const edit = addPluginEntry(text, ENTRY);
    if (edit.kind !== "add") throw new Error(edit.kind);
    expect(edit.text).toContain("// model");
    expect(edit.text).toContain("/* why */");
    expect(parse(edit.text)).toEqual({ model: "x/y", plugin: [ENTRY] });
  });

  it("puts the entry first in an existing list, keeping the other entries and their comments", () => {
    const text = '{\n  "plugin": [\n    "a", // first\n    ["b", { "x": 1 }], // second\n  ],\n}\n';
    const edit = addPluginEntry(text, ENTRY);
    if (edit.kind !== "add") throw new Error(edit.kind);
    expect(edit.text).toContain('"a", // first');
    expect(edit.text).toContain('["b", { "x": 1 }], // second');
    expect(parse(edit.text, [], { allowTrailingComma: true })).toEqual({ plugin: [ENTRY, "a", ["b", { x: 1 }]] });
  });

  it.each([["opencode-hermes"], ["opencode-hermes@0.1.0"], ["file:///home/you/hermes/plugin.ts"]])("finds Hermes already listed as %j", (spec) => {
    expect(addPluginEntry(JSON.stringify({ plugin: ["a", spec] }), ENTRY)).toEqual({ kind: "present", spec: JSON.stringify(spec), index: 1, tuple: false });
  });

  it("replaces the Hermes entry at its place (a tuple keeps its options): setup's fix for an entry that loads nothing", () => {
    const text = '{ "plugin": ["a", ["opencode-hermes@0.2.0", { "chatId": 42 }]] } // mine\n';
    const edit = addPluginEntry(text, ENTRY);
    expect(edit).toMatchObject({ kind: "present", index: 1, tuple: true });
    if (edit.kind !== "present") return;
    const replaced = replacePluginEntry(text, edit, ENTRY);
    expect(parse(replaced, [], { allowTrailingComma: true })).toEqual({ plugin: ["a", [ENTRY, { chatId: 42 }]] });
    expect(replaced).toContain("// mine");
  });

  it('OpenCode 2\'s list: adds to "plugins", finds a { package, options } entry, and replaces its package keeping the options', () => {
    const folder = "file:///home/you/hermes";
    expect(parse((addPluginEntry("", folder, "plugins") as { text: string }).text)).toEqual({ $schema: "https://opencode.ai/config.json", plugins: [folder] });
    const text = '{ "plugin": ["x"], "plugins": ["a", { "package": "opencode-hermes@0.2.0", "options": { "chatId": 42 } }] }\n';
    const edit = addPluginEntry(text, folder, "plugins");
    expect(edit).toEqual({ kind: "present", spec: '"opencode-hermes@0.2.0"', index: 1, tuple: false, object: true });
    if (edit.kind !== "present") return;
    expect(parse(replacePluginEntry(text, edit, folder, "plugins"))).toEqual({ plugin: ["x"], plugins: ["a", { package: folder, options: { chatId: 42 } }] });
    // A 1.x entry elsewhere in the file is not OpenCode 2's: the folder is added to "plugins".
    expect(parse((addPluginEntry('{ "plugin": ["/home/you/hermes/plugin.ts"] }', folder, "plugins") as { text: string }).text)).toEqual({
      plugin: ["/home/you/hermes/plugin.ts"],
      plugins: [folder],
    });
  });

  it.each([
    ['{ "plugin": [', /^it is not valid JSON\(C\)/],
    ["[1, 2]", /^it does not hold a JSON object$/],
    ['{ "plugin": "a" }', /^its "plugin" is not a list$/],
  ])("refuses %j", (text, reason) => {
    const edit = addPluginEntry(text, ENTRY);
    expect(edit.kind).toBe("invalid");
    expect(edit.kind === "invalid" && edit.reason).toMatch(reason);
  });
});

describe("lineDiff", () => {
  it("shows the changed lines with one line of context", () => {
    expect(lineDiff("a\nb\nc\nd\n", "a\nb\nX\nc\nd\n")).toEqual(["  b", "+ X", "  c"]);
    expect(lineDiff("a\nb\n", "a\nc\n")).toEqual(["  a", "- b", "+ c"]);
  });

  it("shows a new file as all added", () => {
    expect(lineDiff("", "{\n}\n")).toEqual(["+ {", "+ }"]);
  });
});
