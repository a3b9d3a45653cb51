// OpenCode 2 runs a plugin's setup once per location (project directory), lazily, and every
// location's event stream carries every location's events. Hermes keeps one bridge per process and
// hands each event to it once: a location first used after Hermes started, and a second location
// in the same process, both get their prompts on the phone exactly once; a location whose config
// does not load Hermes gets none.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION } from "../support/opencode.ts";
import { projectConfig, writeProject } from "../support/opencode/project-config.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe(`OpenCode ${OPENCODE2_VERSION}: several locations in one process`, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(OPENCODE2_VERSION, {}, undefined, { permission: { shell: "ask" } });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  const withMarker = (marker: string) => rig.telegram.messages().filter((m) => m.text.includes(marker));

  it("a location first used after Hermes started and the first location each get their prompts exactly once", async () => {
    const late = await rig.opencode.addProject("late-project"); // created now: its setup runs at first use
    const first = await askOnPhone(rig, [color], "loc-first");
    const second = await askOnPhone(rig, [color], "loc-late", late);
    expect(second.message.text).toContain("<code>late-project</code>");
    expect(first.message.text).toContain(`<code>${path.basename(rig.opencode.directory)}</code>`);

    const session = await rig.opencode.createSession({ directory: late });
    await rig.opencode.prompt(session.id, directive({ tool: "shell", args: { command: "echo late-permission" } }), { directory: late });
    const permission = await rig.telegram.waitForMessage((m) => m.text.includes("echo late-permission") && rig.telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "permission of the late location",
    });

    await rig.telegram.tapButton(second.message, "Blue");
    await rig.telegram.tapButton(first.message, "Red");
    await rig.telegram.tapButton(permission, "Allow once");
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("loc-late"), { what: "late answer" })).content).toContain("Blue");
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("loc-first"), { what: "first answer" })).content).toContain("Red");
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("late-permission"), { what: "shell output" })).content.trim()).toBe("late-permission");

    await sleep(1_000); // a duplicate delivered by the other location's stream would have arrived by now
    expect(withMarker("[loc-first]")).toHaveLength(1);
    expect(withMarker("[loc-late]")).toHaveLength(1);
    expect(withMarker("echo late-permission")).toHaveLength(1);
    const log = fs.readFileSync(rig.logFile, "utf8");
    expect(log.match(/plugin started on OpenCode 2/g)).toHaveLength(2);
    expect(log.match(/Telegram bridge started/g)).toHaveLength(1);
  });

  it("a location whose config does not load Hermes gets nothing on the phone", async () => {
    const config = projectConfig({ llmBaseURL: rig.llm.baseURL, version: OPENCODE2_VERSION, permission: { shell: "ask" } });
    const plain = writeProject(path.join(rig.opencode.root, "plain-project"), config);
    const before = rig.telegram.messages().length;
    const session = await rig.opencode.createSession({ directory: plain });
    await rig.opencode.prompt(session.id, directive({ tool: "question", args: { questions: [{ ...color, question: "Which color? [loc-plain]" }] } }), {
      directory: plain,
    });
    const pending = await pollUntil(async () => (await rig.opencode.pendingQuestions({ directory: plain }))[0], {
      timeoutMs: 20_000,
      what: "the question pending in the plain project",
    });
    expect(pending).toBeDefined();
    await sleep(1_500);
    expect(
      rig.telegram
        .messages()
        .slice(before)
        .filter((m) => m.text.includes("[loc-plain]")),
    ).toHaveLength(0);
    expect(await rig.opencode.answerQuestion(pending, [["Red"]], { directory: plain })).toBeLessThan(300);
  });
});
