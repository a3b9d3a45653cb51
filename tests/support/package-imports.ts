// How the plugin's source reaches a package: each file of lib/ (and plugin.ts, server.ts) that
// imports it, and how: "static", "type" (erased at run time) or "dynamic". The lazy-load tests
// (marked, mvdan-sh) check that start-up never pays for a package loaded on first use.
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

function sourceFiles(root: string, dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(root, file) : file.endsWith(".ts") && !file.endsWith(".d.ts") ? [file] : [];
  });
}

export function packageImports(root: string, specifier: string): Array<{ file: string; how: string }> {
  const found: Array<{ file: string; how: string }> = [];
  for (const file of [...sourceFiles(root, "lib"), "plugin.ts", "server.ts"]) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === specifier)
        found.push({ file, how: node.importClause?.isTypeOnly ? "type" : "static" });
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [argument] = node.arguments;
        if (argument && ts.isStringLiteral(argument) && argument.text === specifier) found.push({ file, how: "dynamic" });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
