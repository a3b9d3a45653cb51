// The desk's OpenCode calls (issue 53) per version, on a scripted transport: 1.x's shell route with
// its status trailer and busy answers, `GET /mcp` and the toggles; 2.x's shell call read back from
// the history (and the whole output when truncated), `GET /api/mcp` and the experimental toggles.
// The routes' real answers are in tests/e2e/desk-contract.test.ts.
import { describe, expect, it, vi } from "vitest";
import { OpencodeDesk, opencodeShell, readExitTrailer, withExitTrailer } from "../../lib/opencode/desk.ts";
import type { HttpResult, OpencodeTransport } from "../../lib/opencode/transport.ts";
import { Opencode2Desk } from "../../lib/opencode2/desk.ts";
import { OwnServerClient } from "../../lib/opencode2/server-client.ts";

type Options = Parameters<OpencodeTransport["request"]>[2];

function fakeTransport(answer: (method: string, url: string, options?: Options) => HttpResult) {
  const request = vi.fn(async (method: "GET" | "POST" | "PATCH", url: string, options?: Options) => answer(method, url, options));
  return { transport: { request } satisfies OpencodeTransport, request };
}

const bashAnswer = (output: string): HttpResult => ({
  status: 200,
  data: { info: { role: "assistant" }, parts: [{ type: "tool", tool: "bash", state: { status: "completed", output, metadata: { output } } }] },
});

describe("the 1.x status trailer", () => {
  it("wraps a one-line command under bash or zsh, reads the last `[exit N]` and leaves it out", () => {
    const sent = withExitTrailer("git log --oneline -n 3", "/bin/bash");
    expect(sent).toBe(`(git log --oneline -n 3); echo "[exit $(printf %s '$')?]"`);
    expect(withExitTrailer("ls", "/usr/bin/zsh")).toBe(`(ls); echo "[exit $(printf %s '$')?]"`);
    expect(readExitTrailer(sent, "a\nb\n[exit 0]\n")).toEqual({ output: "a\nb\n", exit: 0 });
    // Output without a final newline: the trailer follows it on the same line.
    expect(readExitTrailer(sent, "no newline[exit 3]\n")).toEqual({ output: "no newline", exit: 3 });
    // A command that prints its own `[exit 9]` earlier: only the last line counts.
    expect(readExitTrailer(sent, "[exit 9]\nmore\n[exit 1]\n")).toEqual({ output: "[exit 9]\nmore\n", exit: 1 });
  });

  it("sends as typed under fish, nu or no SHELL, with a comment or a second line; no status is read then", () => {
    for (const shell of ["/usr/bin/fish", "/usr/bin/nu", undefined]) expect(withExitTrailer("ls", shell)).toBe("ls");
    expect(withExitTrailer("ls # all", "/bin/bash")).toBe("ls # all");
    expect(withExitTrailer("ls\npwd", "/bin/bash")).toBe("ls\npwd");
    expect(readExitTrailer("ls", "x\n[exit 0]\n")).toEqual({ output: "x\n[exit 0]\n" });
    // Wrapped, but the trailer never printed (the shell ran it otherwise).
    expect(readExitTrailer(withExitTrailer("ls", "/bin/bash"), "x\n")).toEqual({ output: "x\n" });
  });
});

describe("the shell 1.x runs a command with (its Shell.preferred())", () => {
  it("is SHELL when set; without SHELL, bash on PATH, else /bin/sh", () => {
    const find = (name: string, searchPath: string | undefined) => (name === "bash" && searchPath === "/opt/bin" ? "/opt/bin/bash" : undefined);
    expect(opencodeShell({ SHELL: "/usr/bin/fish", PATH: "/opt/bin" }, find)).toBe("/usr/bin/fish");
    expect(opencodeShell({ PATH: "/opt/bin" }, find)).toBe("/opt/bin/bash");
    expect(opencodeShell({ SHELL: "", PATH: "/opt/bin" }, find)).toBe("/opt/bin/bash");
    expect(opencodeShell({ PATH: "/nowhere" }, find)).toBe("/bin/sh");
  });

  it("a process started without SHELL (a service, a CI runner) still gets the status: OpenCode runs bash then", async () => {
    const { transport } = fakeTransport((method) => (method === "GET" ? { status: 200, data: [] } : bashAnswer("hi\n[exit 0]\n")));
    const desk = new OpencodeDesk(transport, { PATH: process.env.PATH });
    await expect(desk.shell("ses_1", "echo hi")).resolves.toMatchObject({ ok: true, output: "hi\n", exit: 0 });
  });
});

