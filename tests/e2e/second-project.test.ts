// Two projects in one `opencode serve`. A reply from the phone to a notice of the second project's
// session (its own git repository, so its own OpenCode project, with a non-ASCII name) reaches that
// session. OpenCode 1.1.53's plugin client does not say which directory it speaks for, so without
// Hermes adding it the prompt went to the first project and was lost (NotFoundError).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID } from "../support/fake-telegram.ts";
import { colorQuestion } from "../support/fixtures.ts";
import { directive } from "../support/mock-llm.ts";
import { isOpencode2, OPENCODE_VERSIONS, OPENCODE2_VERSION } from "../support/opencode.ts";
import { pluginSpec } from "../support/opencode/project-config.ts";
import { pollUntil } from "../support/wait.ts";
import { askOnPhone, PACKAGE_ROOT, PLUGIN_PATH, startRig, type Rig } from "./question-suite.ts";

const color = colorQuestion();

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

// One process, two projects, and the second's opencode.json gives Hermes other settings (here its
// language): it must not join the first project's bridge, whose settings would apply to its prompts.
describe.each(["1.18.33", OPENCODE2_VERSION] as const)("a second project with other Hermes settings on OpenCode %s", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version);
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("is refused with a log line naming what differs; its question never reaches the first project's chat", async () => {
    // The first project's bridge is running (its instance started with the rig).
    await askOnPhone(rig, [color], "first-project");
    const directory = await rig.opencode.addProject("other-settings");
    const spec = pluginSpec(isOpencode2(version) ? PACKAGE_ROOT : PLUGIN_PATH);
    const config = JSON.parse(fs.readFileSync(path.join(directory, "opencode.json"), "utf8")) as Record<string, unknown>;
    const entry = isOpencode2(version) ? { plugins: [{ package: spec, options: { language: "zh" } }] } : { plugin: [[spec, { language: "zh" }]] };
    fs.writeFileSync(path.join(directory, "opencode.json"), JSON.stringify({ ...config, ...entry }));
    const session = await rig.opencode.createSession({ directory });
    await rig.opencode.prompt(session.id, directive({ tool: "question", args: { questions: [{ ...color, question: "Which? [second-project]" }] } }), {
      directory,
    });
    await rig.opencode.waitForQuestion({ directory, timeoutMs: 30_000 });
    const refusal = await pollUntil(
      () =>
        fs
          .readFileSync(rig.logFile, "utf8")
          .split("\n")
          .find((line) => line.includes("Hermes is off here")),
      {
        what: "the refusal in the log",
        timeoutMs: 20_000,
      },
    );
    expect(refusal).toContain("(language differ)");
    // The question is pending in OpenCode; give a wrongly joined bridge time to send it.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(rig.telegram.messages().filter((m) => m.text.includes("second-project"))).toEqual([]);
  });
});
