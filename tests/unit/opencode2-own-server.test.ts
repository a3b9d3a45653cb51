import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { findOwnServer, serviceFile, type ProcessFacts } from "../../lib/opencode2/own-server.ts";
import { Opencode2Endpoint } from "../../lib/opencode2/endpoint.ts";
import { OwnServerClient } from "../../lib/opencode2/server-client.ts";

const facts = (overrides: Partial<ProcessFacts> = {}): ProcessFacts => ({
  argv: ["bun", "/$bunfs/root/opencode", "serve", "--hostname", "127.0.0.1", "--port", "4096"],
  env: { OPENCODE_SERVER_PASSWORD: "pw" },
  pid: 100,
  home: "/home/u",
  readFile: () => undefined,
  ...overrides,
});

describe("where OpenCode 2 runs this plugin", () => {
  it("serve --port with OPENCODE_SERVER_PASSWORD: that address, Basic auth as user opencode", () => {
    expect(findOwnServer(facts())).toEqual({
      ok: true,
      server: { url: "http://127.0.0.1:4096", auth: { username: "opencode", password: "pw" }, source: "serve --port" },
    });
  });

  it("--port=N and --hostname=H forms; a wildcard address is reached on loopback; OPENCODE_SERVER_USERNAME is honoured", () => {
    const found = findOwnServer(
      facts({ argv: ["bun", "x", "serve", "--port=5000", "--hostname=0.0.0.0"], env: { OPENCODE_SERVER_PASSWORD: "pw", OPENCODE_SERVER_USERNAME: "me" } }),
    );
    expect(found).toEqual({ ok: true, server: { url: "http://127.0.0.1:5000", auth: { username: "me", password: "pw" }, source: "serve --port" } });
    expect(findOwnServer(facts({ argv: ["bun", "x", "serve", "--port", "5000", "--hostname", "::1"] }))).toMatchObject({
      ok: true,
      server: { url: "http://[::1]:5000" },
    });
  });

  it("says why not when the password was made up and only printed, the port is unknown, or there is no server", () => {
    expect(findOwnServer(facts({ env: {} }))).toEqual({ ok: false, reason: expect.stringContaining("OPENCODE_SERVER_PASSWORD") });
    expect(findOwnServer(facts({ argv: ["bun", "x", "serve"] }))).toEqual({ ok: false, reason: expect.stringContaining("--port") });
    expect(findOwnServer(facts({ argv: ["bun", "x", "serve", "--stdio"] }))).toEqual({ ok: false, reason: expect.stringContaining("--stdio") });
    expect(findOwnServer(facts({ argv: ["bun", "x", "--standalone"] }))).toEqual({ ok: false, reason: expect.stringContaining("not `serve`") });
    expect(findOwnServer(facts({ argv: ["bun", "x", "serve", "--port", "99999"] }))).toMatchObject({ ok: false });
  });

  it("the background service: service.json under XDG_STATE_HOME, used only when its pid is this process", () => {
    const files: Record<string, string> = { "/state/opencode/service.json": JSON.stringify({ url: "http://127.0.0.1:49374/", pid: 100, password: "svc" }) };
    const readFile = (file: string) => files[file];
    const service = facts({ argv: ["bun", "x", "serve", "--service"], env: { XDG_STATE_HOME: "/state" }, readFile });
    expect(findOwnServer(service)).toEqual({
      ok: true,
      server: { url: "http://127.0.0.1:49374", auth: { username: "opencode", password: "svc" }, source: "service.json" },
    });
    expect(findOwnServer({ ...service, pid: 101 })).toMatchObject({ ok: false });
    expect(serviceFile({}, "/home/u")).toBe("/home/u/.local/state/opencode/service.json");
    expect(findOwnServer({ ...service, readFile: () => "{not json" })).toMatchObject({ ok: false });
  });
});

