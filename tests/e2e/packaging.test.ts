// One package for every supported OpenCode: loaded from the package folder (as `npm i` or a clone
// is configured), each version finds its entry point through package.json and bridges a question.
// 1.1.53 uses exports["."] (plugin.ts, one function), 1.18.33 prefers exports["./server"] and calls
// `server`, OpenCode 2 loads the folder's server.ts and calls `setup`.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directive } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { PACKAGE_ROOT, startRig, type Rig } from "./question-suite.ts";

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("OpenCode %s loads Hermes from the package folder", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    // The default log level: start-up lines are debug, and pino loads on the first line written.
    rig = await startRig(version, { HERMES_LOG_LEVEL: "info" }, PACKAGE_ROOT);
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("and a question asked by the agent is answered from the phone", async () => {
    const session = await rig.opencode.createSession();
    await rig.opencode.prompt(session.id, directive({ tool: "question", args: { questions: [{ ...color, question: "Which color? [pkg]" }] } }));
    const message = await rig.telegram.waitForMessage((m) => m.text.includes("[pkg]") && rig.telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "question on the phone",
    });
    await rig.telegram.tapButton(message, "Red");
    const result = await rig.llm.waitForToolResult((r) => r.content.includes("[pkg]"), { what: "tool result" });
    expect(result.content).toContain("Red");
    // Written by pino loaded on first use from the package's own dependencies, inside OpenCode's runtime.
    // "answer sent" follows OpenCode's answer to the reply, which may come after the agent went on.
    const log = await vi.waitFor(() => {
      const text = fs.readFileSync(rig.logFile, "utf8");
      expect(text).toContain('"msg":"question answer sent"');
      return text;
    });
    expect(log).toContain('"msg":"prompt asked"');
    expect(log).not.toContain(version.startsWith("2.") ? "plugin started on OpenCode 2" : "plugin instance started");
  });
});
