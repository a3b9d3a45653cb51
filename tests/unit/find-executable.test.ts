// findExecutable: the first PATH directory holding a runnable file of that name; a directory, a file
// that may not be run and an empty PATH entry are passed over.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findExecutable } from "../../lib/system/find-executable.ts";

const made: string[] = [];
afterEach(() => {
  for (const directory of made.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

function folder(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-path-"));
  made.push(directory);
  return directory;
}

describe("findExecutable", () => {
  it("finds the first runnable file, passing over a directory of that name and a file that may not be run", () => {
    const [dir, plain, runnable, later] = [folder(), folder(), folder(), folder()];
    fs.mkdirSync(path.join(dir, "tool"));
    fs.writeFileSync(path.join(plain, "tool"), "#!/bin/sh\n", { mode: 0o644 });
    fs.writeFileSync(path.join(runnable, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    fs.writeFileSync(path.join(later, "tool"), "#!/bin/sh\n", { mode: 0o755 });
    const searchPath = ["", dir, plain, runnable, later].join(path.delimiter);
    // root may run any file with an x bit: the 0644 file is passed over for everyone.
    expect(findExecutable("tool", searchPath)).toBe(path.join(runnable, "tool"));
  });

  it("is undefined when nothing on PATH has it, or PATH is unset", () => {
    expect(findExecutable("tool", folder())).toBeUndefined();
    expect(findExecutable("tool", undefined)).toBeUndefined();
  });
});
