// Git from the phone, end to end on the real OpenCode (docs/git.md), one OpenCode process per
// version shared by every scenario: a real git repository whose remote is a local bare repository,
// and a stand-in `gh` on the PATH (it records its arguments and prints a pull request's URL).
// A phone run edits two files while a third is dirty beforehand → Commit commits exactly those
// two with the proposed message; a second run: a failing pre-commit hook leaves the index and the
// files as they were, a reply replaces the message, which is used; Push lands the commit in the
// bare remote; Open pull request calls `gh pr create` with the branch; /diff shows the branch,
// the files (new and binary marked) and the whole diff; a remote URL with credentials never
// reaches the chat or the log; /new --worktree runs in a new worktree on its own branch while
// another run works in the main checkout, neither touching the other's files, and Remove worktree
// removes it; a stranger's taps and commands change nothing.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SentMessage } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2, OPENCODE2_VERSION, type OpencodeVersion } from "../support/opencode.ts";
import { sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

const STRANGER = { id: 666, is_bot: false, first_name: "Stranger" };
const TOKEN = "ghp_e2eSecretToken0123456789abcdefXYZ";
const PR_URL = "https://github.com/example/project/pull/7";
const VERSIONS: OpencodeVersion[] = ["1.18.33", OPENCODE2_VERSION, "1.1.53"];

describe.each(VERSIONS)("git from the phone on OpenCode %s", { timeout: 240_000 }, (version) => {
  const v2 = isOpencode2(version);
  const pathKey = v2 ? "path" : "filePath";
  let rig: Rig;
  let directory: string;
  let bare: string;
  let ghLog: string;
  const git = (args: string[], cwd = directory) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();
  const read = (name: string, root = directory) => (fs.existsSync(path.join(root, name)) ? fs.readFileSync(path.join(root, name), "utf8") : null);
  const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
  const labels = (message: SentMessage) => rig.telegram.buttons(current(message)).map((button) => button.text);
  const tap = async (message: SentMessage, label: string) => rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(message, label));
  const edited = (message: SentMessage, text: string) =>
    rig.telegram.waitFor(() => (current(message).text.includes(text) ? current(message) : undefined), { timeoutMs: 60_000, what: `"${text}"` });
  const replyTo = (message: { messageId: number }, text: string) =>
    rig.telegram.waitForMessage((m) => m.replyToMessageId === message.messageId && m.text.includes(text), { timeoutMs: 30_000, what: `"${text}"` });
  const doneNotice = (marker: string) =>
    rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes(marker), { timeoutMs: 90_000, what: `Done for ${marker}` });
  /** A run that writes each file (read first where it exists: 1.1.53 refuses to overwrite an unread file), then answers `marker`. */
  const writes = (files: Array<[string, string]>, marker: string, first: Array<Record<string, unknown>> = []) => {
    const steps: Array<Record<string, unknown>> = [...first];
    for (const [file, content] of files) {
      if (path.isAbsolute(file) && fs.existsSync(file)) steps.push({ tool: "read", args: { [pathKey]: file } });
      steps.push({ tool: "write", args: { [pathKey]: file, content } });
    }
    const [head, ...then] = [...steps, { text: marker }];
    return directive({ ...head, then } as Parameters<typeof directive>[0]);
  };
  const shell = (command: string) => (v2 ? { tool: "shell", args: { command } } : { tool: "bash", args: { command, description: "wait" } });
  /** Everything a commit could disturb: HEAD, the index, the files. */
  const snapshot = () => ({ head: git(["rev-parse", "HEAD"]), index: git(["diff", "--cached", "--name-status"]), status: git(["status", "--porcelain"]) });
  const strangerTap = async (message: SentMessage, label: string) => {
    const answer = await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(message, label, STRANGER));
    expect(answer.text).toContain("Not authorized");
  };

  beforeAll(async () => {
    const tools = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-gh-"));
    ghLog = path.join(tools, "gh-calls.log");
    // The stand-in gh: signed in, and `pr create` prints the new pull request's URL.
    fs.writeFileSync(
      path.join(tools, "gh"),
      `#!/bin/sh\nprintf '%s\\n' "$@" >> '${ghLog}'\necho '----' >> '${ghLog}'\ncase "$1" in\n  auth) echo 'Logged in'; exit 0;;\n  pr) echo 'Creating pull request'; echo '${PR_URL}'; exit 0;;\nesac\nexit 1\n`,
      { mode: 0o755 },
    );
    rig = await startRig(version, { HERMES_DONE_AFTER: "60s", PATH: `${tools}:${process.env.PATH}` }, undefined, {
      permission: { edit: "allow", bash: "allow", shell: "allow", external_directory: "allow" },
      warmup: false,
    });
    directory = rig.opencode.directory;
    bare = path.join(tools, "remote.git");
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", bare]);
    for (const name of ["one.txt", "two.txt", "dirty.txt"]) fs.writeFileSync(path.join(directory, name), `${name} as committed\n`);
    git(["init", "-q", "-b", "main"]);
    git(["config", "user.email", "owner@example.com"]);
    git(["config", "user.name", "Owner"]);
    git(["add", "."]);
    git(["commit", "-qm", "start"]);
    git(["remote", "add", "origin", bare]);
    git(["push", "-q", "-u", "origin", "main"]);
    git(["checkout", "-q", "-b", "feature-x"]);
    if (v2) await rig.opencode.request("GET", `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(directory)}`);
    else await rig.opencode.request("GET", "/config", { directory });
  }, 120_000);
  afterAll(async () => {
    if (process.env.GIT_E2E_DEBUG)
      console.error(
        JSON.stringify(
          rig?.telegram.messages().map((m) => [m.messageId, m.replyToMessageId, m.text.slice(0, 300), rig.telegram.buttons(m).map((b) => b.text)]),
        ),
      );
    await rig?.stop();
  });

  let committed: SentMessage;

  it("Commit commits exactly the run's two files with the proposed message; the dirty third stays out", async () => {
    fs.appendFileSync(path.join(directory, "dirty.txt"), "dirty before the run\n");
    const run = writes(
      [
        [path.join(directory, "one.txt"), "one changed by the run\n"],
        [path.join(directory, "two.txt"), "two changed by the run\n"],
      ],
      "Edited one and two",
    );
    rig.telegram.sendText(rig.chatId, `/new ${run}`);
    const notice = await doneNotice("Edited one and two");
    expect(labels(notice)).toEqual(["⏪ Undo", "⑂ Fork", "✅ Commit"]);

    await strangerTap(notice, "✅ Commit");
    await tap(notice, "✅ Commit");
    const ask = await replyTo(notice, "Commit on feature-x?");
    expect(ask.text).toContain("<code>one.txt</code>");
    expect(ask.text).toContain("<code>two.txt</code>");
    expect(ask.text).not.toContain("<code>dirty.txt</code>");
    expect(ask.text).toContain("1 other uncommitted file stays out of it");
    const proposed = /<pre>([\s\S]*?)<\/pre>/.exec(ask.text)![1]!;
    const subject = proposed.split("\n")[0]!;
    expect([...subject].length).toBeLessThanOrEqual(72);
    expect(proposed).toContain("- one.txt\n- two.txt");

    await strangerTap(ask, "✅ Confirm commit");
    const before = git(["rev-parse", "HEAD"]);
    expect(git(["rev-parse", "HEAD"])).toBe(before);

    // Two quick taps: one commit; the other tap is told so.
    const answers = await Promise.all([tap(ask, "✅ Confirm commit"), tap(ask, "✅ Confirm commit")]);
    const texts = answers.map((answer) => answer.text ?? "");
    expect(texts.filter((text) => text === "Committing…")).toHaveLength(1);
    expect(texts.find((text) => text !== "Committing…")).toMatch(/Already on it|This is over/);
    committed = await edited(ask, "Committed");
    expect(git(["rev-list", "--count", `${before}..HEAD`])).toBe("1");
    const hash = git(["rev-parse", "--short", "HEAD"]);
    expect(committed.text).toContain(`Committed <code>${hash}</code> on <b>feature-x</b>`);
    expect(git(["show", "--name-only", "--format=", "HEAD"]).split("\n")).toEqual(["one.txt", "two.txt"]);
    expect(git(["log", "-1", "--format=%s"])).toBe(subject.replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">"));
    expect(git(["status", "--porcelain"])).toBe("M dirty.txt");
    expect(labels(committed)).toEqual(["⬆️ Push"]);
  });

  it("a failing pre-commit hook leaves the index and the files as they were; a reply replaces the message, which is used", async () => {
    const run = writes([[path.join(directory, "one.txt"), "one changed again\n"]], "Second run done");
    rig.telegram.sendText(rig.chatId, `/new ${run}`);
    const notice = await doneNotice("Second run done");

    // Refused while the session works: a reply continues it with a run that waits.
    rig.telegram.sendText(rig.chatId, directive({ ...shell("sleep 4"), then: [{ text: "Waiting run done" }] }), { replyTo: notice.messageId });
    await rig.telegram.waitFor(() => rig.llm.requests.some((r) => JSON.stringify(r.messages ?? []).includes("Waiting run done")) || undefined, {
      timeoutMs: 30_000,
      what: "the waiting run at the LLM",
    });
    expect(await tap(notice, "✅ Commit")).toMatchObject({ text: expect.stringContaining("The session is working"), showAlert: true });
    await doneNotice("Waiting run done");

    await tap(notice, "✅ Commit");
    const ask = await replyTo(notice, "Commit on feature-x?");
    // Refused when a file changed again since the run, and in the middle of a merge: nothing committed.
    const head = git(["rev-parse", "HEAD"]);
    fs.writeFileSync(path.join(directory, "one.txt"), "edited in the terminal meanwhile\n");
    expect(await tap(ask, "✅ Confirm commit")).toMatchObject({ text: expect.stringContaining("one.txt changed again since the run"), showAlert: true });
    fs.writeFileSync(path.join(directory, "one.txt"), "one changed again\n");
    fs.writeFileSync(path.join(directory, ".git", "MERGE_HEAD"), `${head}\n`);
    expect(await tap(ask, "✅ Confirm commit")).toMatchObject({ text: expect.stringContaining("A merge is under way"), showAlert: true });
    fs.rmSync(path.join(directory, ".git", "MERGE_HEAD"));
    expect(git(["rev-parse", "HEAD"])).toBe(head);

    const hook = path.join(directory, ".git", "hooks", "pre-commit");
    fs.writeFileSync(hook, "#!/bin/sh\necho 'hook says no' >&2\nexit 1\n", { mode: 0o755 });
    const before = snapshot();
    const files = { one: read("one.txt"), dirty: read("dirty.txt") };
    await tap(ask, "✅ Confirm commit");
    const failed = await edited(ask, "Nothing committed");
    expect(failed.text).toContain("hook says no");
    expect(snapshot()).toEqual(before);
    expect({ one: read("one.txt"), dirty: read("dirty.txt") }).toEqual(files);
    fs.rmSync(hook);

    // A reply to the confirmation replaces the message (the failure kept the button to try again).
    rig.telegram.sendText(rig.chatId, "Phone: tighten one.txt\n\nWritten on the phone.", { replyTo: ask.messageId });
    // A stranger's reply changes nothing.
    rig.telegram.sendText(rig.chatId, "stranger's message", { replyTo: ask.messageId, from: STRANGER });
    await edited(ask, "Phone: tighten one.txt");
    await tap(ask, "✅ Confirm commit");
    await edited(ask, "Committed");
    expect(git(["log", "-1", "--format=%B"])).toBe("Phone: tighten one.txt\n\nWritten on the phone.");
    expect(git(["show", "--name-only", "--format=", "HEAD"])).toBe("one.txt");
    expect(rig.telegram.messages().some((m) => m.text.includes("stranger's message"))).toBe(false);
  });

  it("Push lands the commits in the bare remote (upstream set to the same name); Open pull request runs gh pr create for the branch", async () => {
    await tap(committed, "⬆️ Push");
    const ask = await replyTo(committed, "Push feature-x");
    expect(ask.text).toContain(`<code>${bare}</code>`);
    expect(ask.text).toContain("Its upstream becomes origin/feature-x");
    expect(rig.telegram.buttons(ask)).toEqual([expect.objectContaining({ text: "⬆️ Confirm push", style: "danger" })]);
    await strangerTap(ask, "⬆️ Confirm push");
    await sleep(500);
    expect(() => git(["rev-parse", "-q", "--verify", "refs/heads/feature-x"], bare)).toThrow();

    await tap(ask, "⬆️ Confirm push");
    const pushed = await edited(ask, "Pushed");
    expect(git(["rev-parse", "refs/heads/feature-x"], bare)).toBe(git(["rev-parse", "HEAD"]));
    expect(git(["rev-parse", "--abbrev-ref", "feature-x@{u}"])).toBe("origin/feature-x");
    expect(git(["rev-parse", "refs/heads/main"], bare)).toBe(git(["rev-parse", "main"]));

    await strangerTap(pushed, "🔀 Open pull request");
    await tap(pushed, "🔀 Open pull request");
    const pr = await replyTo(pushed, "Pull request:");
    expect(pr.text).toContain(PR_URL);
    const calls = fs.readFileSync(ghLog, "utf8").split("----\n");
    const create = calls.find((call) => call.startsWith("pr\ncreate\n"))!;
    expect(create.split("\n")).toEqual(["pr", "create", "--head=feature-x", "--title=Phone: tighten one.txt", "--body=Written on the phone.", ""]);
    expect(calls.filter((call) => call.startsWith("pr\n"))).toHaveLength(1);
  });

  it("/diff shows the branch against its upstream, the files (new and binary marked) and the whole diff; a stranger's /diff gets nothing", async () => {
    fs.writeFileSync(path.join(directory, "new.txt"), "a new file\nwith two lines\n");
    fs.writeFileSync(path.join(directory, "image.bin"), Buffer.from([0, 1, 2, 3, 255, 0, 7]));
    const before = rig.telegram.messages().length;
    rig.telegram.sendText(rig.chatId, "/diff", { from: STRANGER });
    const command = rig.telegram.sendText(rig.chatId, "/diff");
    const summary = await replyTo(command, "on <b>feature-x</b>");
    expect(summary.text).toContain("origin/feature-x: 0 ahead, 0 behind");
    expect(summary.text).toContain("<code>dirty.txt</code> +1 −0");
    expect(summary.text).toContain("<code>new.txt</code> (new) +2 −0");
    expect(summary.text).toContain("<code>image.bin</code> (new) (binary)");
    const file = await rig.telegram.waitForMessage((m) => m.replyToMessageId === summary.messageId && m.document?.filename === "changes.diff", {
      what: "changes.diff",
    });
    const diff = file.document!.content ?? file.document!.data!.toString("utf8");
    expect(diff).toContain("+dirty before the run");
    expect(diff).toContain("+with two lines");
    expect(diff).toMatch(/Binary files \/dev\/null and b\/image.bin differ/);
    // The stranger's /diff got nothing: only the owner's answer and its file came.
    expect(rig.telegram.messages().length - before).toBe(2);
    // /diff in reply to a session's message: that session's directory.
    const reply = rig.telegram.sendText(rig.chatId, "/diff", { replyTo: committed.messageId });
    expect((await replyTo(reply, "on <b>feature-x</b>")).text).toContain("<code>new.txt</code> (new)");
    fs.rmSync(path.join(directory, "new.txt"));
    fs.rmSync(path.join(directory, "image.bin"));
  });

  // Issue 49: reading runs nothing of the repository's choosing; Commit names the hooks it runs.
  it("/diff runs no fsmonitor, textconv, external diff or pager the repository names; Commit's confirmation names the hooks (core.hooksPath)", async () => {
    const marks = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-marks-"));
    const planted = (name: string) => {
      const script = path.join(marks, `${name}.sh`);
      fs.writeFileSync(script, `#!/bin/sh\ntouch '${path.join(marks, `${name}-ran`)}'\ncat "$@" 2>/dev/null\n`, { mode: 0o755 });
      return script;
    };
    const hooks = path.join(marks, "hooks");
    fs.mkdirSync(hooks);
    fs.writeFileSync(path.join(hooks, "pre-commit"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    const settings: Array<[string, string]> = [
      ["core.fsmonitor", planted("fsmonitor")],
      ["diff.planted.textconv", planted("textconv")],
      ["diff.external", planted("external")],
      ["core.pager", planted("pager")],
      ["core.hooksPath", hooks],
    ];
    for (const [key, value] of settings) git(["config", key, value]);
    fs.appendFileSync(path.join(directory, ".git", "info", "attributes"), "*.txt diff=planted\n");
    const two = path.join(directory, "two.txt");
    const twoBefore = fs.readFileSync(two, "utf8");
    fs.appendFileSync(two, "a line for the planted diff\n");
    try {
      const command = rig.telegram.sendText(rig.chatId, "/diff");
      const summary = await replyTo(command, "on <b>feature-x</b>");
      expect(summary.text).toContain("<code>two.txt</code>");
      const file = await rig.telegram.waitForMessage((m) => m.replyToMessageId === summary.messageId && m.document?.filename === "changes.diff", {
        what: "changes.diff",
      });
      expect(file.document!.content ?? file.document!.data!.toString("utf8")).toContain("+a line for the planted diff");
      expect(fs.readdirSync(marks).filter((name) => name.endsWith("-ran"))).toEqual([]);

      const run = writes([[path.join(directory, "one.txt"), "one changed for the hooks\n"]], "Hooks run done");
      rig.telegram.sendText(rig.chatId, `/new ${run}`);
      const notice = await doneNotice("Hooks run done");
      if (labels(notice).includes("✅ Commit")) {
        await tap(notice, "✅ Commit");
        const ask = await replyTo(notice, "Commit on feature-x?");
        expect(ask.text).toContain("It runs the repository's hooks <code>pre-commit</code>");
        expect(ask.text).toContain(hooks);
      } else expect(version).toBe("1.1.53"); // its record of the run's files may miss the change (docs/undo.md)
      // Still nothing of the repository's choosing ran (the confirmation read the status too).
      expect(fs.readdirSync(marks).filter((name) => name.endsWith("-ran"))).toEqual([]);
    } finally {
      for (const [key] of settings) git(["config", "--unset", key]);
      fs.writeFileSync(path.join(directory, ".git", "info", "attributes"), "");
      git(["checkout", "--", "one.txt"]);
      fs.writeFileSync(two, twoBefore);
    }
  });

  // Issue 49: push goes where the confirmation says.
  it("a pushurl planted after the confirmation: the push is refused and nothing lands anywhere", async () => {
    const planted = path.join(path.dirname(bare), "planted.git");
    execFileSync("git", ["init", "-q", "--bare", "-b", "main", planted]);
    git(["checkout", "-q", "-b", "planted-branch"]);
    try {
      const command = rig.telegram.sendText(rig.chatId, "/diff");
      const summary = await replyTo(command, "on <b>planted-branch</b>");
      await tap(summary, "⬆️ Push");
      const ask = await replyTo(summary, "Push planted-branch");
      expect(ask.text).toContain(`<code>${bare}</code>`);
      // What a prompt-injected agent would run between the confirmation and the tap.
      git(["config", "remote.origin.pushurl", planted]);
      await tap(ask, "⬆️ Confirm push");
      const refused = await edited(ask, "Not pushed");
      expect(refused.text).toContain("git would now push to");
      expect(() => git(["rev-parse", "-q", "--verify", "refs/heads/planted-branch"], planted)).toThrow();
      expect(() => git(["rev-parse", "-q", "--verify", "refs/heads/planted-branch"], bare)).toThrow();
    } finally {
      git(["config", "--unset", "remote.origin.pushurl"]);
      git(["checkout", "-q", "feature-x"]);
    }
  });

  it("a remote URL with credentials never reaches the chat or the log", async () => {
    git(["checkout", "-q", "-b", "with-credentials"]);
    git(["remote", "set-url", "origin", `https://hermes:${TOKEN}@127.0.0.1:9/project.git`]);
    try {
      const command = rig.telegram.sendText(rig.chatId, "/diff");
      const summary = await replyTo(command, "on <b>with-credentials</b>");
      await tap(summary, "⬆️ Push");
      const ask = await replyTo(summary, "Push with-credentials");
      expect(ask.text).toContain("https://***@127.0.0.1:9/project.git");
      await tap(ask, "⬆️ Confirm push");
      await edited(ask, "Not pushed");
      const everything = JSON.stringify(rig.telegram.messages());
      expect(everything).not.toContain(TOKEN);
      expect(everything).not.toContain("hermes:");
      expect(fs.readFileSync(rig.logFile, "utf8")).not.toContain(TOKEN);
    } finally {
      git(["remote", "set-url", "origin", bare]);
      git(["checkout", "-q", "feature-x"]);
    }
  });

  // Before the worktree case: after it, this run's Done never came on 1.18.33 and 1.1.53 in a whole-file run
  // (alone it passes; 2.0.15 passed either way); why was not looked into.
  it("30 long-named files that no message can list: the whole list goes out first as commit-files.txt, the confirmation replies to it, and Confirm commits exactly those (issue 49)", async () => {
    const names = Array.from(
      { length: 30 },
      (_, index) => `packages/app/src/components/widgets/a-rather-long-directory-name-for-this-test/module-${index}/index-with-a-long-name.tsx`,
    );
    const run = writes(
      names.map((name) => [path.join(directory, name), `export const m = 1;\n`]),
      "Wrote the widgets",
    );
    rig.telegram.sendText(rig.chatId, `/new ${run}`);
    // Thirty tool steps: on a loaded machine the run takes over a minute.
    const notice = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("Wrote the widgets"), {
      timeoutMs: 180_000,
      what: "Done for the widgets",
    });
    await tap(notice, "✅ Commit");
    const list = await rig.telegram.waitForMessage((m) => m.replyToMessageId === notice.messageId && m.document?.filename === "commit-files.txt", {
      timeoutMs: 60_000,
      what: "commit-files.txt",
    });
    const content = list.document!.content ?? list.document!.data!.toString("utf8");
    const shown = content.trim().split("\n").sort();
    // 1.1.53's record of a run's files races its tools (docs/undo.md): it may miss one; what counts is that the list is what gets committed.
    if (version === "1.1.53") expect(shown.length).toBeGreaterThan(20);
    else expect(shown).toEqual([...names].sort());
    const ask = await replyTo(list, "Commit on feature-x?");
    expect(ask.text).toContain(`${shown.length} files, each listed in <code>commit-files.txt</code>`);
    await strangerTap(ask, "✅ Confirm commit");
    const before = git(["rev-parse", "HEAD"]);
    await tap(ask, "✅ Confirm commit");
    await edited(ask, "Committed");
    expect(git(["rev-list", "--count", `${before}..HEAD`])).toBe("1");
    expect(git(["show", "--name-only", "--format=", "HEAD"]).split("\n").sort()).toEqual(shown);
  });

  it("/new --worktree runs in a new worktree on its own branch while a run works in the main checkout; Commit there, then Remove worktree", async () => {
    // The main checkout's run: it waits, then writes main-only.txt.
    const mainRun = writes([[path.join(directory, "main-only.txt"), "main\n"]], "Main checkout run done", [shell("sleep 6")]);
    rig.telegram.sendText(rig.chatId, `/new ${mainRun}`);
    await rig.telegram.waitFor(() => rig.llm.requests.some((r) => JSON.stringify(r.messages ?? []).includes("Main checkout run done")) || undefined, {
      timeoutMs: 30_000,
      what: "the main run at the LLM",
    });
    // The worktree's run writes a relative path: it lands in the session's own directory.
    const worktreeRun = writes([["worktree-only.txt", "worktree\n"]], "Worktree run done");
    rig.telegram.sendText(rig.chatId, `/new --worktree ${worktreeRun}`, { from: STRANGER });
    const command = rig.telegram.sendText(rig.chatId, `/new --worktree ${worktreeRun}`);
    const created = await replyTo(command, "New worktree on");
    const branch = /on <b>(hermes\/[^<]+)<\/b>/.exec(created.text)![1]!;
    const worktree = /<code>([^<]+)<\/code>/.exec(created.text)![1]!;
    expect(path.dirname(worktree)).toBe(path.dirname(directory));
    expect(git(["rev-parse", "--abbrev-ref", "HEAD"], worktree)).toBe(branch);

    const notice = await doneNotice("Worktree run done");
    const main = await doneNotice("Main checkout run done");
    expect(read("worktree-only.txt", worktree)).toBe("worktree\n");
    expect(read("worktree-only.txt")).toBeNull();
    expect(read("main-only.txt")).toBe("main\n");
    expect(read("main-only.txt", worktree)).toBeNull();
    expect(labels(main)).toEqual(["⏪ Undo", "⑂ Fork", "✅ Commit"]);
    // Only one worktree: the stranger's /new --worktree made none.
    expect(git(["worktree", "list", "--porcelain"]).match(/^worktree /gm)).toHaveLength(2);
    // 1.1.53's snapshots may miss a run's change (docs/undo.md): no changed files, so no Commit; the file stays uncommitted.
    const tracked = labels(notice).includes("✅ Commit");
    if (tracked) {
      expect(labels(notice)).toEqual(["⏪ Undo", "⑂ Fork", "✅ Commit", "⬆️ Push", "🗑 Remove worktree"]);
      await tap(notice, "✅ Commit");
      const ask = await replyTo(notice, `Commit on ${branch}?`);
      await tap(ask, "✅ Confirm commit");
      await edited(ask, `on <b>${branch}</b>`);
      expect(git(["show", "--name-only", "--format=", branch])).toBe("worktree-only.txt");
      expect(git(["rev-parse", "--abbrev-ref", "HEAD"])).toBe("feature-x");
    } else {
      expect(version).toBe("1.1.53");
      expect(labels(notice)).toEqual(["⑂ Fork", "⬆️ Push", "🗑 Remove worktree"]);
    }

    // An ignored file copied into the worktree (issue 49): the removal deletes it too, so the confirmation counts it.
    fs.appendFileSync(path.join(directory, ".git", "info", "exclude"), ".env\n");
    fs.writeFileSync(path.join(worktree, ".env"), "API_KEY=copied\n");
    await strangerTap(notice, "🗑 Remove worktree");
    await tap(notice, "🗑 Remove worktree");
    const remove = await replyTo(notice, "Remove the worktree");
    expect(remove.text).toContain("⚠️ 1 ignored file or folder goes with it: <code>.env</code>.");
    // Uncommitted changes are named before the red Confirm (which then forces the removal).
    if (tracked) expect(remove.text).not.toContain("uncommitted");
    else expect(remove.text).toContain("It has 1 uncommitted change: they will be lost.");
    expect(rig.telegram.buttons(remove)).toEqual([expect.objectContaining({ text: "🗑 Confirm remove", style: "danger" })]);
    await strangerTap(remove, "🗑 Confirm remove");
    expect(fs.existsSync(worktree)).toBe(true);
    await tap(remove, "🗑 Confirm remove");
    await edited(remove, "Removed");
    expect(fs.existsSync(worktree)).toBe(false);
    expect(git(["rev-parse", "--verify", "-q", `refs/heads/${branch}`])).not.toBe("");
  });
});

