// The desk's controls as OpenCode itself has them, measured on the real binaries with no Hermes
// loaded (issue 53, docs/compatibility.md): the shell route (1.x `POST /session/:id/shell {agent,
// command}`, 2.0.15 `POST /api/session/:id/shell {command}`), the MCP servers (1.x `GET /mcp`,
// `POST /mcp/:name/connect|disconnect`; 2.0.15 `GET /api/mcp`, `POST
// /api/experimental/mcp/:server/connect|disconnect`) with a tiny stdio server and a broken one
// (tests/fixtures/mcp/tiny-server.mjs), and 2.0.15's inbox of prompts sent to a busy session. When
// an OpenCode upgrade changes one of these facts, this file names it.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { REPO_ROOT } from "../support/opencode/binary.ts";
import { isOpencode2, OPENCODE2_VERSION, OPENCODE_VERSIONS, startOpencode, type OpencodeServer, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil, sleep } from "../support/wait.ts";

const TINY = path.join(REPO_ROOT, "tests", "fixtures", "mcp", "tiny-server.mjs");

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("OpenCode %s: shell, MCP and inbox routes", { timeout: 180_000 }, (version) => {
  const v2 = isOpencode2(version);
  let llm: MockLlm;
  let oc: OpencodeServer;
  const where = () => `location%5Bdirectory%5D=${encodeURIComponent(oc.directory)}`;
  const call = (method: string, route: string, body?: unknown) =>
    oc.request(method, v2 ? `${route}${route.includes("?") ? "&" : "?"}${where()}` : route, { ...(body !== undefined ? { body } : {}), timeoutMs: 60_000 });
  const shell = (sessionID: string, command: string) =>
    v2 ? call("POST", `/api/session/${sessionID}/shell`, { command }) : call("POST", `/session/${sessionID}/shell`, { agent: "build", command });
  /** `{ name: status }` (and `name.error`) as each version lists them. */
  async function servers(): Promise<Record<string, { status: string; error?: string }>> {
    const answer = await call("GET", v2 ? "/api/mcp" : "/mcp");
    expect(answer.status).toBe(200);
    if (!v2) return answer.body;
    return Object.fromEntries((answer.body.data as any[]).map((entry) => [entry.name, entry.status]));
  }
  const toggle = (name: string, action: "connect" | "disconnect") => call("POST", v2 ? `/api/experimental/mcp/${name}/${action}` : `/mcp/${name}/${action}`);
  async function messages(sessionID: string): Promise<any[]> {
    const answer = v2 ? await call("GET", `/api/session/${sessionID}/message?limit=50`) : await call("GET", `/session/${sessionID}/message`);
    return v2 ? answer.body.data : answer.body;
  }

  beforeAll(async () => {
    llm = await startMockLlm();
    const mcp = { tiny: { type: "local", command: ["node", TINY] }, broken: { type: "local", command: ["node", TINY, "--fail"] } };
    oc = await startOpencode({
      version,
      llmBaseURL: llm.baseURL,
      plugins: [],
      // bash asks: the shell route must not (it asks nothing at all).
      permission: { edit: "allow", bash: "ask", shell: "ask" },
      extraConfig: { mcp },
      warmup: false,
      ...(v2 ? { password: "x" } : {}),
    });
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.email=t@e.com", "-c", "user.name=T", ...args], { cwd: oc.directory, stdio: "ignore" });
    git("init", "-q");
    for (const message of ["one", "two", "three"]) git("commit", "-q", "--allow-empty", "-m", message);
  }, 120_000);
  afterAll(async () => {
    await oc?.stop();
    await llm?.close();
  });

  it("MCP: a working server is connected, a broken one failed with its error; disconnect reads disabled, connect connected again; an unknown name", async () => {
    const listed = await pollUntil(
      async () => {
        const list = await servers();
        return list.tiny?.status === "connected" && list.broken?.status === "failed" ? list : undefined;
      },
      { timeoutMs: 30_000, what: "both servers started" },
    );
    expect(listed.broken?.error).toBe(v2 ? "Connection closed" : "MCP error -32000: Connection closed");

    const off = await toggle("tiny", "disconnect");
    expect(off.status).toBe(v2 ? 204 : 200);
    if (!v2) expect(off.body).toBe(true);
    expect((await servers()).tiny).toEqual({ status: "disabled" });
    const on = await toggle("tiny", "connect");
    expect(on.status).toBe(v2 ? 204 : 200);
    expect((await servers()).tiny).toEqual({ status: "connected" });

    // Connecting the broken one is answered as a success, and it stays failed.
    expect((await toggle("broken", "connect")).status).toBe(v2 ? 204 : 200);
    expect((await servers()).broken?.status).toBe("failed");

    // A name the config does not have: 404 on 1.18.33 and 2.0.15, `true` on 1.1.53.
    const unknown = await toggle("nosuch", "connect");
    if (version === "1.1.53") expect([unknown.status, unknown.body]).toEqual([200, true]);
    else expect([unknown.status, unknown.body?._tag]).toEqual([404, "McpServerNotFoundError"]);
  });

  it("the shell route answers when the command ends, records the call in the history, asks no permission; only 2.0.15 records the exit status", async () => {
    const session = await oc.createSession();
    const answer = await shell(session.id, "git log --oneline -n 3");
    expect(answer.status).toBe(v2 ? 204 : 200);
    expect(await oc.pendingPermissions()).toEqual([]);
    const failed = await shell(session.id, "echo hi; exit 3");
    expect(failed.status).toBe(v2 ? 204 : 200);
    const history = await messages(session.id);
    if (v2) {
      // Newest first: `{ type: "shell", command, status: "exited", exit, output: { output, truncated } }`.
      const calls = history.filter((message) => message.type === "shell");
      expect(calls.map((call) => [call.command, call.status, call.exit])).toEqual([
        ["echo hi; exit 3", "exited", 3],
        ["git log --oneline -n 3", "exited", 0],
      ]);
      expect(calls[1].output.output).toMatch(/^\w+ three\n\w+ two\n\w+ one\n$/);
    } else {
      // The answer is the assistant message: one `bash` tool part with the whole output and no exit status.
      const part = answer.body.parts.find((p: any) => p.type === "tool");
      expect(part).toMatchObject({ tool: "bash", state: { status: "completed", input: { command: "git log --oneline -n 3" } } });
      expect(part.state.output).toMatch(/^\w+ three\n\w+ two\n\w+ one\n$/);
      expect(JSON.stringify(part.state.metadata)).not.toMatch(/exit/);
      expect(failed.body.parts.find((p: any) => p.type === "tool").state).toMatchObject({ status: "completed", output: "hi\n" });
      // The history: a synthetic user message, then that assistant message, per call.
      expect(history.map((message) => message.info.role)).toEqual(["user", "assistant", "user", "assistant"]);
      expect(history[0].parts[0]).toMatchObject({ type: "text", synthetic: true, text: "The following tool was executed by the user" });
      // `agent` is required.
      expect((await call("POST", `/session/${session.id}/shell`, { command: "echo x" })).status).toBe(400);
    }
  });

  it.skipIf(v2)(
    '1.x runs the command as `eval "<command as a JSON string>"` in bash: `$` expands before eval and a newline becomes `\\n` (one line); the status trailer Hermes adds survives it',
    async () => {
      const session = await oc.createSession();
      const output = async (command: string) => (await shell(session.id, command)).body.parts.find((p: any) => p.type === "tool").state.output as string;
      // `$?` is expanded once before the command runs (always 0); a newline reaches bash as `\n`, so two lines run as one.
      expect(await output('false; echo "[exit $?]"')).toBe("[exit 0]\n");
      expect(await output("echo one\necho two")).toBe("onenecho two\n");
      // The trailer (lib/opencode/desk.ts): the `$` is made by a command substitution, so `$?` is read after the command.
      expect(await output(`(echo hi; exit 3); echo "[exit $(printf %s '$')?]"`)).toBe("hi\n[exit 3]\n");
      expect(await output(`(grep -q nothing /dev/null); echo "[exit $(printf %s '$')?]"`)).toBe("[exit 1]\n");
    },
  );

  it("20,000 lines of output: recorded whole", async () => {
    const session = await oc.createSession();
    const answer = await shell(session.id, "seq 1 20000");
    const output: string = v2
      ? (await messages(session.id)).find((message) => message.type === "shell").output.output
      : answer.body.parts.find((p: any) => p.type === "tool").state.output;
    expect(output.length).toBe(108_894);
    expect(output.endsWith("19999\n20000\n")).toBe(true);
  });

  it("while the session works: refused on 1.x (409 on 1.18.33, 500 on 1.1.53); 2.0.15 runs it and steers its result into the run, beside a prompt sent meanwhile", async () => {
    const session = await oc.createSession();
    const sleeper = v2 ? { tool: "shell", args: { command: "sleep 6" } } : { tool: "bash", args: { command: "sleep 6", description: "wait" } };
    // The run's own command needs a permission here (bash asks): answer it as the terminal does.
    await oc.prompt(session.id, directive({ ...sleeper, then: [{ text: "slept" }] }));
    const asked = await pollUntil(async () => (await oc.pendingPermissions())[0], { timeoutMs: 30_000, what: "the run's permission" });
    await oc.answerPermission(asked, "once");
    await pollUntil(() => oc.isBusy(session.id), { timeoutMs: 10_000, what: "busy" });
    await sleep(500);
    const answer = await shell(session.id, "echo while-busy");
    if (!v2) {
      expect(answer.status).toBe(version === "1.1.53" ? 500 : 409);
      expect(JSON.stringify(answer.body)).toMatch(/busy/i);
    } else {
      expect(answer.status).toBe(204);
      await oc.prompt(session.id, directive({ text: "queued one" }));
      const inbox = (await call("GET", `/api/session/${session.id}/inbox`)).body.data as any[];
      expect(inbox.map((entry) => [entry.type, entry.delivery, entry.payload.metadata?.exit])).toEqual([
        ["synthetic", "steer", 0],
        ["user", "steer", undefined],
      ]);
      expect(inbox[0].payload.text).toContain('command="echo while-busy"');
      // DELETE takes one back: the model never receives it.
      expect((await call("DELETE", `/api/session/${session.id}/inbox/${inbox[1].id}`)).status).toBe(204);
      expect(((await call("GET", `/api/session/${session.id}/inbox`)).body.data as any[]).map((entry) => entry.type)).toEqual(["synthetic"]);
    }
    await pollUntil(async () => !(await oc.isBusy(session.id)), { timeoutMs: 60_000, intervalMs: 200, what: "idle" });
    if (v2) {
      await sleep(500);
      expect(llm.userMessages().some((text) => text.includes("queued one"))).toBe(false);
      expect(JSON.stringify(llm.requests.at(-1))).toContain("while-busy");
    }
  });

  it.skipIf(!v2)(
    '2.0.15: a prompt sent with delivery "queue" waits in the inbox past the run\'s next step, and each goes as a turn of its own when the run ends; after an interrupt they stay in the inbox, undelivered',
    async () => {
      const session = await oc.createSession();
      const run = async (seconds: number, tag: string) => {
        await oc.prompt(session.id, directive({ tool: "shell", args: { command: `sleep ${seconds}` }, then: [{ text: `slept ${tag}` }] }));
        const asked = await pollUntil(async () => (await oc.pendingPermissions())[0], { timeoutMs: 30_000, what: "the run's permission" });
        await oc.answerPermission(asked, "once");
        await pollUntil(() => oc.isBusy(session.id), { timeoutMs: 10_000, what: "busy" });
        await sleep(500);
      };
      const queued = (text: string) => call("POST", `/api/session/${session.id}/prompt`, { text, delivery: "queue" });
      const inbox = async () => ((await call("GET", `/api/session/${session.id}/inbox`)).body.data as any[]).map((e) => [e.type, e.delivery, e.payload?.text]);
      const lastUser = (request: any) => (request.messages as any[]).filter((m) => m.role === "user").at(-1)?.content;
      await run(4, "one");
      const before = llm.requests.length;
      const alpha = await queued("qd-alpha");
      expect(alpha.status).toBe(200);
      expect(alpha.body.data).toMatchObject({ type: "user", delivery: "queue" });
      await queued("qd-beta");
      expect(await inbox()).toEqual([
        ["user", "queue", "qd-alpha"],
        ["user", "queue", "qd-beta"],
      ]);
      await pollUntil(async () => !(await oc.isBusy(session.id)) && llm.requests.length >= before + 3, {
        timeoutMs: 60_000,
        intervalMs: 200,
        what: "the run and both turns",
      });
      await pollUntil(async () => !(await oc.isBusy(session.id)), { timeoutMs: 60_000, intervalMs: 200, what: "idle" });
      const seen = llm.requests.slice(before);
      // The shell's result went to the model without them; then one turn each, in order.
      expect(JSON.stringify(seen[0])).not.toContain("qd-alpha");
      expect(seen.map(lastUser).slice(1, 3)).toEqual(["qd-alpha", "qd-beta"]);
      expect(await inbox()).toEqual([]);

      await run(20, "two");
      await queued("qd-gamma");
      await queued("qd-delta");
      const interrupted = await call("POST", `/api/session/${session.id}/interrupt`);
      expect(interrupted.body).toEqual({ interrupted: true });
      await pollUntil(async () => !(await oc.isBusy(session.id)), { timeoutMs: 30_000, intervalMs: 200, what: "idle after the interrupt" });
      await sleep(3_000);
      expect(await inbox()).toEqual([
        ["user", "queue", "qd-gamma"],
        ["user", "queue", "qd-delta"],
      ]);
      expect(llm.userMessages().some((text) => text.includes("qd-gamma"))).toBe(false);
      for (const entry of (await call("GET", `/api/session/${session.id}/inbox`)).body.data as any[])
        expect((await call("DELETE", `/api/session/${session.id}/inbox/${entry.id}`)).status).toBe(204);
    },
  );

  it.skipIf(v2)(
    "1.x: a prompt sent to a busy session is stored in its history (at once on 1.18.33) and reaches the model with the current tool's result",
    async () => {
      const session = await oc.createSession();
      await oc.prompt(session.id, directive({ tool: "bash", args: { command: "sleep 4", description: "wait" }, then: [{ text: "slept" }] }));
      const asked = await pollUntil(async () => (await oc.pendingPermissions())[0], { timeoutMs: 30_000, what: "the run's permission" });
      await oc.answerPermission(asked, "once");
      await pollUntil(() => oc.isBusy(session.id), { timeoutMs: 10_000, what: "busy" });
      const requests = llm.requests.length;
      await oc.prompt(session.id, "queued while busy");
      const stored = async () => (await messages(session.id)).some((m) => m.info.role === "user" && JSON.stringify(m.parts).includes("queued while busy"));
      // Stored at once on 1.18.33; 1.1.53's prompt_async answers before it stores the message.
      if (version === "1.18.33") expect(await stored()).toBe(true);
      else await pollUntil(stored, { timeoutMs: 10_000, what: "stored" });
      // The next request to the model (the sleep's result) already carries it: it can no longer be taken back.
      await pollUntil(() => llm.requests.length > requests || undefined, { timeoutMs: 30_000, what: "the next request" });
      expect(JSON.stringify(llm.requests[requests])).toContain("queued while busy");
      await pollUntil(async () => !(await oc.isBusy(session.id)), { timeoutMs: 60_000, intervalMs: 200, what: "idle" });
    },
  );

  it("a running shell command: 1.x's session abort kills it (the route answers at once); 2.0.15's interrupt does not, DELETE /api/shell/:id does", async () => {
    const session = await oc.createSession();
    const marker = path.join(oc.directory, `slept-${version}`);
    const started = Date.now();
    const running = shell(session.id, `sleep 6; touch ${marker}`);
    await sleep(1_500);
    if (v2) {
      // Listed once it runs (it may take seconds to start), with its session; interrupt leaves it; DELETE kills it.
      const listed = await pollUntil(
        async () => ((await call("GET", "/api/shell")).body.data as any[]).find((entry) => entry.metadata?.sessionID === session.id),
        { timeoutMs: 30_000, intervalMs: 100, what: "the running shell" },
      );
      expect(listed).toMatchObject({ status: "running", command: `sleep 6; touch ${marker}` });
      expect((await call("POST", `/api/session/${session.id}/interrupt`, {})).body).toEqual({ interrupted: false });
      expect((await call("DELETE", `/api/shell/${listed.id}`)).status).toBe(204);
      expect((await running).status).toBe(204);
      await sleep(6_000);
      expect(fs.existsSync(marker)).toBe(false);
      const call2 = (await messages(session.id)).find((message) => message.type === "shell");
      expect([call2.status, call2.exit, call2.output.output]).toEqual(["killed", undefined, "Shell command output is no longer available."]);
    } else {
      expect((await call("POST", `/session/${session.id}/abort`)).status).toBe(200);
      const answer = await running;
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(answer.body.parts.find((p: any) => p.type === "tool").state.output).toContain("User aborted the command");
      await sleep(6_000);
      expect(fs.existsSync(marker)).toBe(false);
    }
  });
});
