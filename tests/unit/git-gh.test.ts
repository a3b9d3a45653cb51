// Whether `gh` can open pull requests: missing from the PATH, there but signed out, or ready; and
// what `gh pr create` prints is read for the URL. A stand-in `gh` script plays each case.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPullRequest, ghState } from "../../lib/git/gh.ts";

const original = process.env.PATH;
let dir: string;

function standIn(script: string): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-gh-unit-"));
  fs.writeFileSync(path.join(dir, "gh"), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  process.env.PATH = `${dir}:${path.dirname(process.execPath)}:/usr/bin:/bin`;
}

afterEach(() => {
  process.env.PATH = original;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("gh", () => {
  it("missing from the PATH", async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-gh-unit-"));
    process.env.PATH = dir;
    expect(await ghState(dir)).toBe("missing");
  });

  it("there but not signed in", async () => {
    standIn('[ "$1" = auth ] && { echo "You are not logged into any GitHub hosts" >&2; exit 1; }');
    expect(await ghState(dir)).toBe("signedOut");
  });

  it("signed in: pr create's URL is its answer; a failure is gh's words, scrubbed", async () => {
    standIn('case "$1" in auth) exit 0;; pr) echo "Creating pull request for b"; echo "https://github.com/o/r/pull/9";; esac');
    expect(await ghState(dir)).toBe("ready");
    expect(await createPullRequest(dir, "b", "Subject\n\nBody")).toEqual({ ok: true, value: "https://github.com/o/r/pull/9" });
    standIn('echo "could not push to https://me:ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/o/r" >&2; exit 1');
    const failed = await createPullRequest(dir, "b", "Subject");
    expect(failed).toEqual({ ok: false, error: "could not push to https://***@github.com/o/r" });
  });
});
