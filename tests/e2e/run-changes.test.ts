// What a run changed, end to end on the real OpenCode: the mock LLM writes and edits files in a git
// project (OpenCode reports a run's changes only there), and the Done notice lists the files with
// the lines added and removed as OpenCode counted them, with the whole diff as a .diff file.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE_VERSIONS } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

function gitProject(directory: string): void {
  fs.writeFileSync(path.join(directory, "existing.txt"), "one\ntwo\nthree\nfour\n");
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=Test", ...args], { cwd: directory, stdio: "ignore" });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "start");
}

/**
 * The Done threshold, far above what the short run (one write) can take even on a loaded machine,
 * so that "a short run ... sends nothing" holds whatever the machine's speed; the long run sleeps past it.
 */
const DONE_AFTER_S = 15;

describe.each(OPENCODE_VERSIONS)("what a run changed, on OpenCode %s", { timeout: 120_000 }, (version) => {
  let rig: Rig;
  let directory: string;
  beforeAll(async () => {
    // The project becomes a git repository before its instance starts (on the first request).
    rig = await startRig(version, { HERMES_DONE_AFTER: `${DONE_AFTER_S}s` }, undefined, { permission: { edit: "allow", bash: "allow" }, warmup: false });
    directory = rig.opencode.directory;
    gitProject(directory);
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("the Done notice lists the changed files with +/− counts, and the .diff file holds the change", async () => {
    const session = await rig.opencode.createSession({ directory });
    const file = (name: string) => path.join(directory, name);
    await rig.opencode.prompt(
      session.id,
      directive({
        tool: "write",
        args: { filePath: file("hello.txt"), content: "alpha\nbeta\ngamma\n" },
        then: [
          { tool: "read", args: { filePath: file("existing.txt") } },
          { tool: "edit", args: { filePath: file("existing.txt"), oldString: "two\nthree", newString: "TWO\nTHREE\nthree-and-a-half" } },
          { tool: "bash", args: { command: `sleep ${DONE_AFTER_S + 1}`, description: "wait" } },
          { text: "changed the files" },
        ],
      }),
      { directory },
    );
    const done = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("changed the files"), {
      timeoutMs: 90_000,
      what: "Done",
    });
    expect(fs.readFileSync(file("existing.txt"), "utf8")).toBe("one\nTWO\nTHREE\nthree-and-a-half\nfour\n");
    expect(done.text).toContain("<code>existing.txt</code> +3 −2");
    const diffFile = await rig.telegram.waitForMessage((m) => m.document?.filename === "changes.diff" && m.replyToMessageId === done.messageId, {
      what: "the .diff file",
    });
    expect(diffFile.document!.content).toContain(" one\n-two\n-three\n+TWO\n+THREE\n+three-and-a-half\n four\n");
    if (version === "1.1.53") {
      // Measured: 1.1.53's snapshots leave out files the run created, so only the edit is reported.
      expect(done.text).toContain("<b>1 file changed</b> (+3 −2)");
      expect(done.text).not.toContain("hello.txt");
    } else {
      expect(done.text).toContain("<b>2 files changed</b> (+6 −2)");
      expect(done.text).toContain("<code>hello.txt</code> +3 −0 (new)");
      expect(diffFile.document!.content).toContain("+alpha\n+beta\n+gamma\n");
    }
    // A reply to the .diff file reaches the session, as a reply to the notice does.
    rig.telegram.sendText(DEFAULT_CHAT_ID, "now undo the edit", { replyTo: diffFile.messageId });
    await pollUntil(() => rig.llm.userMessages().some((text) => text.includes("now undo the edit")), { timeoutMs: 20_000, what: "the reply at the LLM" });
    // That run came from the phone, so it reports its end too: it changed nothing, so no list and no file.
    const second = await rig.telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.messageId > diffFile.messageId, {
      timeoutMs: 20_000,
      what: "Done for the phone's run",
    });
    expect(second.text).not.toContain("changed</b>");
    await sleep(1_000);
    expect(rig.telegram.messages().filter((m) => m.document?.filename === "changes.diff")).toHaveLength(1);
  });

  it("a short run that changes a file still sends nothing", async () => {
    const before = rig.telegram.messages().length;
    const session = await rig.opencode.createSession({ directory });
    await rig.opencode.prompt(
      session.id,
      directive({ tool: "write", args: { filePath: path.join(directory, "quick.txt"), content: "q\n" }, then: [{ text: "quick write done" }] }),
      { directory },
    );
    await pollUntil(() => rig.llm.requests.some((r) => JSON.stringify(r).includes("Wrote file successfully") && JSON.stringify(r).includes("quick.txt")), {
      timeoutMs: 20_000,
      what: "the write",
    });
    await pollUntil(
      async () => {
        const status = await rig.opencode.request<Record<string, { type: string }>>("GET", "/session/status", { directory });
        return status.body?.[session.id] === undefined || status.body[session.id]?.type === "idle";
      },
      { timeoutMs: 30_000, intervalMs: 100, what: "idle" },
    );
    await sleep(2_000);
    expect(fs.existsSync(path.join(directory, "quick.txt"))).toBe(true);
    expect(
      rig.telegram
        .messages()
        .slice(before)
        .filter((m) => m.text.includes("<b>Done</b>") || m.document),
    ).toEqual([]);
  });
});
