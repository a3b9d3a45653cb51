// Two projects in one `opencode serve`: a reply from the phone to a notice of the second project's
// session (its own git repository, so its own OpenCode project, with a non-ASCII name) reaches that
// session. OpenCode 1.1.53's plugin client does not say which directory it speaks for, so without
// Hermes adding it the prompt went to the first project and was lost (NotFoundError).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID } from "../support/fake-telegram.ts";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE_VERSIONS } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { startRig, type Rig } from "./question-suite.ts";

describe.each(OPENCODE_VERSIONS)("a second project on OpenCode %s", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, { HERMES_DONE_AFTER: "1s" });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("a reply to its session's Done notice reaches that session", async () => {
    const directory = await rig.opencode.addProject("zweites-projekt-é");
    fs.writeFileSync(path.join(directory, "readme.txt"), "x\n");
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.email=test@example.com", "-c", "user.name=Test", ...args], { cwd: directory, stdio: "ignore" });
    git("init", "-q");
    git("add", ".");
    git("commit", "-qm", "start");
    const session = await rig.opencode.createSession({ directory });
    await rig.opencode.prompt(
      session.id,
      directive({ tool: "bash", args: { command: "sleep 2", description: "wait" }, then: [{ text: "second project done" }] }),
      { directory },
    );
    const done = await rig.telegram.waitForMessage((m) => m.text.includes("second project done"), { timeoutMs: 30_000, what: "Done" });
    rig.telegram.sendText(DEFAULT_CHAT_ID, "follow-up for the second project", { replyTo: done.messageId });
    const request = await pollUntil(() => rig.llm.requests.find((r) => JSON.stringify(r.messages ?? []).includes("follow-up for the second project")), {
      timeoutMs: 20_000,
      what: "the reply at the LLM",
    });
    expect(JSON.stringify(request.messages)).toContain("second project done");
    expect(rig.telegram.messages().filter((m) => m.text.includes("Not sent"))).toEqual([]);
  });
});