describe("OpencodeDesk (1.x)", () => {
  it("runs the command through the shell route with the session's last agent, once, and reads the status", async () => {
    const { transport, request } = fakeTransport((method, url) => {
      if (method === "GET") return { status: 200, data: [{ info: { role: "user", agent: "plan" } }, { info: { role: "assistant" } }] };
      expect(url).toBe("/session/{sessionID}/shell");
      return bashAnswer("c3 three\nb2 two\na1 one\n[exit 0]\n");
    });
    const desk = new OpencodeDesk(transport, { SHELL: "/bin/bash" });
    const run = await desk.shell("ses_1", "git log --oneline -n 3");
    expect(run).toEqual({
      ok: true,
      command: `(git log --oneline -n 3); echo "[exit $(printf %s '$')?]"`,
      output: "c3 three\nb2 two\na1 one\n",
      exit: 0,
    });
    const post = request.mock.calls.find(([method]) => method === "POST")!;
    expect(post[2]?.path).toEqual({ sessionID: "ses_1" });
    expect(post[2]?.body).toEqual({ agent: "plan", command: run.ok ? run.command : "" });
    expect(post[2]?.signal).toBeInstanceOf(AbortSignal);
  });

  it("names `build` when the session has no agent yet, or the caller's agent; without a trailer the status is unknown", async () => {
    const { transport, request } = fakeTransport((method) => (method === "GET" ? { status: 200, data: [] } : bashAnswer("hi\n")));
    const desk = new OpencodeDesk(transport, { SHELL: "/usr/bin/fish" });
    await expect(desk.shell("ses_1", "echo hi")).resolves.toEqual({ ok: true, command: "echo hi", output: "hi\n" });
    expect(request.mock.calls.at(-1)?.[2]?.body).toEqual({ agent: "build", command: "echo hi" });
    await desk.shell("ses_1", "echo hi", { agent: "review" });
    expect(request.mock.calls.at(-1)?.[2]?.body).toEqual({ agent: "review", command: "echo hi" });
  });

  it("a busy session is busy on 1.18.33 (409) and on 1.1.53 (500 'is busy'); 404 is gone; other errors say why; never retried", async () => {
    const answers: HttpResult[] = [
      { status: 409, data: { _tag: "SessionBusyError", message: "Session is busy: ses_1" } },
      { status: 500, data: { name: "UnknownError", data: { message: "Error: Session ses_1 is busy\n    at shell" } } },
      { status: 404, data: { name: "NotFoundError" } },
      { status: 500, data: { name: "UnknownError", data: { message: "disk full\n at x" } } },
    ];
    const { transport, request } = fakeTransport((method) => (method === "GET" ? { status: 200, data: [] } : answers.shift()!));
    const desk = new OpencodeDesk(transport, { SHELL: "/bin/bash" });
    await expect(desk.shell("ses_1", "ls")).resolves.toEqual({ ok: false, busy: true });
    await expect(desk.shell("ses_1", "ls")).resolves.toEqual({ ok: false, busy: true });
    await expect(desk.shell("ses_1", "ls")).resolves.toEqual({ ok: false, busy: false, gone: true });
    await expect(desk.shell("ses_1", "ls")).resolves.toEqual({ ok: false, busy: false, gone: false, error: "OpenCode answered 500: disk full" });
    expect(request.mock.calls.filter(([method]) => method === "POST")).toHaveLength(4);
  });

  it("lists MCP servers with their states and errors, skipping malformed entries; a list it cannot read throws", async () => {
    const { transport } = fakeTransport(() => ({
      status: 200,
      data: {
        tiny: { status: "connected" },
        broken: { status: "failed", error: "MCP error -32000: Connection closed" },
        odd: "x",
        off: { status: "disabled" },
      },
    }));
    await expect(new OpencodeDesk(transport, {}).listMcp()).resolves.toEqual([
      { name: "tiny", status: "connected" },
      { name: "broken", status: "failed", error: "MCP error -32000: Connection closed" },
      { name: "off", status: "disabled" },
    ]);
    const { transport: failing } = fakeTransport(() => ({ status: 500, data: "no" }));
    await expect(new OpencodeDesk(failing, {}).listMcp()).rejects.toThrow("500");
  });

  it("stops a running command with the session's abort", async () => {
    const { transport, request } = fakeTransport(() => ({ status: 200, data: true }));
    await expect(new OpencodeDesk(transport, {}).stopShell("ses_1")).resolves.toEqual({ ok: true });
    expect(request.mock.calls.map(([method, url, options]) => [method, url, options?.path])).toEqual([
      ["POST", "/session/{sessionID}/abort", { sessionID: "ses_1" }],
    ]);
  });

  it("connects and disconnects through OpenCode's routes", async () => {
    const { transport, request } = fakeTransport(() => ({ status: 200, data: true }));
    const desk = new OpencodeDesk(transport, {});
    await expect(desk.setMcp("tiny", false)).resolves.toEqual({ ok: true });
    await expect(desk.setMcp("tiny", true)).resolves.toEqual({ ok: true });
    expect(request.mock.calls.map(([method, url, options]) => [method, url, options?.path])).toEqual([
      ["POST", "/mcp/{name}/disconnect", { name: "tiny" }],
      ["POST", "/mcp/{name}/connect", { name: "tiny" }],
    ]);
  });
});

