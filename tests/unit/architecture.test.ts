// docs/architecture.md's layer table is the rule: every file in lib/ belongs to a row, and an
// import may cross only into the units its row lists. The checker itself is tested on made-up
// tables and imports first, so a broken checker can't pass the real code.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, readLayers, unitOf, violations } from "../support/layers.ts";

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

  it("flags an import into a unit the row does not list, and a file no row names", () => {
    const files = ["lib/hub.ts", "lib/config.ts", "lib/bridge/bridge.ts", "lib/relay/relay.ts"];
    const found = violations(
      layers,
      [
        { from: "lib/hub.ts", to: "lib/bridge/bridge.ts" },
        { from: "lib/bridge/bridge.ts", to: "lib/config.ts" },
        { from: "lib/bridge/bridge.ts", to: "lib/bridge/desk.ts" },
        { from: "lib/config.ts", to: "lib/bridge/bridge.ts" },
      ],
      files,
    );
    expect(found).toEqual(["lib/relay/relay.ts: no row of the table names it", "lib/config.ts imports lib/bridge/bridge.ts: lib/*.ts may not import lib/bridge/"]);
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
      expect(importsOf(dir, ["lib/a/x.ts"]).map((i) => i.to)).toEqual(["lib/b.ts", "lib/a/y.ts", "lib/c/z.ts", "lib/e.ts", "lib/f.ts", "lib/g.ts"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("lib/ as built", () => {
  it("follows docs/architecture.md: every file has a row, every import is allowed by it", () => {
    const layers = readLayers(fs.readFileSync(path.join(REPO, "docs/architecture.md"), "utf8"));
    expect(layers.length).toBeGreaterThan(10);
    const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "lib", "plugin.ts", "server.ts"], { cwd: REPO, encoding: "utf8" })
      .split("\n")
      .filter((file) => file.endsWith(".ts") && fs.existsSync(path.join(REPO, file)));
    expect(files.length).toBeGreaterThan(50);
    const imports = importsOf(REPO, files);
    expect(imports.length).toBeGreaterThan(200);
    expect(violations(layers, imports, files)).toEqual([]);
  });
});
