// The Markdown parser costs start-up nothing: no file imports marked's code statically (types
// only), the one dynamic import is markdown.ts's, and a bridge loads it with its first question
// or answer, not before (a permission prompt never needs it).
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";
import { DIRECTORY, permission, question, request, setup } from "../support/bridge-rig.ts";

const loads = vi.hoisted(() => ({ count: 0 }));
vi.mock("marked", async (importOriginal) => {
  loads.count++;
  return importOriginal();
});

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : file.endsWith(".ts") ? [file] : [];
  });
}

/** How each file reaches "marked": "static", "type" (erased) or "dynamic". */
function markedImports(): Array<{ file: string; how: string }> {
  const found: Array<{ file: string; how: string }> = [];
  for (const file of [...sourceFiles("lib"), "plugin.ts", "server.ts"]) {
    const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === "marked") {
        found.push({ file, how: node.importClause?.isTypeOnly ? "type" : "static" });
      }
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [specifier] = node.arguments;
        if (specifier && ts.isStringLiteral(specifier) && specifier.text === "marked") found.push({ file, how: "dynamic" });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("marked is loaded on first use", () => {
  it("only types are imported statically; markdown.ts alone loads it", () => {
    expect(markedImports()).toEqual([
      { file: "lib/telegram/text/markdown-rich.ts", how: "type" },
      { file: "lib/telegram/text/markdown-table.ts", how: "type" },
      { file: "lib/telegram/text/markdown.ts", how: "dynamic" },
    ]);
  });

  it("a bridge loads it with its first question, not at start or for a permission", async () => {
    const { bridge, askPermission, telegram } = setup();
    await askPermission(permission());
    expect(loads.count).toBe(0);
    bridge.handleEvent(DIRECTORY, { type: "question.asked", request: request([question({ question: "Use **this**?" })]) });
    await vi.waitFor(() => expect(telegram.messages.some((m) => m.text.includes("Use <b>this</b>?"))).toBe(true));
    expect(loads.count).toBe(1);
  });
});
