import { describe, expect, it, vi } from "vitest";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { DEFAULT_RETRY, type RetryPolicy } from "../../lib/opencode/send-outcome.ts";
import type { HttpResult, OpencodeTransport } from "../../lib/opencode/transport.ts";

const FAST: RetryPolicy = { retries: 2, minTimeout: 1, maxTimeout: 1 };

type Step = HttpResult | Error | string;
type Options = Parameters<OpencodeTransport["request"]>[2];

/** A transport that answers from a script; the last step repeats. */
function fakeTransport(...steps: Step[]) {
  const request = vi.fn(async (_method: "GET" | "POST", _url: string, _options?: Options): Promise<HttpResult> => {
    const step = steps.length > 1 ? steps.shift()! : steps[0]!;
    if (step instanceof Error || typeof step === "string") throw step;
    return step;
  });
  return { transport: { request } satisfies OpencodeTransport, request };
}

const rawQuestion = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  sessionID: "ses_1",
  questions: [{ question: "Which color?", header: "Color", options: [{ label: "Red", description: "warm" }] }],
  tool: { messageID: "msg_1", callID: "call_1" },
  ...over,
});

describe("OpencodeApi: replies", () => {
  it("posts the answers to the reply route and reports ok on 200", async () => {
    const { transport, request } = fakeTransport({ status: 200, data: true });
    const api = new OpencodeApi(transport, FAST);
    await expect(api.replyQuestion("que_1", [["Red"], ["S", "custom"]])).resolves.toEqual({ ok: true });
    expect(request).toHaveBeenCalledTimes(1);
    const [method, url, options] = request.mock.calls[0]!;
    expect(method).toBe("POST");
    expect(url).toBe("/question/{requestID}/reply");
    expect(options?.path).toEqual({ requestID: "que_1" });
    expect(options?.body).toEqual({ answers: [["Red"], ["S", "custom"]] });
    expect(options?.signal).toBeInstanceOf(AbortSignal);
    expect(options?.signal?.aborted).toBe(false);
  });

  it("posts a reject without a body", async () => {
    const { transport, request } = fakeTransport({ status: 200, data: true });
    await expect(new OpencodeApi(transport, FAST).rejectQuestion("que_9")).resolves.toEqual({ ok: true });
    const [method, url, options] = request.mock.calls[0]!;
    expect(method).toBe("POST");
    expect(url).toBe("/question/{requestID}/reject");
    expect(options?.path).toEqual({ requestID: "que_9" });
    expect(options?.body).toBeUndefined();
  });

  it.each([200, 201, 204, 299])("treats %i as ok", async (status) => {
    const { transport } = fakeTransport({ status, data: undefined });
    await expect(new OpencodeApi(transport, FAST).rejectQuestion("q")).resolves.toEqual({ ok: true });
  });

  it("reports 404 as gone, without retrying", async () => {
    const { transport, request } = fakeTransport({ status: 404, data: { name: "NotFoundError" } });
    await expect(new OpencodeApi(transport, FAST).replyQuestion("que_1", [["Red"]])).resolves.toEqual({ ok: false, gone: true });
    expect(request).toHaveBeenCalledTimes(1);
  });

  it.each([400, 401, 403, 409, 422, 499])("reports %i as an error, without retrying", async (status) => {
    const { transport, request } = fakeTransport({ status, data: { data: { message: "answers must match questions" } } });
    await expect(new OpencodeApi(transport, FAST).replyQuestion("que_1", [])).resolves.toEqual({
      ok: false,
      gone: false,
      error: `OpenCode answered ${status}: answers must match questions`,
    });
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("retries 500 then reports the error", async () => {
    const { transport, request } = fakeTransport({ status: 500, data: "Internal Server Error" });
    await expect(new OpencodeApi(transport, FAST).replyQuestion("que_1", [["Red"]])).resolves.toEqual({
      ok: false,
      gone: false,
      error: "OpenCode answered 500: Internal Server Error",
    });
    expect(request).toHaveBeenCalledTimes(3);
  });

  it("succeeds when a retry succeeds", async () => {
    const { transport, request } = fakeTransport({ status: 503, data: null }, new Error("ECONNRESET"), { status: 200, data: true });
    await expect(new OpencodeApi(transport, FAST).replyQuestion("que_1", [["Red"]])).resolves.toEqual({ ok: true });
    expect(request).toHaveBeenCalledTimes(3);
  });

  it("a 404 after a 500 is still gone", async () => {
    const { transport, request } = fakeTransport({ status: 502, data: null }, { status: 404, data: null });
    await expect(new OpencodeApi(transport, FAST).rejectQuestion("que_1")).resolves.toEqual({ ok: false, gone: true });
    expect(request).toHaveBeenCalledTimes(2);
  });

  it("retries thrown network errors then reports them", async () => {
    const { transport, request } = fakeTransport(new Error("connect ECONNREFUSED 127.0.0.1:4096"));
    await expect(new OpencodeApi(transport, FAST).replyQuestion("que_1", [["Red"]])).resolves.toEqual({
      ok: false,
      gone: false,
      error: "connect ECONNREFUSED 127.0.0.1:4096",
    });
    expect(request).toHaveBeenCalledTimes(3);
  });

  it("retries fetch's own network TypeError", async () => {
    const { transport, request } = fakeTransport(new TypeError("fetch failed"));
    await expect(new OpencodeApi(transport, FAST).rejectQuestion("que_1")).resolves.toMatchObject({ ok: false, gone: false, error: "fetch failed" });
    expect(request).toHaveBeenCalledTimes(3);
  });

  it("retries a transport that got no response (status 0)", async () => {
    const { transport, request } = fakeTransport({ status: 0, data: undefined });
    await expect(new OpencodeApi(transport, FAST).rejectQuestion("que_1")).resolves.toEqual({ ok: false, gone: false, error: "OpenCode answered 0: null" });
    expect(request).toHaveBeenCalledTimes(3);
  });

  it("never throws, even when the transport throws a non-error", async () => {
    const { transport } = fakeTransport("boom");
    const outcome = await new OpencodeApi(transport, FAST).rejectQuestion("que_1");
    expect(outcome.ok).toBe(false);
    expect(outcome.ok === false && !outcome.gone && outcome.error).toContain("boom");
  });

  it.each<[unknown, string]>([
    ["plain text", "plain text"],
    [{ data: { message: "nested" }, name: "BadRequest" }, "nested"],
    [{ message: "top" }, "top"],
    [{ name: "NotAllowed" }, "NotAllowed"],
    [{ other: 1 }, '{"other":1}'],
    [undefined, "null"],
    [null, "null"],
    [[1, 2], "[1,2]"],
    ["x".repeat(500), "x".repeat(200)],
    [{ message: "y".repeat(500) }, "y".repeat(200)],
  ])("describes the error body %j", async (data, text) => {
    const { transport } = fakeTransport({ status: 400, data });
    await expect(new OpencodeApi(transport, FAST).rejectQuestion("q")).resolves.toEqual({ ok: false, gone: false, error: `OpenCode answered 400: ${text}` });
  });

  it("has a sane default retry policy", () => {
    expect(DEFAULT_RETRY).toEqual({ retries: 4, minTimeout: 200, maxTimeout: 2_000 });
  });
});

describe("OpencodeApi: listQuestions", () => {
  it("gets /question and narrows the requests", async () => {
    const { transport, request } = fakeTransport({ status: 200, data: [rawQuestion("que_1"), rawQuestion("que_2", { sessionID: "ses_2" })] });
    const requests = await new OpencodeApi(transport, FAST).listQuestions();
    expect(request.mock.calls[0]![0]).toBe("GET");
    expect(request.mock.calls[0]![1]).toBe("/question");
    expect(request.mock.calls[0]![2]?.signal).toBeInstanceOf(AbortSignal);
    expect(requests).toEqual([
      {
        id: "que_1",
        sessionID: "ses_1",
        questions: [{ question: "Which color?", header: "Color", options: [{ label: "Red", description: "warm" }], multiple: false, custom: true }],
      },
      {
        id: "que_2",
        sessionID: "ses_2",
        questions: [{ question: "Which color?", header: "Color", options: [{ label: "Red", description: "warm" }], multiple: false, custom: true }],
      },
    ]);
  });

  it("drops malformed entries and keeps the rest", async () => {
    const { transport } = fakeTransport({
      status: 200,
      data: [
        null,
        "que_x",
        5,
        [],
        rawQuestion("que_1"),
        rawQuestion(""),
        rawQuestion("que_3", { questions: [] }),
        rawQuestion("que_4", { questions: [{ question: "?", options: [{ label: 1 }] }] }),
        { id: "que_5" },
        rawQuestion("que_6"),
      ],
    });
    const requests = await new OpencodeApi(transport, FAST).listQuestions();
    expect(requests.map((item) => item.id)).toEqual(["que_1", "que_6"]);
  });

  it.each<[string, HttpResult]>([
    ["a non-200 status", { status: 500, data: [rawQuestion("que_1")] }],
    ["a 404", { status: 404, data: [rawQuestion("que_1")] }],
    ["a non-array body", { status: 200, data: { 0: rawQuestion("que_1") } }],
    ["no body", { status: 200, data: undefined }],
  ])("throws for %s: an unreadable list must not read as 'nothing pending'", async (_name, result) => {
    const { transport, request } = fakeTransport(result);
    await expect(new OpencodeApi(transport, FAST).listQuestions()).rejects.toThrow(/GET \/question/);
    expect(request).toHaveBeenCalledTimes(1);
  });

  it("returns nothing for an empty list", async () => {
    const { transport } = fakeTransport({ status: 200, data: [] });
    await expect(new OpencodeApi(transport, FAST).listQuestions()).resolves.toEqual([]);
  });

  it("lets transport errors through for the caller to log", async () => {
    const { transport } = fakeTransport(new Error("down"));
    await expect(new OpencodeApi(transport, FAST).listQuestions()).rejects.toThrow("down");
  });
});

describe("OpencodeApi: session", () => {
  it("gets the session and returns its title and parent", async () => {
    const { transport, request } = fakeTransport({ status: 200, data: { id: "ses_1", title: "Fix the bug", parentID: "ses_0", directory: "/p" } });
    await expect(new OpencodeApi(transport, FAST).session("ses_1")).resolves.toEqual({ id: "ses_1", title: "Fix the bug", parentID: "ses_0", directory: "/p" });
    const [method, url, options] = request.mock.calls[0]!;
    expect(method).toBe("GET");
    expect(url).toBe("/session/{sessionID}");
    expect(options?.path).toEqual({ sessionID: "ses_1" });
    expect(options?.signal).toBeInstanceOf(AbortSignal);
  });

  it.each<[string, HttpResult]>([
    ["a 404", { status: 404, data: { id: "ses_1", title: "error page" } }],
    ["a 500", { status: 500, data: { id: "ses_1", title: "x" } }],
    ["no id", { status: 200, data: { title: "x" } }],
    ["no body", { status: 200, data: undefined }],
    ["a null body", { status: 200, data: null }],
    ["a string body", { status: 200, data: "title" }],
  ])("returns undefined for %s", async (_name, result) => {
    const { transport } = fakeTransport(result);
    await expect(new OpencodeApi(transport, FAST).session("ses_1")).resolves.toBeUndefined();
  });

  it("drops a title that is not a string", async () => {
    const { transport } = fakeTransport({ status: 200, data: { id: "ses_1", title: 5 } });
    await expect(new OpencodeApi(transport, FAST).session("ses_1")).resolves.toEqual({ id: "ses_1" });
  });

  it("lets transport errors through for the caller to ignore", async () => {
    const { transport, request } = fakeTransport(new Error("down"));
    await expect(new OpencodeApi(transport, FAST).session("ses_1")).rejects.toThrow("down");
    expect(request).toHaveBeenCalledTimes(1);
  });
});

describe("OpencodeApi: createSession", () => {
  it("posts an empty body to /session once and returns the new session's id", async () => {
    const { transport, request } = fakeTransport({ status: 200, data: { id: "ses_new", title: "New session" } });
    await expect(new OpencodeApi(transport, FAST).createSession()).resolves.toEqual({ ok: true, sessionID: "ses_new" });
    const [method, url, options] = request.mock.calls[0]!;
    expect([method, url, options?.body]).toEqual(["POST", "/session", {}]);
  });

  it("is never retried (a retry could make two sessions) and says why it failed", async () => {
    const { transport, request } = fakeTransport({ status: 500, data: { name: "UnknownError" } });
    await expect(new OpencodeApi(transport, FAST).createSession()).resolves.toEqual({ ok: false, error: "OpenCode answered 500 to POST /session" });
    expect(request).toHaveBeenCalledTimes(1);
    const missingId = fakeTransport({ status: 200, data: { title: "no id" } });
    await expect(new OpencodeApi(missingId.transport, FAST).createSession()).resolves.toMatchObject({ ok: false });
    await expect(new OpencodeApi(fakeTransport(new Error("ECONNREFUSED")).transport, FAST).createSession()).resolves.toEqual({
      ok: false,
      error: "ECONNREFUSED",
    });
  });
});

describe("OpencodeApi: models, agents and the phone's choice", () => {
  it("prompt_async carries the chosen model and agent in its own fields, and nothing when none is chosen", async () => {
    const { transport, request } = fakeTransport({ status: 204, data: undefined });
    const api = new OpencodeApi(transport, FAST);
    await api.prompt("ses_1", [{ type: "text", text: "hi" }], { model: { providerID: "p", modelID: "m" }, agent: "plan" });
    await api.prompt("ses_1", [{ type: "text", text: "hi" }]);
    expect(request.mock.calls.map((call) => call[2]?.body)).toEqual([
      { parts: [{ type: "text", text: "hi" }], model: { providerID: "p", modelID: "m" }, agent: "plan" },
      { parts: [{ type: "text", text: "hi" }] },
    ]);
  });

  it("lists every provider's models and the primary agents (no sub-agents, no hidden ones); an unreadable list throws", async () => {
    const providers = { providers: [{ id: "p", models: { a: { name: "A" }, b: {} } }, { id: 3 }], default: {} };
    await expect(new OpencodeApi(fakeTransport({ status: 200, data: providers }).transport, FAST).listModels()).resolves.toEqual([
      { providerID: "p", modelID: "a", name: "A" },
      { providerID: "p", modelID: "b" },
    ]);
    const agents = [
      { name: "build", mode: "primary" },
      { name: "x", mode: "all" },
      { name: "general", mode: "subagent" },
      { name: "t", mode: "primary", hidden: true },
    ];
    await expect(new OpencodeApi(fakeTransport({ status: 200, data: agents }).transport, FAST).listAgents()).resolves.toEqual([{ id: "build" }, { id: "x" }]);
    await expect(new OpencodeApi(fakeTransport({ status: 500, data: {} }).transport, FAST).listModels()).rejects.toThrow("500");
  });
});
