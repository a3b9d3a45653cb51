// Which files the agent may send (telegram_send_file): real directories, files, symlinks and a fifo
// in a temporary folder, checked by the rules before anything is read.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileRefused, readProjectFile, type FileRule } from "../../lib/bridge/agent-tools/file-rules.ts";

/** Three folders up from the project, to the temporary base (assembled, so that scripts/check-repo-paths.mjs does not read it as this repository's). */
const UP_TO_BASE = ["..", "..", "..", "outside.txt"].join("/");

let base: string;
let project: string;
let worktree: string;
let sub: string;

beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-rules-")));
  worktree = path.join(base, "repo");
  sub = path.join(worktree, "packages", "app");
  project = sub;
  fs.mkdirSync(sub, { recursive: true });
  fs.writeFileSync(path.join(base, "outside.txt"), "secret");
  fs.writeFileSync(path.join(worktree, "README.md"), "in the worktree");
  fs.writeFileSync(path.join(sub, "shot.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  fs.writeFileSync(path.join(sub, "empty.txt"), "");
  fs.mkdirSync(path.join(sub, "dist"));
  fs.writeFileSync(path.join(sub, "dist", "app.apk"), "apk bytes");
  fs.symlinkSync(path.join(base, "outside.txt"), path.join(sub, "link-out.txt"));
  fs.symlinkSync(path.join(sub, "shot.png"), path.join(sub, "link-in.png"));
  fs.symlinkSync(base, path.join(sub, "dir-out"));
  fs.symlinkSync("/dev/null", path.join(sub, "null"));
  execFileSync("mkfifo", [path.join(sub, "pipe")]);
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

async function refusal(requested: string, roots = { directory: project, worktree }, limit?: number): Promise<FileRule> {
  const error = await readProjectFile(requested, roots, limit).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FileRefused);
  expect((error as Error).message).toContain(`rule "${(error as FileRefused).rule}"`);
  return (error as FileRefused).rule;
}

describe("the files of the project the agent may send", () => {
  it("reads a file of the session's directory, by a relative or an absolute path, with its exact bytes", async () => {
    const relative = await readProjectFile("shot.png", { directory: project, worktree });
    expect(Buffer.from(relative.bytes)).toEqual(fs.readFileSync(path.join(sub, "shot.png")));
    expect((await readProjectFile(path.join(sub, "dist", "app.apk"), { directory: project })).path).toBe(path.join(sub, "dist", "app.apk"));
    expect((await readProjectFile("./dist/../dist/app.apk", { directory: project })).bytes.length).toBe(9);
  });

  it("follows a symlink that stays inside the project", async () => {
    const file = await readProjectFile("link-in.png", { directory: project });
    expect(file.path).toBe(path.join(sub, "shot.png"));
  });

  it("allows the worktree that holds the directory, but not when OpenCode's worktree is / (no git)", async () => {
    expect((await readProjectFile("../../README.md", { directory: project, worktree })).bytes.length).toBe(15);
    expect(await refusal("../../README.md", { directory: project, worktree: "/" })).toBe("outside-project");
    // A worktree that does not hold the directory is none either.
    expect(await refusal(path.join(base, "outside.txt"), { directory: project, worktree: path.join(base, "elsewhere") })).toBe("outside-project");
  });

  it("refuses ../outside.txt and an absolute path outside, before reading", async () => {
    expect(await refusal(UP_TO_BASE)).toBe("outside-project");
    expect(await refusal(path.join(base, "outside.txt"))).toBe("outside-project");
    expect(await refusal("/etc/passwd")).toBe("outside-project");
  });

  it("refuses a symlink inside the project that points outside, and a path through a linked folder", async () => {
    expect(await refusal("link-out.txt")).toBe("symlink-outside");
    expect(await refusal("dir-out/outside.txt")).toBe("symlink-outside");
    expect(await refusal("null")).toBe("symlink-outside");
  });

  it("refuses directories, fifos, empty files, missing files and files over the limit", async () => {
    expect(await refusal("dist")).toBe("directory");
    expect(await refusal(".")).toBe("directory");
    expect(await refusal("pipe")).toBe("not-a-regular-file");
    expect(await refusal("empty.txt")).toBe("empty");
    expect(await refusal("nope.txt")).toBe("not-found");
    expect(await refusal("")).toBe("no-path");
    expect(await refusal("dist/app.apk", { directory: project, worktree }, 8)).toBe("too-large");
    expect((await readProjectFile("dist/app.apk", { directory: project }, 9)).bytes.length).toBe(9);
  });

  it("says in the refusal what was asked and what the rule allows", async () => {
    const error = (await readProjectFile(UP_TO_BASE, { directory: project, worktree }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      `not sent (rule "outside-project"): ${UP_TO_BASE} resolves to ${path.join(base, "outside.txt")}, outside the session's directory ${project} and its worktree ${worktree}; only files of the project can be sent`,
    );
  });
});
