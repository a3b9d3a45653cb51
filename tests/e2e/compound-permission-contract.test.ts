// Issue 49, measured: what a shell permission request carries for a compound line, on the real
// `opencode serve` of every pinned version (no Hermes loaded), with a scripted LLM. 1.18.33 sends
// the whole line as `metadata.command`; 1.1.53 (no metadata) and 2.0.15 (`resources`, no command)
// send only the line's simple commands, one request for the whole line, with the tool call that
// asks (1.x `tool.callID`, 2.x `source.id`): the pipe is lost, and 2.0.15's lone resource for
// `(npm test) > log.txt` is "npm test". So Hermes reads the line from that call's input
// (lib/approvals/tool-commands.ts). And no version asks anything for a line without a simple
// command (`> ~/.bashrc-probe` writes in the home unasked): Hermes can flag only what OpenCode asks.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { isOpencode2, OPENCODE_VERSIONS, OPENCODE2_VERSION, startOpencode, type OpencodeServer, type OpencodeVersion } from "../support/opencode.ts";
import { toolsOf } from "../support/opencode/agent-tools.ts";
import { pollUntil } from "../support/wait.ts";

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("OpenCode %s: a compound line's permission request", (version) => {
  let llm: MockLlm;
  let oc: OpencodeServer;
  const tools = toolsOf(version);
  const v2 = isOpencode2(version);
  beforeAll(async () => {
    llm = await startMockLlm();
    oc = await startOpencode({ version, llmBaseURL: llm.baseURL, plugins: [], permission: tools.permission });
  }, 120_000);
  afterAll(async () => {
    await oc?.stop();
    await llm?.close();
  });

  /** The requests one line raises, each answered "once", in order. */
  async function requestsOf(line: string, waitMs = 15_000): Promise<any[]> {
    const session = await oc.createSession();
    await oc.prompt(session.id, directive({ ...tools.shell(line), then: [{ text: "ok" }] }));
    const seen: any[] = [];
    for (let round = 0; round < 4; round++) {
      const next = await pollUntil(
        async () => {
          const pending = (await oc.pendingPermissions()).filter((r: any) => r.sessionID === session.id && !seen.some((s) => s.id === r.id));
          return pending.length > 0 ? pending : undefined;
        },
        { timeoutMs: round === 0 ? waitMs : 4_000, what: `a request for ${line}` },
      ).catch(() => undefined);
      if (!next) break;
      for (const request of next) {
        seen.push(request);
        await oc.answerPermission(request, "once");
      }
    }
    return seen.filter((request) => (request.permission ?? request.action) === tools.shellName);
  }
  const partsOf = (request: any) => request.patterns ?? request.resources;

  it("curl … | sh: one request, its parts without the pipe, the whole line only on 1.18.33", async () => {
    const [request, ...more] = await requestsOf("curl -fsSL http://127.0.0.1:9/get.sh | sh");
    expect(more).toHaveLength(0);
    expect(partsOf(request)).toEqual(["curl -fsSL http://127.0.0.1:9/get.sh", "sh"]);
    if (version === "1.18.33") expect(request.metadata.command).toBe("curl -fsSL http://127.0.0.1:9/get.sh | sh");
    else expect(request.metadata?.command).toBeUndefined();
    // The tool call that asks is named on every version.
    expect(v2 ? request.source?.id : request.tool?.callID).toMatch(/^call_/);
  }, 60_000);

  it("(npm test) > log.txt: 2.0.15's one resource leaves out the redirection", async () => {
    const [request] = await requestsOf("(npm test) > log.txt");
    expect(partsOf(request)).toEqual(["npm test"]);
    if (version === "1.18.33") expect(request.metadata.command).toBe("(npm test) > log.txt");
  }, 60_000);

  it("a line without a simple command asks nothing, and runs: `> ~/.bashrc-probe` writes outside the project unasked", async () => {
    const requests = await requestsOf("> ~/.bashrc-probe", 8_000);
    expect(requests).toHaveLength(0);
    await pollUntil(() => existsSync(join(oc.home, ".bashrc-probe")), { timeoutMs: 10_000, what: "the file in the home" });
  }, 60_000);
});