describe("OwnServerClient", () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A stand-in for the OpenCode 2 server: /api/info, and a form reply route answering `status`. */
  async function serve(pid: number, status: number): Promise<{ url: string; seen: Array<{ method: string; url: string; auth?: string; body: string }> }> {
    const seen: Array<{ method: string; url: string; auth?: string; body: string }> = [];
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        seen.push({ method: req.method!, url: req.url!, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}), body });
        res.setHeader("content-type", "application/json");
        if (req.url === "/api/info") return res.end(JSON.stringify({ version: "2.0.15", pid }));
        if (req.url === "/api/session" && req.method === "POST" && status === 200) return res.end(JSON.stringify({ data: { id: "ses_new", title: "t" } }));
        res.statusCode = status;
        res.end(status === 204 ? undefined : JSON.stringify({ message: "nope" }));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
  }
  const FAST = { retries: 1, minTimeout: 1, maxTimeout: 1 };

  it("checks the pid once, then sends with Basic auth; 204 is done, 404 gone, 400 an error", async () => {
    const { url, seen } = await serve(100, 204);
    const client = new OwnServerClient({
      pid: 100,
      retry: FAST,
      find: () => ({ ok: true, server: { url, auth: { username: "opencode", password: "pw" }, source: "serve --port" } }),
    });
    await expect(
      client.send("POST", "/api/session/{sessionID}/form/{formID}/reply", { sessionID: "ses 1", formID: "frm_1" }, { answer: { q0: "Red" } }),
    ).resolves.toEqual({ ok: true });
    await expect(client.send("DELETE", "/api/session/{sessionID}/form/{formID}", { sessionID: "s", formID: "f" })).resolves.toEqual({ ok: true });
    expect(seen.map((request) => `${request.method} ${request.url}`)).toEqual([
      "GET /api/info",
      "POST /api/session/ses%201/form/frm_1/reply",
      "DELETE /api/session/s/form/f",
    ]);
    expect(seen[1]).toMatchObject({ auth: `Basic ${Buffer.from("opencode:pw").toString("base64")}`, body: JSON.stringify({ answer: { q0: "Red" } }) });
  });

  it("a 404 is gone and a 4xx is not retried", async () => {
    const gone = await serve(100, 404);
    const client = new OwnServerClient({ pid: 100, retry: FAST, find: () => ({ ok: true, server: { url: gone.url, source: "serve --port" } }) });
    await expect(client.send("DELETE", "/api/session/{sessionID}/form/{formID}", { sessionID: "s", formID: "f" })).resolves.toEqual({ ok: false, gone: true });
  });

  it("refuses a server that is another process, and says why", async () => {
    const { url, seen } = await serve(999, 204);
    const client = new OwnServerClient({ pid: 100, retry: FAST, find: () => ({ ok: true, server: { url, source: "serve --port" } }) });
    await expect(client.send("POST", "/x", {})).resolves.toEqual({
      ok: false,
      gone: false,
      error: expect.stringContaining("another OpenCode process (pid 999"),
    });
    expect(seen.map((request) => request.url)).toEqual(["/api/info"]);
  });

  it("passes on why the server is unknown, and reads fail instead of looking empty", async () => {
    const client = new OwnServerClient({ pid: 100, find: () => ({ ok: false, reason: "no port" }) });
    await expect(client.send("POST", "/x", {})).resolves.toEqual({ ok: false, gone: false, error: "no port" });
    await expect(client.get("/api/form")).rejects.toThrow("no port");
  });

  it("creates a session in the endpoint's own location, tried once; a failure says why", async () => {
    const { url, seen } = await serve(100, 200);
    const client = new OwnServerClient({ pid: 100, retry: FAST, find: () => ({ ok: true, server: { url, source: "serve --port" } }) });
    const book = { forms: new Map(), permissions: new Map() };
    const host = { reply: async () => ({ ok: true }) as const, session: async () => undefined };
    const endpoint = new Opencode2Endpoint("/home/u/project", host, client, book);
    await expect(endpoint.createSession()).resolves.toEqual({ ok: true, sessionID: "ses_new" });
    expect(seen[1]).toMatchObject({ method: "POST", url: "/api/session", body: JSON.stringify({ location: { directory: "/home/u/project" } }) });
    server!.close();
    const failing = await serve(100, 500);
    const other = new OwnServerClient({ pid: 100, retry: FAST, find: () => ({ ok: true, server: { url: failing.url, source: "serve --port" } }) });
    await expect(new Opencode2Endpoint("/p", host, other, book).createSession()).resolves.toEqual({
      ok: false,
      error: "OpenCode answered 500 to POST /api/session",
    });
    expect(failing.seen.filter((request) => request.url === "/api/session")).toHaveLength(1);
  });
});
