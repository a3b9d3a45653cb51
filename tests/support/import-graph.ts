// lib/'s imports, the layer table of docs/architecture.md, and the checks between them: imports
// that cross into a unit the table does not allow, and cycles. A unit is a folder (`lib/bridge/`),
// a named file (`lib/plugin/hub.ts`), or `lib/*.ts` for the other files at lib/'s top; a file belongs to
// the most specific unit that names it.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export interface Layer {
  unit: string;
  mayImport: string[];
}

export interface Import {
  from: string;
  to: string;
}

/** The rows of the first table whose header starts with "Unit": the first column's unit, the last column's units. */
export function readLayers(markdown: string): Layer[] {
  const lines = markdown.split("\n");
  const start = lines.findIndex((line) => /^\|\s*Unit\s*\|/.test(line));
  if (start === -1) return [];
  const layers: Layer[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").slice(1, -1);
    const unit = codeSpans(cells[0] ?? "")[0];
    if (unit === undefined) continue;
    layers.push({ unit, mayImport: codeSpans(cells.at(-1) ?? "") });
  }
  return layers;
}

function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1] as string);
}

/** The unit a repository-relative file belongs to, or undefined when no row names it. */
export function unitOf(file: string, units: readonly string[]): string | undefined {
  if (units.includes(file)) return file;
  const folder = units.filter((unit) => unit.endsWith("/") && file.startsWith(unit)).sort((a, b) => b.length - a.length)[0];
  if (folder) return folder;
  const parent = path.posix.dirname(file);
  return units.find((unit) => unit.endsWith("/*.ts") && path.posix.dirname(unit) === parent && file.endsWith(".ts"));
}

/**
 * Every relative import between the given files (static, dynamic, type-only, re-exports), as
 * repository paths, read with TypeScript's own pre-processor rather than a regular expression.
 */
export function importsOf(root: string, files: readonly string[]): Import[] {
  const imports: Import[] = [];
  for (const from of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(root, from), "utf8"), true, true);
    for (const { fileName } of importedFiles) {
      if (fileName.startsWith(".")) imports.push({ from, to: path.posix.join(path.posix.dirname(from), fileName) });
    }
  }
  return imports;
}

/** Every cycle a depth-first walk finds in a graph (node → the nodes it imports), each as the path that closes it. */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (node: string, trail: string[]): void => {
    const at = trail.indexOf(node);
    if (at >= 0) {
      found.push([...trail.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    for (const next of graph.get(node) ?? []) walk(next, [...trail, node]);
    done.add(node);
  };
  for (const node of graph.keys()) walk(node, []);
  return found;
}

/** The graph of the given imports, files with no import included. */
export function graphOf(imports: readonly Import[], files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>(files.map((file) => [file, []]));
  for (const { from, to } of imports) graph.get(from)?.push(to);
  return graph;
}

/** Imports that cross from one unit into another the table does not allow, files no row names, and allowances no import uses. */
export function violations(layers: readonly Layer[], imports: readonly Import[], files: readonly string[]): string[] {
  const units = layers.map((layer) => layer.unit);
  const allowed = new Map(layers.map((layer) => [layer.unit, new Set(layer.mayImport)]));
  const found: string[] = [];
  const used = new Set<string>();
  for (const file of files) {
    const unit = unitOf(file, units);
    const folder = `${path.posix.dirname(file)}/`;
    if (unit === undefined) found.push(`${file}: no row of the table names it`);
    else if (unit.endsWith("/") && unit !== folder) found.push(`${file}: its folder ${folder} has no row of its own`);
  }
  for (const { from, to } of imports) {
    const a = unitOf(from, units);
    const b = unitOf(to, units);
    if (a === undefined || b === undefined || a === b) continue;
    if (!allowed.get(a)?.has(b)) found.push(`${from} imports ${to}: ${a} may not import ${b}`);
    used.add(`${a} ${b}`);
  }
  for (const { unit, mayImport } of layers) {
    for (const other of mayImport) if (!used.has(`${unit} ${other}`)) found.push(`${unit} may import ${other} but imports nothing from it`);
  }
  return found;
}

/** Cycles between units: two folders (or named files) whose files import each other, directly or round a loop. */
export function unitCycles(imports: readonly Import[], units: readonly string[]): string[][] {
  const between = imports.flatMap(({ from, to }) => {
    const a = unitOf(from, units);
    const b = unitOf(to, units);
    return a && b && a !== b ? [{ from: a, to: b }] : [];
  });
  return cycles(graphOf(between, units));
}

/**
 * The files a runtime loads from `entry` before any of its code runs: static imports and re-exports
 * that bring values, followed from file to file. Type-only imports are erased and dynamic `import()`
 * waits for its call, so neither counts; `import { type A }` is kept as a bare import and counts.
 * A package (`p-retry`) is listed by its name, not followed; Node's and Bun's own modules are left out.
 */
export function loadedAtStart(root: string, entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string): void => {
    if (loaded.has(file)) return;
    loaded.add(file);
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) || (ts.isExportDeclaration(statement) && !statement.isTypeOnly)
          ? statement.moduleSpecifier
          : undefined;
      if (!specifier || !ts.isStringLiteral(specifier)) continue;
      if (specifier.text.startsWith(".")) visit(path.posix.join(path.posix.dirname(file), specifier.text));
      else if (!/^(node|bun):/.test(specifier.text)) loaded.add(specifier.text);
    }
  };
  visit(entry);
  return loaded;
}