// With forum topics on (a supergroup), a worktree's session gets its own topic named by its
// branch; its Done notice and Commit's confirmation are there, and Remove worktree's confirmation
// counts an ignored file copied into it (issue 49), within the group's flood limits.
describe("a worktree's session in its own forum topic on OpenCode 1.18.33", { timeout: 180_000 }, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig("1.18.33", { HERMES_DONE_AFTER: "60s", HERMES_TELEGRAM_TOPICS: "on" }, undefined, {
      permission: { edit: "allow", bash: "allow" },
      warmup: false,
      chat: "supergroup",
    });
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=T", ...args], { cwd: rig.opencode.directory });
    fs.writeFileSync(path.join(rig.opencode.directory, "readme.txt"), "x\n");
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("commit", "-qm", "start");
    await rig.opencode.request("GET", "/config", { directory: rig.opencode.directory });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("the topic carries the branch's name; the Done notice and Commit's and Remove worktree's confirmations are in it, the latter counting an ignored .env; no flood refusal", async () => {
    const run = directive({ tool: "write", args: { filePath: "topic-file.txt", content: "in the worktree\n" }, then: [{ text: "Topic run done" }] });
    const command = rig.telegram.sendText(rig.chatId, `/new --worktree ${run}`);
    const created = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && m.text.includes("New worktree on"), {
      what: "the worktree",
    });
    const branch = /on <b>(hermes\/[^<]+)<\/b>/.exec(created.text)![1]!;
    const notice = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("Topic run done"), {
      timeoutMs: 90_000,
      what: "Done",
    });
    expect(notice.threadId).toEqual(expect.any(Number));
    expect(rig.telegram.topics().find((topic) => topic.threadId === notice.threadId)?.name).toBe(branch);
    expect(rig.telegram.buttons(notice).map((button) => button.text)).toEqual(["⏪ Undo", "⑂ Fork", "✅ Commit", "⬆️ Push", "🗑 Remove worktree"]);
    await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(notice, "✅ Commit"));
    const ask = await rig.telegram.waitForMessage((m) => m.replyToMessageId === notice.messageId && m.text.includes(`Commit on ${branch}?`), {
      what: "the confirmation",
    });
    expect(ask.threadId).toBe(notice.threadId);

    // An ignored file copied into the worktree (issue 49): removing the worktree deletes it too, so the confirmation counts it, in the topic.
    const worktree = /<code>([^<]+)<\/code>/.exec(created.text)![1]!;
    fs.appendFileSync(path.join(rig.opencode.directory, ".git", "info", "exclude"), ".env\n");
    fs.writeFileSync(path.join(worktree, ".env"), "API_KEY=copied\n");
    const stranger = await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(notice, "🗑 Remove worktree", STRANGER));
    expect(stranger.text).toContain("Not authorized");
    await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(notice, "🗑 Remove worktree"));
    const remove = await rig.telegram.waitForMessage((m) => m.replyToMessageId === notice.messageId && m.text.includes("Remove the worktree"), {
      what: "Remove worktree's confirmation",
    });
    expect(remove.threadId).toBe(notice.threadId);
    expect(remove.text).toContain("⚠️ 1 ignored file or folder goes with it: <code>.env</code>.");
    // The run's file is uncommitted (Commit was not confirmed): named too.
    expect(remove.text).toContain("It has 1 uncommitted change: they will be lost.");
    expect(rig.telegram.buttons(remove)).toEqual([expect.objectContaining({ text: "🗑 Confirm remove", style: "danger" })]);
    await rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(remove, "🗑 Confirm remove"));
    await rig.telegram.waitFor(
      () =>
        rig.telegram
          .messages()
          .find((m) => m.messageId === remove.messageId)
          ?.text.includes("Removed")
          ? true
          : undefined,
      { what: "Removed" },
    );
    expect(fs.existsSync(worktree)).toBe(false);
    expect(rig.telegram.flood.rejected).toBe(0);
  });
});

