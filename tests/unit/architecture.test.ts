// docs/architecture.md's layer table is the rule: every file in lib/ belongs to a row, and an
// import may cross only into the units its row lists. No import cycle, between files (type-only
// imports and re-exports count) or between units. The checks are tested on made-up tables and
// imports first, so a broken checker can't pass the real code.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, graphOf, importsOf, readLayers, unitCycles, unitOf, violations } from "../support/import-graph.ts";

const REPO = path.resolve(import.meta.dirname, "../..");

const TABLE = `
| Unit | Owns | May import |
|---|---|---|
| \`lib/hub.ts\` | top | \`lib/*.ts\`, \`lib/bridge/\` |
| \`lib/*.ts\` | leaves | \`lib/i18n/\` |
| \`lib/i18n/\` | strings | |
| \`lib/bridge/\` | routes | \`lib/*.ts\` |
`;

describe("the layer checker", () => {
  const layers = readLayers(TABLE);
  const units = layers.map((layer) => layer.unit);

  it("reads each row's unit and the units it may import", () => {
    expect(layers).toEqual([
      { unit: "lib/hub.ts", mayImport: ["lib/*.ts", "lib/bridge/"] },
      { unit: "lib/*.ts", mayImport: ["lib/i18n/"] },
      { unit: "lib/i18n/", mayImport: [] },
      { unit: "lib/bridge/", mayImport: ["lib/*.ts"] },
    ]);
  });

  it("puts a file in the most specific unit that names it", () => {
    expect(unitOf("lib/hub.ts", units)).toBe("lib/hub.ts");
    expect(unitOf("lib/config.ts", units)).toBe("lib/*.ts");
    expect(unitOf("lib/bridge/bridge.ts", units)).toBe("lib/bridge/");
    expect(unitOf("lib/relay/relay.ts", units)).toBeUndefined();
  });

  it("flags an import into a unit the row does not list, a file no row names, and a listed unit nothing imports", () => {
    const files = ["lib/hub.ts", "lib/config.ts", "lib/bridge/bridge.ts", "lib/relay/relay.ts"];
    const found = violations(
      layers,
      [
        { from: "lib/hub.ts", to: "lib/bridge/bridge.ts" },
        { from: "lib/bridge/bridge.ts", to: "lib/config.ts" },
        { from: "lib/bridge/bridge.ts", to: "lib/bridge/core/desk.ts" },
        { from: "lib/config.ts", to: "lib/bridge/bridge.ts" },
      ],
      files,
    );
    expect(found).toEqual([
      "lib/relay/relay.ts: no row of the table names it",
      "lib/config.ts imports lib/bridge/bridge.ts: lib/*.ts may not import lib/bridge/",
      "lib/hub.ts may import lib/*.ts but imports nothing from it",
      "lib/*.ts may import lib/i18n/ but imports nothing from it",
    ]);
  });

  it("flags a file in a folder that has no row of its own (a subfolder is a unit too)", () => {
    const files = ["lib/bridge/bridge.ts", "lib/bridge/runs/stop.ts", "lib/config.ts"];
    expect(violations(layers, [], files)).toContain("lib/bridge/runs/stop.ts: its folder lib/bridge/runs/ has no row of its own");
    expect(violations(layers, [], files).filter((line) => line.includes("bridge.ts") || line.includes("config.ts"))).toEqual([]);
  });

  it("finds two folders that import each other, and none when imports go one way", () => {
    const folders = ["lib/bridge/runs/", "lib/bridge/prompts/"];
    const oneWay = [{ from: "lib/bridge/runs/stop.ts", to: "lib/bridge/prompts/life.ts" }];
    expect(unitCycles(oneWay, folders)).toEqual([]);
    expect(unitCycles([...oneWay, { from: "lib/bridge/prompts/life.ts", to: "lib/bridge/runs/notice.ts" }], folders)).toEqual([
      ["lib/bridge/runs/", "lib/bridge/prompts/", "lib/bridge/runs/"],
    ]);
  });

  it("sees static, type-only, multi-line, re-exported and dynamic imports", () => {
    const dir = fs.mkdtempSync(path.join(REPO, "node_modules", ".layers-"));
    try {
      fs.mkdirSync(path.join(dir, "lib/a"), { recursive: true });
      fs.writeFileSync(
        path.join(dir, "lib/a/x.ts"),
        [
          'import { a } from "../b.ts";',
          'import type { T } from "./y.ts";',
          "import {\n  c,\n  d,\n} from '../c/z.ts';",
          'export { e } from "../e.ts";',
          'const f = await import("../f.ts");',
          'import "../g.ts";',
          'const notAnImport = "../h.ts";',
        ].join("\n"),
      );
      expect(
        importsOf(dir, ["lib/a/x.ts"])
          .map((i) => i.to)
          .sort(),
      ).toEqual(["lib/a/y.ts", "lib/b.ts", "lib/c/z.ts", "lib/e.ts", "lib/f.ts", "lib/g.ts"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds a cycle through type-only imports and re-exports, and none in a tree", () => {
    expect(
      cycles(
        graphOf(
          [
            { from: "a.ts", to: "b.ts" },
            { from: "b.ts", to: "c.ts" },
            { from: "c.ts", to: "a.ts" },
          ],
          ["a.ts", "b.ts", "c.ts"],
        ),
      ),
    ).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    expect(
      cycles(
        graphOf(
          [
            { from: "a.ts", to: "b.ts" },
            { from: "a.ts", to: "c.ts" },
            { from: "b.ts", to: "c.ts" },
          ],
          ["a.ts", "b.ts", "c.ts"],
        ),
      ),
    ).toEqual([]);
  });
});

describe("lib/ as built", () => {
  const layers = readLayers(fs.readFileSync(path.join(REPO, "docs/architecture.md"), "utf8"));
  const units = layers.map((layer) => layer.unit);
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "lib", "plugin.ts", "server.ts"], { cwd: REPO, encoding: "utf8" })
    .split("\n")
    .filter((file) => file.endsWith(".ts") && fs.existsSync(path.join(REPO, file)));
  const imports = importsOf(REPO, files);

  it("reads the whole of it", () => {
    expect(layers.length).toBeGreaterThan(10);
    expect(files.length).toBeGreaterThan(50);
    expect(imports.length).toBeGreaterThan(200);
    for (const { from, to } of imports) expect(files, `${from} imports ${to}`).toContain(to);
  });

  it("follows docs/architecture.md: every file has a row, every import is allowed by it", () => {
    expect(violations(layers, imports, files)).toEqual([]);
  });

  it("keeps lib/bridge/ and lib/telegram/ grouped: at most 15 files directly in each (more go into a capability's folder)", () => {
    for (const folder of ["lib/bridge", "lib/telegram"]) {
      const direct = files.filter((file) => path.posix.dirname(file) === folder);
      expect(direct.length, `${folder}: ${direct.join(", ")}`).toBeLessThanOrEqual(15);
      expect(direct.length).toBeGreaterThan(0);
    }
  });

  it("has no import cycle between files", () => {
    expect(cycles(graphOf(imports, files)).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("lists units from the bottom up: a row imports only units that stand higher in the table", () => {
    const higher = layers.flatMap(({ unit, mayImport }, row) =>
      mayImport.filter((other) => !units.slice(0, row).includes(other)).map((other) => `${unit} → ${other}`),
    );
    expect(higher).toEqual([]);
  });

  it("has no cycle between units either: no two folders import each other", () => {
    expect(unitCycles(imports, units).map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});

// Issue 48's rules for the rooms a newcomer sees: folders, not the table's units alone.
describe("the rooms of lib/", () => {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "lib"], { cwd: REPO, encoding: "utf8" })
    .split("\n")
    .filter((file) => file.endsWith(".ts") && fs.existsSync(path.join(REPO, file)));
  const folders = (under: string) => [
    ...new Set(
      files
        .filter((file) => file.startsWith(under) && file.split("/").length > under.split("/").length)
        .map((file) => file.split("/").slice(0, under.split("/").length).join("/")),
    ),
  ];

  it("lib/'s top holds hermes-events.ts and nothing else", () => {
    expect(files.filter((file) => path.posix.dirname(file) === "lib")).toEqual(["lib/hermes-events.ts"]);
  });

  it("collapsed to its top-level folders, lib/ imports one way: no folder cycle", () => {
    const top = [...folders("lib/").map((folder) => `${folder}/`), "lib/hermes-events.ts"];
    const collapsed = importsOf(REPO, files).map(({ from, to }) => ({ from, to }));
    expect(unitCycles(collapsed, top).map((cycle) => cycle.join(" → "))).toEqual([]);
    // The check sees a loop between two top-level folders (as lib/i18n/ ↔ lib/telegram/ was).
    expect(unitCycles([...collapsed, { from: "lib/text/html.ts", to: "lib/i18n/catalog.ts" }], top).length).toBeGreaterThan(0);
  });

  it("a phone folder's routes are one file, <folder>-routes.ts, and a capability's pure and phone halves share one name", () => {
    const own = new Set(["core", "prompts", "input", "bot", "agent-tools"]); // the bridge's own rooms, wired by lib/bridge/bridge.ts
    for (const folder of folders("lib/bridge/")) {
      const name = path.posix.basename(folder);
      const routes = files.filter((file) => path.posix.dirname(file) === folder && file.endsWith("-routes.ts"));
      expect(routes, folder).toEqual(own.has(name) ? [] : [`${folder}/${name}-routes.ts`]);
    }
    const phone = folders("lib/bridge/").map((folder) => path.posix.basename(folder));
    for (const pure of folders("lib/").map((folder) => path.posix.basename(folder))) {
      const near = phone.filter((name) => name !== pure && name.replace(/s$/, "") === pure.replace(/s$/, ""));
      expect(near, `lib/${pure}/`).toEqual([]);
    }
  });

  it("a capability's strings are one triplet: <name>-strings.ts, <name>-en.ts, <name>-zh.ts", () => {
    const i18n = files.filter((file) => path.posix.dirname(file) === "lib/i18n").map((file) => path.posix.basename(file));
    const stems = (suffix: string) => i18n.filter((name) => name.endsWith(suffix)).map((name) => name.slice(0, -suffix.length));
    expect(stems("-strings.ts").sort()).toEqual(stems("-en.ts").sort());
    expect(stems("-strings.ts").sort()).toEqual(stems("-zh.ts").sort());
    expect(i18n.filter((name) => /^(en|zh)-/.test(name))).toEqual([]);
  });

  it("a comment names a file of its own folder by name, any other by a repository path that exists", () => {
    const wrong: string[] = [];
    for (const file of files) {
      const folder = path.posix.dirname(file);
      for (const line of fs.readFileSync(path.join(REPO, file), "utf8").split("\n")) {
        const at = line.indexOf("//");
        const comment = at >= 0 ? line.slice(at) : line.trim().startsWith("*") ? line : "";
        for (const [, named] of comment.matchAll(/(?<![\w./@-])([\w./-]+\.ts)\b/g)) {
          // A name alone: a file of the comment's folder, or of the repository's top (plugin.ts, server.ts).
          const alone = fs.existsSync(path.join(REPO, folder, named!)) ? `${folder}/${named}` : named;
          const where = named!.startsWith("lib/") || named!.startsWith("tests/") ? named! : named!.includes("/") ? undefined : alone;
          if (where === undefined || !fs.existsSync(path.join(REPO, where))) wrong.push(`${file}: ${named}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("a lib/ path in a doc exists", () => {
    const docs = [
      "README.md",
      ...fs
        .readdirSync(path.join(REPO, "docs"))
        .filter((name) => name.endsWith(".md"))
        .map((name) => `docs/${name}`),
    ];
    const wrong = docs.flatMap((doc) =>
      [...fs.readFileSync(path.join(REPO, doc), "utf8").matchAll(/(?<![\w./-])(lib\/[\w./-]*[\w/])/g)]
        .map((match) => match[1]!)
        .filter((named) => !named.includes("*") && !fs.existsSync(path.join(REPO, named)))
        .map((named) => `${doc}: ${named}`),
    );
    expect(wrong).toEqual([]);
  });
});
