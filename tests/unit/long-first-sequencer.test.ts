// tests/support/long-first-sequencer.ts knows the slowest files by their paths: a file renamed or
// removed would silently lose its early start, so every path it names must exist.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LONG_FILES } from "../support/long-first-sequencer.ts";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("the long-first sequencer's list", () => {
  it("names end-to-end files that exist, each once", () => {
    expect(LONG_FILES.filter((file) => !file.startsWith("tests/e2e/") || !fs.existsSync(path.join(REPO, file)))).toEqual([]);
    expect(new Set(LONG_FILES).size).toBe(LONG_FILES.length);
  });
});
