// OpenCode 2's background service (`opencode serve --service`, what the TUI, `run` and `api` start):
// Hermes finds its own server in $XDG_STATE_HOME/opencode/service.json (url, pid, password) and
// answers questions through it. The harness moves the service off its fixed port 49374.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPENCODE2_VERSION } from "../support/opencode.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe(`OpenCode ${OPENCODE2_VERSION} as the background service`, () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(OPENCODE2_VERSION, {}, undefined, { service: true });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("finds its server through service.json and answers a question from the phone", async () => {
    const { message } = await askOnPhone(rig, [color], "service");
    await rig.telegram.tapButton(message, "Blue");
    expect((await rig.llm.waitForToolResult((r) => r.content.includes("[service]"), { what: "answer" })).content).toContain("Blue");
    const log = fs.readFileSync(rig.logFile, "utf8");
    expect(log).toMatch(/"source":"service.json".*answers questions through this OpenCode 2 server/);
    expect(log).not.toContain("cannot answer");
  });
});
