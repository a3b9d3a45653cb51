// The HTTP transport of attach mode (lib/opencode/http-transport.ts) against a loopback server
// that records what it receives, and OpencodeApi on top of it.
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { authHeaders, fillRoute, httpTransport, serverAuthFrom, serverUrl } from "../../lib/opencode/http-transport.ts";
import { listenLoopback, readBody, sendJson, type LoopbackServer } from "../support/loopback-server.ts";

interface Seen {
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
}

const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function recordingServer(
  answer: (seen: Seen) => { status: number; body?: unknown; type?: string; hang?: boolean } = () => ({ status: 200, body: true }),
) {
  const seen: Seen[] = [];
  const server = await listenLoopback(async (req, res) => {
    const entry: Seen = {
      method: req.method ?? "",
      url: new URL(req.url ?? "/", "http://x"),
      headers: req.headers,
      body: (await readBody(req)).toString("utf8"),
    };
    seen.push(entry);
    const reply = answer(entry);
    if (reply.hang) return;
    if (reply.type) {
      res.writeHead(reply.status, { "content-type": reply.type }).end(String(reply.body ?? ""));
      return;
    }
    if (reply.body === undefined) res.writeHead(reply.status).end();
    else sendJson(res, reply.status, reply.body);
  });
  servers.push(server);
  return { server, seen };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe("serverAuthFrom", () => {
  it("uses OPENCODE_SERVER_PASSWORD with the user opencode unless OPENCODE_SERVER_USERNAME says otherwise", () => {
    expect(serverAuthFrom({})).toBeUndefined();
    expect(serverAuthFrom({ OPENCODE_SERVER_USERNAME: "bob" })).toBeUndefined();
    expect(serverAuthFrom({ OPENCODE_SERVER_PASSWORD: "pw" })).toEqual({ username: "opencode", password: "pw" });
    expect(serverAuthFrom({ OPENCODE_SERVER_PASSWORD: "pw", OPENCODE_SERVER_USERNAME: "bob" })).toEqual({ username: "bob", password: "pw" });
  });

  it("lets flags win over the environment", () => {
    const env = { OPENCODE_SERVER_PASSWORD: "pw", OPENCODE_SERVER_USERNAME: "bob" };
    expect(serverAuthFrom(env, { password: "flag" })).toEqual({ username: "bob", password: "flag" });
    expect(serverAuthFrom(env, { username: "amy" })).toEqual({ username: "amy", password: "pw" });
    expect(serverAuthFrom({}, { password: "p:w é" })).toEqual({ username: "opencode", password: "p:w é" });
  });

  it("encodes Basic credentials as UTF-8", () => {
    expect(authHeaders(undefined)).toEqual({});
    expect(authHeaders({ username: "opencode", password: "p:w é" })).toEqual({ authorization: basic("opencode", "p:w é") });
  });
});

describe("serverUrl and fillRoute", () => {
  it("keeps a base path prefix, merges the route's query, and encodes the directory", () => {
    expect(serverUrl("http://127.0.0.1:4096", "/question").href).toBe("http://127.0.0.1:4096/question");
    expect(serverUrl("http://h:1/oc/", "/question", { directory: "/home/a b/ü" }).href).toBe("http://h:1/oc/question?directory=%2Fhome%2Fa+b%2F%C3%BC");
    expect(serverUrl("http://h:1/?x=1#f", "/session?start=5&limit=2", { directory: "/d" }).href).toBe("http://h:1/session?start=5&limit=2&directory=%2Fd");
  });

  it("fills {placeholders} URL-encoded, and refuses a missing one", () => {
    expect(fillRoute("/question/{requestID}/reply", { requestID: "que_1" })).toBe("/question/que_1/reply");
    expect(fillRoute("/question/{requestID}/reply", { requestID: "a/b c?" })).toBe("/question/a%2Fb%20c%3F/reply");
    expect(fillRoute("/question")).toBe("/question");
    expect(() => fillRoute("/session/{sessionID}", {})).toThrow("no value for {sessionID} in /session/{sessionID}");
  });
});

describe("httpTransport", () => {
  it("names the directory, sends Basic auth, substitutes the path and posts JSON", async () => {
    const { server, seen } = await recordingServer(() => ({ status: 200, body: true }));
    const transport = httpTransport({ baseUrl: server.origin, directory: "/home/dev/my project", auth: { username: "opencode", password: "s3cret" } });
    const result = await transport.request("POST", "/question/{requestID}/reply", { path: { requestID: "que_1" }, body: { answers: [["Red"]] } });
    expect(result).toEqual({ status: 200, data: true });
    const [call] = seen;
    expect(call!.method).toBe("POST");
    expect(call!.url.pathname).toBe("/question/que_1/reply");
    expect(call!.url.searchParams.get("directory")).toBe("/home/dev/my project");
    expect(call!.headers.authorization).toBe(basic("opencode", "s3cret"));
    expect(call!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(call!.body)).toEqual({ answers: [["Red"]] });
  });

  it("sends no auth header without credentials, no body and no content type for a GET", async () => {
    const { server, seen } = await recordingServer(() => ({ status: 200, body: [] }));
    const transport = httpTransport({ baseUrl: server.origin, directory: "/d" });
    await expect(transport.request("GET", "/question")).resolves.toEqual({ status: 200, data: [] });
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect(seen[0]!.headers["content-type"]).toBeUndefined();
    expect(seen[0]!.body).toBe("");
  });

  it("maps status and body: JSON, empty (204), plain text, broken JSON", async () => {
    const answers = [
      { status: 404, body: { name: "NotFoundError", data: { message: "gone" } } },
      { status: 204 },
      { status: 401, type: "text/plain", body: "Unauthorized" },
      { status: 200, type: "application/json", body: "{broken" },
    ];
    let i = 0;
    const { server } = await recordingServer(() => answers[i++]!);
    const transport = httpTransport({ baseUrl: server.origin });
    expect(await transport.request("GET", "/a")).toEqual({ status: 404, data: { name: "NotFoundError", data: { message: "gone" } } });
    expect(await transport.request("POST", "/b")).toEqual({ status: 204, data: undefined });
    expect(await transport.request("GET", "/c")).toEqual({ status: 401, data: "Unauthorized" });
    expect(await transport.request("GET", "/d")).toEqual({ status: 200, data: "{broken" });
  });

  it("honours the caller's signal, and has a timeout of its own without one", async () => {
    const { server } = await recordingServer(() => ({ status: 200, hang: true }));
    const transport = httpTransport({ baseUrl: server.origin, directory: "/d", timeoutMs: 150 });
    let started = Date.now();
    await expect(transport.request("GET", "/question", { signal: AbortSignal.timeout(100) })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    started = Date.now();
    await expect(transport.request("GET", "/question")).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("throws on a refused connection (OpencodeApi retries those)", async () => {
    const { server } = await recordingServer();
    await server.close();
    await expect(httpTransport({ baseUrl: server.origin }).request("GET", "/question")).rejects.toThrow();
  });

  it("carries OpencodeApi: replies, 404 as gone, listing", async () => {
    const pending = [{ id: "que_1", sessionID: "ses_1", questions: [{ question: "Q?", header: "H", options: [{ label: "A", description: "" }] }] }];
    const { server, seen } = await recordingServer((call) => {
      if (call.url.pathname === "/question") return { status: 200, body: pending };
      if (call.url.pathname === "/question/que_1/reply") return { status: 200, body: true };
      return { status: 404, body: { name: "QuestionNotFoundError" } };
    });
    const api = new OpencodeApi(httpTransport({ baseUrl: server.origin, directory: "/d", auth: { username: "u", password: "p" } }), {
      retries: 0,
      minTimeout: 1,
      maxTimeout: 1,
    });
    expect((await api.listQuestions()).map((q) => q.id)).toEqual(["que_1"]);
    expect(await api.replyQuestion("que_1", [["A"]])).toEqual({ ok: true });
    expect(await api.rejectQuestion("que_2")).toEqual({ ok: false, gone: true });
    expect(await api.replyPermission("per_1", { reply: "once" })).toEqual({ ok: false, gone: true });
    expect(seen.map((s) => `${s.method} ${s.url.pathname}`)).toEqual([
      "GET /question",
      "POST /question/que_1/reply",
      "POST /question/que_2/reject",
      "POST /permission/per_1/reply",
    ]);
    expect(seen.every((s) => s.url.searchParams.get("directory") === "/d" && s.headers.authorization === basic("u", "p"))).toBe(true);
  });
});

describe("OpencodeApi over HTTP", () => {
  it("a list that is not answered 200 is an error, so it never reads as 'nothing pending'", async () => {
    const { server } = await recordingServer(() => ({ status: 500, body: { name: "boom" } }));
    const transport = httpTransport({ baseUrl: server.origin, directory: "/d" });
    await expect(transport.request("POST", "/question/{requestID}/reject", { path: { requestID: "q" } })).resolves.toMatchObject({ status: 500 });
    await expect(new OpencodeApi(transport).listQuestions()).rejects.toThrow("OpenCode answered 500 to GET /question");
  });
});
