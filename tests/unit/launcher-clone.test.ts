// bin/opencode-hermes.mjs in a clone installed with `npm ci --omit=dev` (no tsx, no dist/): it says
// what works from there (the full install, or the packed tarball) and never points at a package the
// registry does not have (`npx opencode-hermes`).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
let clone: string | undefined;
afterEach(() => {
  if (clone) fs.rmSync(clone, { recursive: true, force: true });
});

describe("the launcher in a clone without its devDependencies", () => {
  it("exits 1 naming npm ci and the tarball, not npx", () => {
    clone = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-omit-dev-"));
    fs.mkdirSync(path.join(clone, "bin"));
    fs.copyFileSync(path.join(REPO, "bin", "opencode-hermes.mjs"), path.join(clone, "bin", "opencode-hermes.mjs"));
    fs.copyFileSync(path.join(REPO, "tsconfig.json"), path.join(clone, "tsconfig.json")); // what makes it a clone
    fs.copyFileSync(path.join(REPO, "package.json"), path.join(clone, "package.json"));
    const run = spawnSync(process.execPath, [path.join(clone, "bin", "opencode-hermes.mjs"), "setup"], { cwd: clone, encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain("installed without its devDependencies");
    expect(run.stderr).toContain("Run `npm ci` in");
    expect(run.stderr).toContain("npm i -g ./opencode-hermes-*.tgz");
    expect(run.stderr).not.toContain("npx opencode-hermes");
  });
});
