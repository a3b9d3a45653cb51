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
