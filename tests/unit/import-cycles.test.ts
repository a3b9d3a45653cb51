// No import cycle in lib/ nor between plugin.ts / server.ts and lib/: every import counts, type-only
// ones and re-exports included (read with TypeScript's own pre-processor, not a regular expression).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");

function sourceFiles(): string[] {
  const lib = fs.readdirSync(path.join(REPO, "lib"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
  return [...lib.map((file) => path.join("lib", file)), "plugin.ts", "server.ts"].map((file) => file.split(path.sep).join("/"));
}

/** Each file's relative imports (`import`, `import type`, `export … from`), as repository paths. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(REPO, file), "utf8"), true, true);
    const local = importedFiles.map((entry) => entry.fileName).filter((name) => name.startsWith("."));
    graph.set(file, local.map((name) => path.posix.join(path.posix.dirname(file), name)));
  }
  return graph;
}

/** Every cycle found by a depth-first walk, each as the path that closes it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) return void found.push([...trail.slice(at), file]);
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) walk(file, []);
  return found;
}

describe("import cycles", () => {
  it("the walk finds a cycle, type-only imports and re-exports included", () => {
    const files = new Map([
      ["a.ts", 'import type { B } from "./b.ts";'],
      ["b.ts", 'export { c } from "./c.ts";'],
      ["c.ts", 'import { a } from "./a.ts";'],
    ]);
    const graph = new Map(
      [...files].map(([file, text]) => [file, ts.preProcessFile(text, true, true).importedFiles.map((entry) => path.posix.join(".", entry.fileName))]),
    );
    expect(cycles(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
    expect(cycles(new Map([["a.ts", ["b.ts"]], ["b.ts", []]]))).toEqual([]);
  });

  it("lib/, plugin.ts and server.ts have none", () => {
    const graph = importGraph(sourceFiles());
    expect(graph.size).toBeGreaterThan(100);
    for (const [file, imports] of graph) for (const target of imports) expect(graph.has(target), `${file} imports ${target}`).toBe(true);
    expect(cycles(graph).map((cycle) => cycle.join(" → "))).toEqual([]);
  });
});
