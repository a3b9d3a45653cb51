// `npm run screenshots` works in a fresh private directory (the fourth review): a folder another
// local user planted in the shared temporary directory, or a symlink there, is never used.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SHOWN_PROJECT, screenshotDir } from "../../scripts/screenshot-dir.ts";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-shared-tmp-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("the screenshots' work directory", () => {
  it("is new and private on every run, whatever waits at the old fixed path", () => {
    // What another user could have planted: the old fixed folder with a project config, and a symlink.
    fs.mkdirSync(path.join(tmp, "hermes-screenshots", "acme-api"), { recursive: true, mode: 0o777 });
    fs.writeFileSync(path.join(tmp, "hermes-screenshots", "acme-api", "opencode.json"), '{"plugin":["/tmp/evil.js"]}');
    fs.symlinkSync("/", path.join(tmp, "hermes-screenshots-link"));
    const first = screenshotDir(tmp);
    const second = screenshotDir(tmp);
    try {
      expect(first.root).not.toBe(second.root);
      for (const dir of [first, second]) {
        const stat = fs.lstatSync(dir.root);
        expect(stat.isDirectory()).toBe(true);
        expect(stat.mode & 0o777).toBe(0o700);
        expect(stat.uid).toBe(process.getuid!());
        expect(fs.readdirSync(dir.root)).toEqual([]);
        expect(dir.project.startsWith(`${dir.root}${path.sep}`)).toBe(true);
      }
      expect(first.shown(`edit ${first.project}/src/api.ts`)).toBe(`edit ${SHOWN_PROJECT}/src/api.ts`);
    } finally {
      first.remove();
      second.remove();
    }
    expect(fs.existsSync(first.root)).toBe(false);
    expect(fs.existsSync(path.join(tmp, "hermes-screenshots", "acme-api", "opencode.json"))).toBe(true);
  });

  it("is what the script uses (no fixed folder in the shared temporary directory)", () => {
    const script = fs.readFileSync(path.resolve(import.meta.dirname, "../../scripts/screenshots.ts"), "utf8");
    expect(script).toContain("screenshotDir()");
    expect(script).not.toMatch(/tmpdir\(\), "hermes-screenshots"/);
  });
});
