// lib/git against a real `git` in a temporary repository (no sockets): a commit of named files
// leaves what the user staged staged and out of it, takes new and deleted files, and a failing
// hook leaves the index as it was; push plans refuse what they must; worktrees come and go;
// readChanges counts new and binary files.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commitFiles } from "../../lib/git/commit-files.ts";
import { COMMIT_HOOKS, hooksToRun, PUSH_HOOKS } from "../../lib/git/hooks.ts";
import { isRemoteName, planPush, push } from "../../lib/git/push.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { commitListText, renderCommitAsk, renderPushAsk, renderRemoveAsk } from "../../lib/telegram/render/render-git.ts";
import { ignoredFiles, operationUnderWay, readChanges } from "../../lib/git/repo.ts";
import { addWorktree, removeWorktree } from "../../lib/git/worktrees.ts";

let root: string;
const git = (args: string[], cwd = root) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
const write = (name: string, text: string | Buffer) => fs.writeFileSync(path.join(root, name), text);

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-git-unit-")));
  git(["init", "-q", "-b", "main"]);
  git(["config", "user.email", "t@example.com"]);
  git(["config", "user.name", "T"]);
  for (const name of ["a.txt", "b.txt", "gone.txt"]) write(name, `${name}\n`);
  git(["add", "."]);
  git(["commit", "-qm", "start"]);
});
afterEach(() => {
  fs.rmSync(`${root}-${"fix-it"}`, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
});

describe("commitFiles", () => {
  it("commits exactly the named files (edited, new, deleted); what the user staged stays staged and out of it", async () => {
    write("a.txt", "a changed\n");
    write("new.txt", "new\n");
    fs.rmSync(path.join(root, "gone.txt"));
    write("staged.txt", "the user's own\n");
    git(["add", "staged.txt"]);
    write("b.txt", "b changed, not the run's\n");
    const outcome = await commitFiles(root, ["a.txt", "new.txt", "gone.txt"], "Run's work\n\n- a.txt\n");
    expect(outcome).toEqual({ ok: true, value: { hash: git(["rev-parse", "--short", "HEAD"]), branch: "main" } });
    expect(git(["show", "--name-status", "--format=%B", "HEAD"])).toBe("Run's work\n\n- a.txt\n\n\nM\ta.txt\nD\tgone.txt\nA\tnew.txt");
    expect(git(["status", "--porcelain"])).toBe("M b.txt\nA  staged.txt");
  });

  it("a failing pre-commit hook: nothing committed, the index and the files as they were, git's words returned", async () => {
    write("a.txt", "a changed\n");
    write("staged.txt", "the user's own\n");
    git(["add", "staged.txt"]);
    fs.writeFileSync(path.join(root, ".git", "hooks", "pre-commit"), "#!/bin/sh\necho 'lint failed: a.txt' >&2\nexit 1\n", { mode: 0o755 });
    const before = { head: git(["rev-parse", "HEAD"]), index: git(["ls-files", "-s"]), status: git(["status", "--porcelain"]) };
    const outcome = await commitFiles(root, ["a.txt"], "x\n");
    expect(outcome).toEqual({ ok: false, error: "lint failed: a.txt" });
    expect({ head: git(["rev-parse", "HEAD"]), index: git(["ls-files", "-s"]), status: git(["status", "--porcelain"]) }).toEqual(before);
    expect(fs.readFileSync(path.join(root, "a.txt"), "utf8")).toBe("a changed\n");
  });

  it("a merge under way is seen", async () => {
    expect(await operationUnderWay(root)).toBeUndefined();
    fs.writeFileSync(path.join(root, ".git", "MERGE_HEAD"), `${git(["rev-parse", "HEAD"])}\n`);
    expect(await operationUnderWay(root)).toBe("merge");
  });
});

// Issue 49: reading runs nothing of the repository's choosing.
describe("reading", () => {
  it("runs no fsmonitor hook, textconv, external diff or pager the repository names", async () => {
    const marks = path.join(root, "..", `${path.basename(root)}-ran`);
    fs.mkdirSync(marks);
    try {
      const script = (name: string) => {
        const file = path.join(marks, `${name}.sh`);
        fs.writeFileSync(file, `#!/bin/sh\ntouch '${path.join(marks, name)}'\ncat "$@" 2>/dev/null\n`, { mode: 0o755 });
        return file;
      };
      git(["config", "core.fsmonitor", script("fsmonitor")]);
      git(["config", "diff.spy.textconv", script("textconv")]);
      git(["config", "diff.external", script("external")]);
      git(["config", "core.pager", script("pager")]);
      write(".gitattributes", "*.txt diff=spy\n");
      write("a.txt", "changed\n");
      write("fresh.txt", "new file\n");
      const changes = await readChanges(root);
      expect(changes.ok).toBe(true);
      expect(changes.ok ? changes.value.diff : "").toContain("+changed");
      expect(fs.readdirSync(marks).filter((name) => !name.endsWith(".sh"))).toEqual([]);
    } finally {
      fs.rmSync(marks, { recursive: true, force: true });
    }
  });
});

// Issue 49: Commit's and Push's confirmations say which hooks will run.
describe("hooks", () => {
  it("names the executable hooks git would run, also through core.hooksPath, and the confirmations show them", async () => {
    fs.mkdirSync(path.join(root, ".githooks"));
    for (const name of ["pre-commit", "pre-push"]) fs.writeFileSync(path.join(root, ".githooks", name), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    fs.writeFileSync(path.join(root, ".githooks", "commit-msg"), "#!/bin/sh\nexit 0\n", { mode: 0o644 });
    expect((await hooksToRun(root, COMMIT_HOOKS)).names).toEqual([]);
    git(["config", "core.hooksPath", ".githooks"]);
    const commit = await hooksToRun(root, COMMIT_HOOKS);
    expect(commit).toEqual({ directory: path.join(root, ".githooks"), names: ["pre-commit"] });
    expect((await hooksToRun(root, PUSH_HOOKS)).names).toEqual(["pre-push"]);
    const t = CATALOGS.en;
    const ask = renderCommitAsk({ branch: "main", files: ["a.txt"], others: 0, message: "m", hooks: commit }, "k", t);
    expect(ask.text).toContain("runs the repository's hooks <code>pre-commit</code>");
    expect(ask.text).toContain(".githooks");
    const push = renderPushAsk({ branch: "main", remote: "origin", url: "/r.git", setsUpstream: false, hooks: await hooksToRun(root, PUSH_HOOKS) }, "k", t);
    expect(push.text).toContain("<code>pre-push</code>");
    expect(renderPushAsk({ branch: "main", remote: "origin", url: "/r.git", setsUpstream: false }, "k", t).text).not.toContain("hooks");
  });
});

// Issue 49: Remove worktree names what it deletes.
describe("ignored files", () => {
  it("are listed (a copied .env, a folder once) and the removal's confirmation counts and names them", async () => {
    write(".gitignore", ".env\nnode_modules/\n");
    git(["add", ".gitignore"]);
    git(["commit", "-qm", "ignore"]);
    write(".env", "TOKEN=x\n");
    fs.mkdirSync(path.join(root, "node_modules", "a"), { recursive: true });
    write("node_modules/a/index.js", "x\n");
    const ignored = await ignoredFiles(root);
    expect(ignored).toEqual({ ok: true, value: [".env", "node_modules/"] });
    const t = CATALOGS.en;
    const ask = renderRemoveAsk("/p/wt", 0, "k", t, ignored.ok ? ignored.value : []);
    expect(ask.text).toContain("2 ignored files or folders go with it: <code>.env</code>, <code>node_modules/</code>");
    expect(renderRemoveAsk("/p/wt", 0, "k", t).text).not.toContain("ignored");
  });
});

// Issue 49: Commit commits only what the phone showed.
describe("commit's confirmation", () => {
  it("shows every file, long ones by their start and end, or offers no Confirm when they do not all fit", () => {
    const t = CATALOGS.en;
    const long = `src/${"very-long-folder-name/".repeat(8)}the-file-that-changed.ts`;
    const ask = renderCommitAsk({ branch: "main", files: ["a.ts", long], others: 0, message: "m" }, "k", t);
    expect(ask.keyboard).toHaveLength(1);
    expect(ask.text).toContain("src/very-long-folder-name/");
    expect(ask.text).toContain("the-file-that-changed.ts</code>");
    const many = Array.from({ length: 62 }, (_, index) => `packages/app/src/components/widgets/module-${index}/index.tsx`);
    const refused = renderCommitAsk({ branch: "main", files: many, others: 0, message: "m" }, "k", t);
    expect(refused.keyboard).toEqual([]);
    expect(refused.text).toContain("62 files do not fit in one message");
    // The whole list sent first as a file: the confirmation names it and offers Confirm.
    const listed = renderCommitAsk({ branch: "main", files: many, others: 0, message: "m" }, "k", t, true);
    expect(listed.keyboard).toHaveLength(1);
    expect(listed.text).toContain("62 files, each listed in <code>commit-files.txt</code>");
    expect(listed.text).not.toContain("module-0/index.tsx");
    expect(commitListText(many).split("\n")).toEqual([...many, ""]);
    // A path with a line break can't pass for two: it is quoted.
    expect(commitListText(["a.ts", "b\nc.ts"])).toBe('a.ts\n"b\\nc.ts"\n');
  });
});

describe("push", () => {
  it("plans the branch's own name on the only remote, setting the upstream once; pushes there, never forced", async () => {
    expect(await planPush(root)).toEqual({ ok: false, error: "the repository has no remote" });
    const bare = `${root}-remote.git`;
    execFileSync("git", ["init", "-q", "--bare", bare]);
    try {
      git(["remote", "add", "upstream-one", bare]);
      const plan = await planPush(root);
      expect(plan).toEqual({ ok: true, value: { branch: "main", remote: "upstream-one", url: bare, pushUrl: bare, setsUpstream: true } });
      if (!plan.ok) return;
      expect((await push(root, plan.value)).ok).toBe(true);
      expect(git(["rev-parse", "main"], bare)).toBe(git(["rev-parse", "HEAD"]));
      expect(await planPush(root)).toMatchObject({ ok: true, value: { setsUpstream: false } });
      // A rewritten history is refused by the remote, not forced.
      git(["commit", "-q", "--amend", "-m", "rewritten"]);
      const again = await planPush(root);
      if (!again.ok) throw new Error(again.error);
      const refused = await push(root, again.value);
      expect(refused.ok).toBe(false);
      expect(refused.ok ? "" : refused.error).toMatch(/rejected|non-fast-forward/);
      // An upstream of another name is not pushed to.
      git(["config", "branch.main.merge", "refs/heads/other"]);
      expect(await planPush(root)).toMatchObject({ ok: false, error: expect.stringContaining("another name") });
      git(["checkout", "-q", "--detach"]);
      expect(await planPush(root)).toEqual({ ok: false, error: "HEAD is detached: no branch to push" });
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });

  // Issue 49: push goes where the confirmation says.
  it("names the URL git will push to (pushurl, pushInsteadOf), refuses a push whose URL changed since, and a remote that reads as an option", async () => {
    const bare = `${root}-remote.git`;
    const evil = `${root}-evil.git`;
    execFileSync("git", ["init", "-q", "--bare", bare]);
    execFileSync("git", ["init", "-q", "--bare", evil]);
    try {
      git(["remote", "add", "origin", bare]);
      const plan = await planPush(root);
      if (!plan.ok) throw new Error(plan.error);
      expect(plan.value.url).toBe(bare);
      // Planted after the confirmation was shown: refused, nothing pushed anywhere.
      git(["config", "remote.origin.pushurl", evil]);
      const refused = await push(root, plan.value);
      expect(refused).toEqual({ ok: false, error: expect.stringContaining(`git would now push to ${evil}`) });
      expect(() => git(["rev-parse", "-q", "--verify", "refs/heads/main"], evil)).toThrow();
      expect(() => git(["rev-parse", "-q", "--verify", "refs/heads/main"], bare)).toThrow();
      // A new confirmation names where git will push.
      expect(await planPush(root)).toMatchObject({ ok: true, value: { url: evil } });
      git(["config", "--unset", "remote.origin.pushurl"]);
      git(["config", `url.${evil}.pushInsteadOf`, bare]);
      expect(await planPush(root)).toMatchObject({ ok: true, value: { url: evil } });
      git(["config", "--remove-section", `url.${evil}`]);
      // A remote whose name git could read as an option.
      git(["config", "branch.main.remote", "--receive-pack=touch /tmp/pwned"]);
      expect(await planPush(root)).toMatchObject({ ok: false });
      expect(isRemoteName("--receive-pack=x")).toBe(false);
      expect(isRemoteName("origin")).toBe(true);
      expect(isRemoteName("my/fork")).toBe(true);
      expect(isRemoteName("a..b")).toBe(false);
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
      fs.rmSync(evil, { recursive: true, force: true });
    }
  });
});

describe("worktrees and changes", () => {
  it("adds a worktree beside the project on hermes/<slug>; removing it with changes needs force; the branch stays", async () => {
    const made = await addWorktree(root, "Fix it!");
    expect(made).toEqual({ ok: true, value: { directory: `${root}-fix-it`, branch: "hermes/fix-it" } });
    if (!made.ok) return;
    expect(await addWorktree(root, "fix it")).toMatchObject({ ok: true, value: { branch: "hermes/fix-it-2", directory: `${root}-fix-it-2` } });
    await removeWorktree(`${root}-fix-it-2`, false);
    fs.writeFileSync(path.join(made.value.directory, "wip.txt"), "work in progress\n");
    expect((await removeWorktree(made.value.directory, false)).ok).toBe(false);
    expect(fs.existsSync(made.value.directory)).toBe(true);
    expect(await removeWorktree(made.value.directory, true)).toEqual({ ok: true, value: true });
    expect(fs.existsSync(made.value.directory)).toBe(false);
    expect(git(["branch", "--list", "hermes/fix-it"])).toContain("hermes/fix-it");
  });

  it("readChanges: lines per file, new and binary files, and the whole diff without binary bytes", async () => {
    write("a.txt", "a changed\nand more\n");
    write("n.txt", "one\ntwo\nthree\n");
    write("pic.bin", Buffer.from([0, 159, 146, 150, 0, 1]));
    const changes = await readChanges(root);
    if (!changes.ok) throw new Error(changes.error);
    expect(changes.value.files.map(({ path, kind, added, removed, binary }) => ({ path, kind, added, removed, binary }))).toEqual([
      { path: "a.txt", kind: "modified", added: 2, removed: 1, binary: false },
      { path: "n.txt", kind: "new", added: 3, removed: 0, binary: false },
      { path: "pic.bin", kind: "new", added: 0, removed: 0, binary: true },
    ]);
    expect(changes.value.diff).toContain("+three");
    expect(changes.value.diff).toContain("Binary files /dev/null and b/pic.bin differ");
    expect(changes.value.status.branch).toBe("main");
  });
});

describe("commitFiles and pathspec magic", () => {
  it("a file named like pathspec magic is that file only, never everything", async () => {
    write(":(glob)*", "odd name\n");
    write("a.txt", "a changed, not named\n");
    const outcome = await commitFiles(root, [":(glob)*"], "odd\n");
    expect(outcome.ok).toBe(true);
    expect(git(["show", "--name-only", "--format=", "HEAD"])).toBe(":(glob)*");
    expect(git(["status", "--porcelain"])).toBe("M a.txt");
  });
});
