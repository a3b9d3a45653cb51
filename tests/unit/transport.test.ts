import { describe, expect, it, vi } from "vitest";
import { pluginClientTransport, type RawPluginClient } from "../../lib/opencode/transport.ts";

type Answer = Awaited<ReturnType<RawPluginClient["get"]>>;

function fakeClient(get: Answer, post: Answer = get) {
  const raw = {
    get: vi.fn(async (_options: Record<string, unknown>) => get),
    post: vi.fn(async (_options: Record<string, unknown>) => post),
  };
  return { client: { _client: raw, session: {} }, raw };
}

const response = (status: number) => new Response(null, { status });

describe("pluginClientTransport", () => {
  it.each([
    undefined,
    null,
    5,
    "client",
    {},
    { _client: null },
    { _client: {} },
    { _client: { get: () => undefined } },
    { _client: { post: () => undefined } },
    { _client: { get: 1, post: 2 } },
  ])("returns undefined without a usable _client (%j)", (client) => {
    expect(pluginClientTransport(client)).toBeUndefined();
  });

  it("GETs with the url, path and signal, and maps status and data", async () => {
    const { client, raw } = fakeClient({ data: { title: "T" }, response: response(200) });
    const transport = pluginClientTransport(client)!;
    const signal = new AbortController().signal;
    await expect(transport.request("GET", "/session/{sessionID}", { path: { sessionID: "ses_1" }, signal })).resolves.toEqual({
      status: 200,
      data: { title: "T" },
    });
    expect(raw.get).toHaveBeenCalledTimes(1);
    expect(raw.post).not.toHaveBeenCalled();
    expect(raw.get.mock.calls[0]![0]).toEqual({ url: "/session/{sessionID}", path: { sessionID: "ses_1" }, signal });
    expect(raw.get.mock.calls[0]![0].signal).toBe(signal);
  });

  it("POSTs a JSON body with its content type", async () => {
    const { client, raw } = fakeClient({ data: true, response: response(200) });
    const transport = pluginClientTransport(client)!;
    await expect(transport.request("POST", "/question/{requestID}/reply", { path: { requestID: "que_1" }, body: { answers: [["Red"]] } })).resolves.toEqual({
      status: 200,
      data: true,
    });
    expect(raw.get).not.toHaveBeenCalled();
    expect(raw.post.mock.calls[0]![0]).toEqual({
      url: "/question/{requestID}/reply",
      path: { requestID: "que_1" },
      body: { answers: [["Red"]] },
      headers: { "Content-Type": "application/json" },
    });
  });

  it("names the instance's directory on every request, URI-encoded only when it is not ASCII", async () => {
    const { client, raw } = fakeClient({ data: true, response: response(200) });
    await pluginClientTransport(client, "/home/dev/app")!.request("GET", "/question");
    await pluginClientTransport(client, "/home/dev/projekt-é")!.request("POST", "/x", { body: {} });
    expect(raw.get.mock.calls[0]![0]).toEqual({ url: "/question", headers: { "x-opencode-directory": "/home/dev/app" } });
    expect(raw.post.mock.calls[0]![0]).toEqual({
      url: "/x",
      body: {},
      headers: { "x-opencode-directory": "%2Fhome%2Fdev%2Fprojekt-%C3%A9", "Content-Type": "application/json" },
    });
  });

  it("leaves out what was not given", async () => {
    const { client, raw } = fakeClient({ data: [], response: response(200) });
    const transport = pluginClientTransport(client)!;
    await transport.request("GET", "/question");
    await transport.request("POST", "/question/{requestID}/reject", { path: { requestID: "q" } });
    expect(raw.get.mock.calls[0]![0]).toEqual({ url: "/question" });
    expect(raw.post.mock.calls[0]![0]).toEqual({ url: "/question/{requestID}/reject", path: { requestID: "q" } });
  });

  it("sends falsy bodies that are not undefined", async () => {
    const { client, raw } = fakeClient({ data: true, response: response(200) });
    const transport = pluginClientTransport(client)!;
    await transport.request("POST", "/x", { body: null });
    await transport.request("POST", "/x", { body: 0 });
    await transport.request("POST", "/x", { body: "" });
    expect(raw.post.mock.calls.map(([options]) => options.body)).toEqual([null, 0, ""]);
    for (const [options] of raw.post.mock.calls) expect(options.headers).toEqual({ "Content-Type": "application/json" });
  });

  it("returns the error body instead of data on failure", async () => {
    const { client } = fakeClient({ error: { name: "NotFoundError", data: { message: "no such question" } }, response: response(404) });
    await expect(pluginClientTransport(client)!.request("POST", "/question/{requestID}/reply", { path: { requestID: "q" }, body: {} })).resolves.toEqual({
      status: 404,
      data: { name: "NotFoundError", data: { message: "no such question" } },
    });
  });

  it("prefers the error over data when both are present", async () => {
    const { client } = fakeClient({ data: "data", error: "error", response: response(400) });
    await expect(pluginClientTransport(client)!.request("GET", "/x")).resolves.toEqual({ status: 400, data: "error" });
  });

  it("reports status 0 when there is no response", async () => {
    const { client } = fakeClient({ error: new Error("fetch failed") });
    const result = await pluginClientTransport(client)!.request("GET", "/x");
    expect(result.status).toBe(0);
    expect(result.data).toBeInstanceOf(Error);
  });

  it("passes 5xx statuses through", async () => {
    const { client } = fakeClient({ error: "Internal Server Error", response: response(503) });
    await expect(pluginClientTransport(client)!.request("GET", "/x")).resolves.toEqual({ status: 503, data: "Internal Server Error" });
  });

  it("calls the client's methods with the client as `this`", async () => {
    class Client {
      base = "http://opencode";
      calls: string[] = [];
      async get(options: Record<string, unknown>) {
        this.calls.push(`GET ${this.base}${String(options.url)}`);
        return { data: 1, response: new Response(null, { status: 200 }) };
      }
      async post(options: Record<string, unknown>) {
        this.calls.push(`POST ${this.base}${String(options.url)}`);
        return { data: 2, response: new Response(null, { status: 201 }) };
      }
    }
    const raw = new Client();
    const transport = pluginClientTransport({ _client: raw })!;
    await expect(transport.request("GET", "/a")).resolves.toEqual({ status: 200, data: 1 });
    await expect(transport.request("POST", "/b")).resolves.toEqual({ status: 201, data: 2 });
    expect(raw.calls).toEqual(["GET http://opencode/a", "POST http://opencode/b"]);
  });

  it("lets a throwing client reject", async () => {
    const raw = { get: vi.fn(async () => Promise.reject(new TypeError("fetch failed"))), post: vi.fn() };
    await expect(pluginClientTransport({ _client: raw })!.request("GET", "/x")).rejects.toThrow("fetch failed");
  });
});
