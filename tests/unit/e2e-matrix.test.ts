// The end-to-end matrix (tests/e2e/matrix.ts) and its files: tests/e2e/ holds exactly what the
// table generates (no cell file missing, edited by hand or left over), and the check sees each of
// those on a copy where one was planted. scripts/e2e-matrix.ts writes the files.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { matrixDrift, writeMatrix } from "../../scripts/e2e-matrix.ts";
import { cell, FEATURES, GENERATED_HEADER, matrixFiles } from "../e2e/matrix.ts";

const E2E = path.resolve(import.meta.dirname, "../e2e");

describe("the e2e matrix's files", () => {
  it("tests/e2e/ holds exactly the files the table generates (run `npm run e2e-matrix` after changing the table)", () => {
    expect(matrixDrift(E2E)).toEqual({ stale: [], extra: [] });
  });

  it("every generated file has one shape: the header, the cell, one call per suite with it", () => {
    for (const [name, text] of matrixFiles()) {
      const [feature, ...rest] = name.replace(/\.test\.ts$/, "").split(".");
      expect(rest.join("."), name).toMatch(/^opencode-(1\.1|1\.18|2)(\.supergroup|\.topics)?$/);
      const lines = text.split("\n");
      expect(lines[0]).toBe(GENERATED_HEADER);
      expect(lines[1]).toBe(`import { cell } from "./matrix.ts";`);
      expect(lines[2]).toMatch(new RegExp(`^import \\{ [\\w, ]+ \\} from "\\./${FEATURES.find((f) => f.name === feature)!.module.replace(".", "\\.")}";$`));
      expect(lines[3]).toBe("");
      expect(lines[4]).toMatch(/^const here = cell\("[\d.]+", "(private|supergroup|topics)"\);$/);
      expect(lines.slice(5, -1).every((line) => /^\w+Suite\(here\);$/.test(line))).toBe(true);
      expect(lines.at(-1)).toBe("");
    }
  });

  it("a cell's name is its file's: the version's label, then the chat's word (none for the private chat)", () => {
    expect(cell("1.18", "private")).toEqual({ name: "opencode-1.18", version: "1.18.33", chat: "private", topics: false });
    expect(cell("1.1", "supergroup")).toEqual({ name: "opencode-1.1.supergroup", version: "1.1.53", chat: "supergroup", topics: false });
    expect(cell("2", "topics")).toEqual({ name: "opencode-2.topics", version: "2.0.15", chat: "supergroup", topics: true });
  });

  it("a file calls every suite of its cell, in the table's order", () => {
    expect(matrixFiles().get("progress.opencode-1.18.supergroup.test.ts")).toContain("progressSuite(here);\nfirstSecondsSuite(here);\n");
    expect(matrixFiles().get("progress.opencode-2.test.ts")).toContain("progressSuite(here);\nprogressOffSuite(here);\n");
    expect(matrixFiles().get("progress.opencode-2.supergroup.test.ts")).not.toContain("firstSecondsSuite");
  });

  it("a suite listed twice on one cell is refused", () => {
    const twice = [
      { name: "questions", module: "question-suite.ts", suites: [{ suite: "questionSuite", cells: [cell("2", "private"), cell("2", "private")] }] },
    ];
    expect(() => matrixFiles(twice)).toThrow("questionSuite is listed twice on opencode-2");
  });
});

describe("the check on a copy of tests/e2e/", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-e2e-matrix-"));
    for (const name of fs.readdirSync(E2E)) if (fs.statSync(path.join(E2E, name)).isFile()) fs.copyFileSync(path.join(E2E, name), path.join(dir, name));
    writeMatrix(dir); // The copy starts as the table has it, whatever the working tree holds.
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("finds a hand-edited file, a missing one, a cell file the table does not have and a leftover generated file; writing puts them right", () => {
    fs.appendFileSync(path.join(dir, "undo.opencode-2.test.ts"), 'undoSuite(cell("1.1", "private"));\n');
    fs.rmSync(path.join(dir, "questions.opencode-1.1.supergroup.test.ts"));
    fs.writeFileSync(path.join(dir, "questions.opencode-1.18.topics.test.ts"), 'import { questionSuite } from "./question-suite.ts";\n');
    fs.writeFileSync(path.join(dir, "old-feature.opencode-2.test.ts"), `${GENERATED_HEADER}\n`);
    const handWritten = fs.readFileSync(path.join(dir, "opencode2-attach.test.ts"), "utf8");

    expect(matrixDrift(dir)).toEqual({
      stale: ["questions.opencode-1.1.supergroup.test.ts", "undo.opencode-2.test.ts"],
      extra: ["old-feature.opencode-2.test.ts", "questions.opencode-1.18.topics.test.ts"],
    });
    expect(writeMatrix(dir).stale).toHaveLength(2);
    expect(matrixDrift(dir)).toEqual({ stale: [], extra: [] });
    expect(fs.existsSync(path.join(dir, "questions.opencode-1.18.topics.test.ts"))).toBe(false);
    expect(fs.readFileSync(path.join(dir, "undo.opencode-2.test.ts"), "utf8")).toBe(matrixFiles().get("undo.opencode-2.test.ts"));
    // Files the table does not name, and that do not say they are generated, are left alone.
    expect(fs.readFileSync(path.join(dir, "opencode2-attach.test.ts"), "utf8")).toBe(handWritten);
  });
});