// Issue 49, in a supergroup (its machine label takes room, its 20 messages a minute are shared):
// a commit list no message can hold goes out first whole as commit-files.txt, the confirmation
// replies to it, and Confirm commits exactly those files; a stranger's Confirm commits nothing.
describe.each(VERSIONS)("a long commit list in a supergroup on OpenCode %s", { timeout: 240_000 }, (version) => {
  const pathKey = isOpencode2(version) ? "path" : "filePath";
  let rig: Rig;
  let directory: string;
  const git = (args: string[]) => execFileSync("git", args, { cwd: directory, encoding: "utf8" }).trim();
  const current = (message: SentMessage) => rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
  const tap = async (message: SentMessage, label: string, from?: typeof STRANGER) =>
    rig.telegram.waitForCallbackAnswer(await rig.telegram.tapButton(current(message), label, from));

  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "60s" }, undefined, { permission: { edit: "allow" }, warmup: false, chat: "supergroup" });
    directory = rig.opencode.directory;
    fs.writeFileSync(path.join(directory, "README.md"), "project\n");
    git(["init", "-q", "-b", "main"]);
    git(["config", "user.email", "owner@example.com"]);
    git(["config", "user.name", "Owner"]);
    git(["add", "."]);
    git(["commit", "-qm", "start"]);
    if (isOpencode2(version)) await rig.opencode.request("GET", `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(directory)}`);
    else await rig.opencode.request("GET", "/config", { directory });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("the whole list as commit-files.txt first, the confirmation in reply to it; Confirm commits exactly those", async () => {
    const names = Array.from({ length: 30 }, (_, index) => `src/components/a-rather-long-directory-name-for-the-group-test/module-${index}/index-file.tsx`);
    const steps = names.map((name) => ({ tool: "write", args: { [pathKey]: path.join(directory, name), content: "export const m = 1;\n" } }));
    const [head, ...then] = [...steps, { text: "Group widgets written" }];
    rig.telegram.sendText(rig.chatId, `/new ${directive({ ...head, then } as Parameters<typeof directive>[0])}`);
    const notice = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("Group widgets written"), {
      timeoutMs: 180_000,
      what: "the Done notice",
    });
    await tap(notice, "✅ Commit");
    const list = await rig.telegram.waitForMessage((m) => m.replyToMessageId === notice.messageId && m.document?.filename === "commit-files.txt", {
      timeoutMs: 90_000,
      what: "commit-files.txt",
    });
    const shown = (list.document!.content ?? list.document!.data!.toString("utf8")).trim().split("\n").sort();
    // 1.1.53's record of a run's files races its tools (docs/undo.md): it may miss one.
    if (version === "1.1.53") expect(shown.length).toBeGreaterThan(20);
    else expect(shown).toEqual([...names].sort());
    const ask = await rig.telegram.waitForMessage((m) => m.replyToMessageId === list.messageId && m.text.includes("Commit on main?"), {
      timeoutMs: 90_000,
      what: "the confirmation",
    });
    expect(ask.text).toContain(`${shown.length} files, each listed in <code>commit-files.txt</code>`);
    const before = git(["rev-parse", "HEAD"]);
    expect(await tap(ask, "✅ Confirm commit", STRANGER)).toMatchObject({ text: expect.stringContaining("Not authorized") });
    expect(git(["rev-parse", "HEAD"])).toBe(before);
    await tap(ask, "✅ Confirm commit");
    await rig.telegram.waitFor(() => (current(ask).text.includes("Committed") ? true : undefined), { timeoutMs: 90_000, what: "Committed" });
    expect(git(["rev-list", "--count", `${before}..HEAD`])).toBe("1");
    expect(git(["show", "--name-only", "--format=", "HEAD"]).split("\n").sort()).toEqual(shown);
  });

  it("/diff in the group runs none of a planted fsmonitor, textconv, external diff or pager", async () => {
    const marks = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-group-marks-"));
    const planted = (name: string) => {
      const script = path.join(marks, `${name}.sh`);
      fs.writeFileSync(script, `#!/bin/sh\ntouch '${path.join(marks, `${name}-ran`)}'\ncat "$@" 2>/dev/null\n`, { mode: 0o755 });
      return script;
    };
    for (const [key, name] of [
      ["core.fsmonitor", "fsmonitor"],
      ["diff.planted.textconv", "textconv"],
      ["diff.external", "external"],
      ["core.pager", "pager"],
    ] as const)
      git(["config", key, planted(name)]);
    fs.writeFileSync(path.join(directory, ".git", "info", "attributes"), "*.md diff=planted\n");
    fs.appendFileSync(path.join(directory, "README.md"), "a line for the planted diff\n");
    const command = rig.telegram.sendText(rig.chatId, "/diff");
    const summary = await rig.telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && m.text.includes("on <b>main</b>"), {
      timeoutMs: 90_000,
      what: "the /diff summary",
    });
    expect(summary.text).toContain("<code>README.md</code>");
    const file = await rig.telegram.waitForMessage((m) => m.replyToMessageId === summary.messageId && m.document?.filename === "changes.diff", {
      timeoutMs: 90_000,
      what: "changes.diff",
    });
    expect(file.document!.content ?? file.document!.data!.toString("utf8")).toContain("+a line for the planted diff");
    expect(fs.readdirSync(marks).filter((name) => name.endsWith("-ran"))).toEqual([]);
  });
});
