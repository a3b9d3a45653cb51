// scripts/check-repo-paths.mjs (run by .ci/run): a tracked file that refers to a path outside the
// repository fails the check; made-up paths in test data and system paths don't. The planted
// references are assembled at run time so that this file itself stays clean.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const SCRIPT = path.join(REPO, "scripts/check-repo-paths.mjs");
const UP = "..";

let repo: string;
beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-paths-"));
  execFileSync("git", ["init", "-q"], { cwd: repo });
});
afterEach(() => fs.rmSync(repo, { recursive: true, force: true }));

function plant(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
  execFileSync("git", ["add", file], { cwd: repo });
}

function check(dir = repo) {
  const run = spawnSync(process.execPath, [SCRIPT, dir], { encoding: "utf8", env: { ...process.env, HOME: process.env.HOME ?? os.homedir() } });
  return { status: run.status, stderr: run.stderr };
}

describe("check-repo-paths", () => {
  it("passes on this repository", () => {
    const { status, stderr } = check(REPO);
    expect(stderr).toBe("");
    expect(status).toBe(0);
  });

  it("passes clean files: system paths, made-up homes, relative paths inside the repository", () => {
    plant("tests/unit/a.test.ts", 'const t = "/tmp/x"; fs.readFileSync("/proc/net/unix"); const home = "/home/dev/project";\nconst f = "../fixtures/e.sse";\n');
    plant("lib/x.ts", 'new URL("../plugin.ts", import.meta.url);\n');
    plant("bin/run.mjs", "#!/usr/bin/env node\n");
    expect(check()).toEqual({ status: 0, stderr: "" });
  });

  it.each([
    ["an absolute path into the build machine's work directory", `const FIXTURES = "/${"work"}/shared/reference/opencode-events";\n`],
    ["the root user's home", `const p = "/${"root"}/.config/opencode";\n`],
    ["a relative path that climbs out of the repository", `const p = path.resolve(import.meta.dirname, "${UP}/${UP}/${UP}/elsewhere/x.sse");\n`],
    ["a sibling shared directory", `See ${UP}/${"shared"}/reference for details.\n`],
  ])("fails on %s, naming the file and line", (_what, text) => {
    plant("README.md", "# fine\n");
    plant("tests/unit/planted.test.ts", `// ok\n${text}`);
    const { status, stderr } = check();
    expect(status).toBe(1);
    expect(stderr).toContain("tests/unit/planted.test.ts:2:");
    expect(stderr).not.toContain("README.md");
  });

  it("fails on the home directory of the machine running it", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-home-"));
    try {
      plant("notes.md", `see ${home.replace(os.tmpdir(), "/home")}/x\n`);
      const run = spawnSync(process.execPath, [SCRIPT, repo], { encoding: "utf8", env: { ...process.env, HOME: home.replace(os.tmpdir(), "/home") } });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain("a home directory of this machine");
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it("ignores files that are not tracked", () => {
    fs.writeFileSync(path.join(repo, "scratch.txt"), `/${"work"}/x\n`);
    expect(check().status).toBe(0);
  });
});