describe("Opencode2Desk (2.x)", () => {
  const DIR = "/tmp/project";
  function fakeServer(answer: (method: string, url: URL, body: unknown) => { status: number; body?: unknown }) {
    const seen: Array<{ method: string; url: URL; body: unknown }> = [];
    const fetchImpl = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(String(input));
      const method = init?.method ?? "GET";
      const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
      if (url.pathname === "/api/info") return Response.json({ pid: 1 });
      seen.push({ method, url, body });
      const { status, body: out } = answer(method, url, body);
      return out === undefined ? new Response(null, { status }) : Response.json(out, { status });
    });
    const client = new OwnServerClient({
      pid: 1,
      fetch: fetchImpl as typeof fetch,
      find: () => ({ ok: true, server: { url: "http://127.0.0.1:9", source: "serve --port" } }),
    });
    return { desk: new Opencode2Desk(DIR, client), seen };
  }
  const shellMessage = (command: string, exit: number, output: string, truncated = false) => ({
    type: "shell",
    shellID: "sh_1",
    command,
    status: "exited",
    exit,
    output: { output, size: output.length, truncated },
  });

  it("stops the session's running command: the location's running shells of that session are deleted; none running is gone", async () => {
    const shells = [
      { id: "sh_1", status: "running", metadata: { sessionID: "ses_1" } },
      { id: "sh_2", status: "running", metadata: { sessionID: "ses_other" } },
      { id: "sh_3", status: "exited", metadata: { sessionID: "ses_1" } },
    ];
    const { desk, seen } = fakeServer((method) => (method === "GET" ? { status: 200, body: { data: shells } } : { status: 204 }));
    await expect(desk.stopShell("ses_1")).resolves.toEqual({ ok: true });
    expect(seen.map((s) => [s.method, s.url.pathname, s.url.searchParams.get("location[directory]")])).toEqual([
      ["GET", "/api/shell", DIR],
      ["DELETE", "/api/shell/sh_1", DIR],
    ]);
    await expect(desk.stopShell("ses_none")).resolves.toEqual({ ok: false, gone: true });
  });

  it("runs the command as typed and reads its call back from the history (newest first): output and exit", async () => {
    const { desk, seen } = fakeServer((method, url) => {
      if (method === "POST") return { status: 204 };
      expect(url.pathname).toBe("/api/session/ses_1/message");
      return { status: 200, body: { data: [shellMessage("ls", 2, "older\n"), shellMessage("git log --oneline -n 3", 0, "c3 three\n")].reverse() } };
    });
    await expect(desk.shell("ses_1", "git log --oneline -n 3")).resolves.toEqual({
      ok: true,
      command: "git log --oneline -n 3",
      output: "c3 three\n",
      exit: 0,
    });
    expect(seen[0]).toMatchObject({ method: "POST", body: { command: "git log --oneline -n 3" } });
    expect(seen[0]?.url.pathname).toBe("/api/session/ses_1/shell");
    expect(seen[1]?.url.searchParams.get("location[directory]")).toBe(DIR);
  });

  it("a truncated output is read whole from /api/shell/:id/output", async () => {
    const { desk, seen } = fakeServer((method, url) => {
      if (method === "POST") return { status: 204 };
      if (url.pathname === "/api/shell/sh_1/output") return { status: 200, body: { data: { output: "1\n2\n3\n" } } };
      return { status: 200, body: { data: [shellMessage("seq 3", 0, "3\n", true)] } };
    });
    await expect(desk.shell("ses_1", "seq 3")).resolves.toEqual({ ok: true, command: "seq 3", output: "1\n2\n3\n", exit: 0 });
    expect(seen.map((s) => s.url.pathname)).toContain("/api/shell/sh_1/output");
  });

  it("404 is gone, another refusal says why, a call missing from the history is an error", async () => {
    const answers = [{ status: 404 }, { status: 400, body: { message: "bad" } }, { status: 204 }];
    const { desk } = fakeServer((method) => (method === "POST" ? answers.shift()! : { status: 200, body: { data: [] } }));
    await expect(desk.shell("ses_1", "ls")).resolves.toEqual({ ok: false, busy: false, gone: true });
    await expect(desk.shell("ses_1", "ls")).resolves.toEqual({ ok: false, busy: false, gone: false, error: "OpenCode answered 400: bad" });
    await expect(desk.shell("ses_1", "ls")).resolves.toMatchObject({ ok: false, error: expect.stringContaining("no such shell call") });
  });

  it("lists the location's MCP servers and toggles them through the experimental routes", async () => {
    const { desk, seen } = fakeServer((method) =>
      method === "GET"
        ? {
            status: 200,
            body: {
              data: [{ name: "broken", status: { status: "failed", error: "Connection closed" } }, { name: "tiny", status: { status: "connected" } }, { x: 1 }],
            },
          }
        : { status: 204 },
    );
    await expect(desk.listMcp()).resolves.toEqual([
      { name: "broken", status: "failed", error: "Connection closed" },
      { name: "tiny", status: "connected" },
    ]);
    await expect(desk.setMcp("tiny", false)).resolves.toEqual({ ok: true });
    await expect(desk.setMcp("ti ny", true)).resolves.toEqual({ ok: true });
    expect(seen.slice(1).map((s) => [s.method, s.url.pathname, s.url.searchParams.get("location[directory]")])).toEqual([
      ["POST", "/api/experimental/mcp/tiny/disconnect", DIR],
      ["POST", "/api/experimental/mcp/ti%20ny/connect", DIR],
    ]);
  });
});
