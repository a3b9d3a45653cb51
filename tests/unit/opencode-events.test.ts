import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { HermesEvent } from "../../lib/hermes-events.ts";
import { parseEvent, type ParsedEvent } from "../../lib/opencode/events.ts";

/** One SSE `data:` line, as lib/sse/stream.ts hands it over (it drops what is not JSON). */
const parseEventData = (line: string): ParsedEvent | undefined => parseEvent(JSON.parse(line));

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/opencode-events");

/** Every `data:` payload of a recorded SSE stream (one JSON document per frame). */
function dataLines(name: string): string[] {
  return fs
    .readFileSync(path.join(FIXTURES, name), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice("data:".length).replace(/^ /, ""));
}

function parseAll(name: string): ParsedEvent[] {
  return dataLines(name)
    .map((line) => parseEventData(line))
    .filter((parsed): parsed is ParsedEvent => parsed !== undefined);
}

function countByType(events: ParsedEvent[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { event } of events) counts[event.type] = (counts[event.type] ?? 0) + 1;
  return counts;
}

function only<T extends HermesEvent["type"]>(events: ParsedEvent[], type: T): Extract<HermesEvent, { type: T }>[] {
  return events.map((parsed) => parsed.event).filter((event): event is Extract<HermesEvent, { type: T }> => event.type === type);
}

/** A comparable fingerprint of an event, ignoring the envelope. */
function fingerprint(event: HermesEvent): string {
  return JSON.stringify(event);
}

const EXPECTED_COUNTS = {
  "question.asked": 3,
  "question.replied": 2,
  "question.rejected": 1,
  "permission.asked": 3,
  "permission.replied": 3,
  "session.upserted": 25,
  "session.status": 30,
  "session.idle": 6,
  "message.role": 52,
  "message.text": 14,
  /** 1.18's message.part.delta: the answer as it is written (answer-stream.ts). */
  "message.delta": 4,
  /** Tool parts: the question tool's and bash's (pending, running, completed). */
  "tool.step": 20,
};

describe("recorded stream: /event (sse_event.sse)", () => {
  const lines = dataLines("sse_event.sse");
  const events = parseAll("sse_event.sse");

  it("has the recorded number of frames", () => {
    expect(lines).toHaveLength(260);
  });

  it("parses every frame without throwing", () => {
    for (const line of lines) expect(() => parseEventData(line)).not.toThrow();
  });

  it("yields exactly the events Hermes uses, with the recorded counts", () => {
    expect(countByType(events)).toEqual(EXPECTED_COUNTS);
  });

  it("an assistant message says what it used and which model answered; a message that counted nothing says nothing", () => {
    const assistant = events.filter((parsed) => parsed.event.type === "message.role" && parsed.event.role === "assistant").map((parsed) => parsed.event);
    const used = assistant.filter((event) => event.type === "message.role" && event.usage);
    expect(used.length).toBeGreaterThan(0);
    expect(used[0]).toMatchObject({
      usage: { input: 10, output: 5, reasoning: 0, cacheRead: 0, cacheWrite: 0, cost: 0 },
      model: { providerID: "mock", modelID: "mock-model" },
    });
    // The first update of each message has zero counts: no usage then.
    expect(assistant.some((event) => event.type === "message.role" && !event.usage)).toBe(true);
  });

  it("leaves the directory to the caller", () => {
    for (const parsed of events) expect(parsed).not.toHaveProperty("directory");
  });

  it("narrows the first question.asked exactly", () => {
    const [first] = only(events, "question.asked");
    expect(first).toEqual({
      type: "question.asked",
      request: {
        id: "que_2004fc3e0001WtalNqkUYOSDAM",
        sessionID: "ses_dffb04635ffehttOr37915uWeJ",
        questions: [
          {
            question: "Which color?",
            header: "Color",
            options: [
              { label: "Red", description: "warm" },
              { label: "Blue", description: "cool" },
            ],
            multiple: false,
            custom: true,
          },
          {
            question: "Which sizes?",
            header: "Sizes",
            options: [
              { label: "S", description: "small" },
              { label: "L", description: "large" },
            ],
            multiple: true,
            custom: true,
          },
        ],
      },
    });
  });

  it("narrows replies, the rejection and permissions", () => {
    expect(only(events, "question.replied")).toEqual([
      {
        type: "question.replied",
        sessionID: "ses_dffb04635ffehttOr37915uWeJ",
        requestID: "que_2004fc3e0001WtalNqkUYOSDAM",
        answers: [["Blue"], ["S", "custom text"]],
      },
      {
        type: "question.replied",
        sessionID: "ses_dffb04635ffehttOr37915uWeJ",
        requestID: "que_20050cac0001KgYmVWVBNpAEgb",
        answers: [["Blue"], ["S", "my custom size"]],
      },
    ]);
    expect(only(events, "question.rejected")).toEqual([
      { type: "question.rejected", sessionID: "ses_dffb04635ffehttOr37915uWeJ", requestID: "que_2005000950012SSj5SZapjz1Xb" },
    ]);
    expect(only(events, "permission.replied").map((event) => event.reply)).toEqual(["once", "reject", "reject"]);
    expect(only(events, "permission.asked")[0]).toEqual({
      type: "permission.asked",
      request: {
        id: "per_200503894001JyLOqXT2GrYDvo",
        sessionID: "ses_dffb04635ffehttOr37915uWeJ",
        permission: "bash",
        patterns: ["echo hello-from-bash"],
        metadata: { command: "echo hello-from-bash" },
        always: ["echo *"],
        // Issue 49: the tool call that asks (its input holds the whole line on 1.1.53, which sends no metadata).
        tool: { messageID: "msg_2005037da0011QxCrrLgilfWn2", callID: "call_1795301586968" },
      },
    });
  });

  it("pairs every reply and rejection with an asked question", () => {
    const asked = new Set(only(events, "question.asked").map((event) => event.request.id));
    for (const event of [...only(events, "question.replied"), ...only(events, "question.rejected")]) expect(asked.has(event.requestID)).toBe(true);
  });

  it("narrows sessions to id, title and directory", () => {
    const [created] = only(events, "session.upserted");
    expect(created).toEqual({
      type: "session.upserted",
      info: { id: "ses_dffb04635ffehttOr37915uWeJ", title: "New session - 2026-11-21T22:52:34.634Z", directory: "/home/dev/project" },
    });
    const statuses = new Set(only(events, "session.status").map((event) => event.status));
    expect([...statuses].every((status) => typeof status === "string" && status.length > 0)).toBe(true);
  });

  it("still parses every event once the top-level id is removed (OpenCode 1.1.53 style)", () => {
    const stripped = lines
      .map((line) => {
        const { id: _id, ...rest } = JSON.parse(line) as Record<string, unknown>;
        return parseEvent(rest);
      })
      .filter((parsed): parsed is ParsedEvent => parsed !== undefined);
    expect(countByType(stripped)).toEqual(EXPECTED_COUNTS);
    expect(stripped.map((parsed) => fingerprint(parsed.event))).toEqual(events.map((parsed) => fingerprint(parsed.event)));
  });
});

describe("recorded stream: /global/event (sse_global.sse)", () => {
  const lines = dataLines("sse_global.sse");
  const events = parseAll("sse_global.sse");

  it("has the recorded number of frames, many of them sync duplicates", () => {
    expect(lines).toHaveLength(393);
    const syncFrames = lines.filter((line) => (JSON.parse(line) as { payload?: { type?: unknown } }).payload?.type === "sync");
    expect(syncFrames).toHaveLength(131);
    for (const line of syncFrames) expect(parseEventData(line)).toBeUndefined();
  });

  it("yields the same counts as /event: sync duplicates are dropped", () => {
    expect(countByType(events)).toEqual(EXPECTED_COUNTS);
  });

  it("yields the same events, in the same order, as /event", () => {
    const plain = parseAll("sse_event.sse");
    expect(events.map((parsed) => fingerprint(parsed.event))).toEqual(plain.map((parsed) => fingerprint(parsed.event)));
  });

  it("names the project directory on every event", () => {
    expect(new Set(events.map((parsed) => parsed.directory))).toEqual(new Set(["/home/dev/project"]));
  });

  it("gives the directory of a question", () => {
    const asked = events.filter((parsed) => parsed.event.type === "question.asked");
    expect(asked).toHaveLength(3);
    for (const parsed of asked) expect(parsed.directory).toBe("/home/dev/project");
  });
});

describe("recorded stream: dispose (sse_dispose.sse)", () => {
  it("yields only the instance disposal", () => {
    expect(parseAll("sse_dispose.sse")).toEqual([{ event: { type: "instance.disposed", directory: "/home/dev/project" } }]);
  });
});

const SESSION = "ses_1";
const question = (over: Record<string, unknown> = {}) => ({ question: "Pick?", header: "H", options: [{ label: "A", description: "a" }], ...over });
const asked = (properties: Record<string, unknown>) => ({
  type: "question.asked",
  properties: { id: "que_1", sessionID: SESSION, questions: [question()], ...properties },
});

describe("parseEvent: envelope", () => {
  const payload = asked({});

  it("takes the directory from the envelope", () => {
    expect(parseEvent({ directory: "/p", project: "x", payload })?.directory).toBe("/p");
  });

  it("drops the pseudo-directory 'global' and non-string directories", () => {
    expect(parseEvent({ directory: "global", payload })).toEqual({ event: parseEvent(payload)!.event });
    expect(parseEvent({ directory: 5, payload })).not.toHaveProperty("directory");
    expect(parseEvent({ payload })).not.toHaveProperty("directory");
  });

  it("drops sync payloads", () => {
    expect(parseEvent({ directory: "/p", payload: { type: "sync", syncEvent: { type: "question.asked.1", data: payload.properties } } })).toBeUndefined();
  });

  it("drops an envelope with a malformed payload", () => {
    expect(parseEvent({ directory: "/p", payload: { type: "question.asked", properties: {} } })).toBeUndefined();
    expect(parseEvent({ directory: "/p", payload: { type: "question.asked" } })).toBeUndefined();
  });

  it("treats an array payload as no envelope", () => {
    expect(parseEvent({ directory: "/p", payload: [payload] })).toBeUndefined();
  });
});

describe("parseEvent: question.asked", () => {
  it("parses without a top-level id", () => {
    expect(parseEvent(asked({}))?.event.type).toBe("question.asked");
  });

  it("custom missing means true, custom:false means false, anything else true", () => {
    const custom = (value: unknown) => {
      const parsed = parseEvent(asked({ questions: [question(value === "missing" ? {} : { custom: value })] }));
      return parsed?.event.type === "question.asked" ? parsed.event.request.questions[0]!.custom : "undefined";
    };
    expect(custom("missing")).toBe(true);
    expect(custom(false)).toBe(false);
    expect(custom(true)).toBe(true);
    expect(custom("false")).toBe(true);
    expect(custom(0)).toBe(true);
    expect(custom(null)).toBe(true);
  });

  it("multiple is true only for literal true", () => {
    const multiple = (value: unknown) => {
      const parsed = parseEvent(asked({ questions: [question({ multiple: value })] }));
      return parsed?.event.type === "question.asked" ? parsed.event.request.questions[0]!.multiple : "undefined";
    };
    expect(multiple(true)).toBe(true);
    expect(multiple(false)).toBe(false);
    expect(multiple("true")).toBe(false);
    expect(multiple(1)).toBe(false);
    expect(multiple(undefined)).toBe(false);
  });

  it("defaults header and description to empty and options to none", () => {
    const parsed = parseEvent(
      asked({ questions: [{ question: "Free?", options: [{ label: "X" }, { label: "Y", description: 5 }] }, { question: "No options" }] }),
    );
    expect(parsed?.event).toEqual({
      type: "question.asked",
      request: {
        id: "que_1",
        sessionID: SESSION,
        questions: [
          {
            question: "Free?",
            header: "",
            options: [
              { label: "X", description: "" },
              { label: "Y", description: "" },
            ],
            multiple: false,
            custom: true,
          },
          { question: "No options", header: "", options: [], multiple: false, custom: true },
        ],
      },
    });
  });

  it("drops unknown extra fields", () => {
    const parsed = parseEvent(
      asked({ tool: { callID: "c" }, extra: 1, questions: [question({ evil: "<b>", options: [{ label: "A", description: "d", x: 1 }] })] }),
    );
    expect(parsed?.event).toEqual({
      type: "question.asked",
      request: {
        id: "que_1",
        sessionID: SESSION,
        questions: [{ question: "Pick?", header: "H", options: [{ label: "A", description: "d" }], multiple: false, custom: true }],
      },
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ["missing id", { id: undefined }],
    ["numeric id", { id: 5 }],
    ["empty id", { id: "" }],
    ["huge id", { id: "q".repeat(201) }],
    ["missing sessionID", { sessionID: undefined }],
    ["object sessionID", { sessionID: { id: "x" } }],
    ["huge sessionID", { sessionID: "s".repeat(10_000) }],
    ["no questions", { questions: [] }],
    ["questions not an array", { questions: { 0: question() } }],
    ["questions missing", { questions: undefined }],
    ["a null question", { questions: [question(), null] }],
    ["a string question", { questions: ["Pick?"] }],
    ["a question without text", { questions: [question({ question: undefined })] }],
    ["a question with numeric text", { questions: [question({ question: 7 })] }],
    ["a numeric label", { questions: [question({ options: [{ label: 1 }] })] }],
    ["a null label", { questions: [question({ options: [{ label: null }] })] }],
    ["an object label", { questions: [question({ options: [{ label: { text: "A" } }] })] }],
    ["an empty label", { questions: [question({ options: [{ label: "" }] })] }],
    ["a missing label", { questions: [question({ options: [{ description: "d" }] })] }],
    ["a string option", { questions: [question({ options: ["A"] })] }],
    ["a null option", { questions: [question({ options: [{ label: "A" }, null] })] }],
  ])("drops a request with %s", (_name, properties) => {
    expect(parseEvent(asked(properties))).toBeUndefined();
  });

  it("accepts ids up to 200 characters", () => {
    const id = "q".repeat(200);
    const parsed = parseEvent(asked({ id }));
    expect(parsed?.event.type === "question.asked" && parsed.event.request.id).toBe(id);
  });
});

describe("parseEvent: other events", () => {
  it("parses question.replied and checks the answer lists", () => {
    const replied = (answers: unknown) => parseEvent({ type: "question.replied", properties: { requestID: "que_1", sessionID: SESSION, answers } });
    expect(replied([["A"], ["B", "C"], []])?.event).toEqual({
      type: "question.replied",
      sessionID: SESSION,
      requestID: "que_1",
      answers: [["A"], ["B", "C"], []],
    });
    expect(replied([])?.event.type).toBe("question.replied");
    expect(replied(undefined)).toBeUndefined();
    expect(replied("A")).toBeUndefined();
    expect(replied(["A"])).toBeUndefined();
    expect(replied([["A", 1]])).toBeUndefined();
    expect(replied([null])).toBeUndefined();
    expect(parseEvent({ type: "question.replied", properties: { sessionID: SESSION, answers: [] } })).toBeUndefined();
  });

  it("parses question.rejected and needs both ids", () => {
    expect(parseEvent({ type: "question.rejected", properties: { requestID: "que_1", sessionID: SESSION } })?.event).toEqual({
      type: "question.rejected",
      requestID: "que_1",
      sessionID: SESSION,
    });
    expect(parseEvent({ type: "question.rejected", properties: { requestID: "que_1" } })).toBeUndefined();
    expect(parseEvent({ type: "question.rejected", properties: { sessionID: SESSION } })).toBeUndefined();
    expect(parseEvent({ type: "question.rejected", properties: { requestID: "r".repeat(201), sessionID: SESSION } })).toBeUndefined();
  });

  it("parses permission.asked and sanitises lists and metadata", () => {
    const parsed = parseEvent({
      type: "permission.asked",
      properties: { id: "per_1", sessionID: SESSION, permission: "edit", patterns: ["a", 1, null, "b"], metadata: ["x"], always: "nope" },
    });
    expect(parsed?.event).toEqual({
      type: "permission.asked",
      request: { id: "per_1", sessionID: SESSION, permission: "edit", patterns: ["a", "b"], metadata: {}, always: [] },
    });
    expect(parseEvent({ type: "permission.asked", properties: { id: "per_1", sessionID: SESSION } })).toBeUndefined();
    expect(parseEvent({ type: "permission.asked", properties: { id: "per_1", sessionID: SESSION, permission: 5 } })).toBeUndefined();
  });

  it("parses permission.replied with a known reply only", () => {
    const replied = (reply: unknown) => parseEvent({ type: "permission.replied", properties: { requestID: "per_1", sessionID: SESSION, reply } });
    for (const reply of ["once", "always", "reject"])
      expect(replied(reply)?.event).toEqual({ type: "permission.replied", requestID: "per_1", sessionID: SESSION, reply });
    for (const reply of ["ONCE", "never", "", undefined, 1, null]) expect(replied(reply)).toBeUndefined();
  });

  it("maps session.created and session.updated to session.upserted", () => {
    for (const type of ["session.created", "session.updated"]) {
      expect(parseEvent({ type, properties: { info: { id: SESSION, title: "T", directory: "/d", parentID: "ses_0", cost: 1 } } })?.event).toEqual({
        type: "session.upserted",
        info: { id: SESSION, title: "T", directory: "/d", parentID: "ses_0" },
      });
    }
    expect(parseEvent({ type: "session.updated", properties: { info: { id: SESSION, title: 5, directory: null, parentID: "" } } })?.event).toEqual({
      type: "session.upserted",
      info: { id: SESSION },
    });
    expect(parseEvent({ type: "session.updated", properties: { info: { title: "T" } } })).toBeUndefined();
    expect(parseEvent({ type: "session.updated", properties: {} })).toBeUndefined();
  });

  it("parses session.deleted from info or a bare sessionID", () => {
    expect(parseEvent({ type: "session.deleted", properties: { info: { id: SESSION } } })?.event).toEqual({ type: "session.deleted", sessionID: SESSION });
    expect(parseEvent({ type: "session.deleted", properties: { sessionID: SESSION } })?.event).toEqual({ type: "session.deleted", sessionID: SESSION });
    expect(parseEvent({ type: "session.deleted", properties: {} })).toBeUndefined();
  });

  it("a limit (measured on 1.18.33 and 1.1.53): the retry's words and `next`, and the 429 that ends the run", () => {
    const next = 1796165778150;
    expect(
      parseEvent({
        type: "session.status",
        properties: { sessionID: SESSION, status: { type: "retry", attempt: 1, message: "Rate limit reached for requests", next } },
      })?.event,
    ).toEqual({ type: "session.status", sessionID: SESSION, status: "retry", attempt: 1, message: "Rate limit reached for requests", next, limit: true });
    expect(
      parseEvent({ type: "session.status", properties: { sessionID: SESSION, status: { type: "retry", attempt: 1, message: "Internal error", next } } })?.event,
    ).toEqual({
      type: "session.status",
      sessionID: SESSION,
      status: "retry",
      attempt: 1,
      message: "Internal error",
      next,
    });
    expect(
      parseEvent({
        type: "session.error",
        properties: { sessionID: SESSION, error: { name: "APIError", data: { message: "Too many requests", statusCode: 429, isRetryable: true } } },
      })?.event,
    ).toEqual({ type: "session.error", sessionID: SESSION, name: "APIError", message: "Too many requests", limit: true });
  });

  it("parses session.status and session.idle", () => {
    expect(parseEvent({ type: "session.status", properties: { sessionID: SESSION, status: { type: "busy" } } })?.event).toEqual({
      type: "session.status",
      sessionID: SESSION,
      status: "busy",
    });
    expect(parseEvent({ type: "session.status", properties: { sessionID: SESSION, status: "busy" } })).toBeUndefined();
    expect(parseEvent({ type: "session.status", properties: { status: { type: "busy" } } })).toBeUndefined();
    expect(parseEvent({ type: "session.idle", properties: { sessionID: SESSION } })?.event).toEqual({ type: "session.idle", sessionID: SESSION });
    expect(parseEvent({ type: "session.idle", properties: {} })).toBeUndefined();
  });

  it("maps server.instance.disposed to instance.disposed", () => {
    expect(parseEvent({ type: "server.instance.disposed", properties: { directory: "/d" } })?.event).toEqual({ type: "instance.disposed", directory: "/d" });
    expect(parseEvent({ type: "server.instance.disposed", properties: { directory: "" } })).toBeUndefined();
    expect(parseEvent({ type: "server.instance.disposed", properties: {} })).toBeUndefined();
  });

  it("drops events Hermes does not use", () => {
    for (const type of [
      "server.connected",
      "server.heartbeat",
      "message.updated",
      "session.diff",
      "sync",
      "question.asked.1",
      "QUESTION.ASKED",
      "",
      "__proto__",
      "constructor",
      "toString",
    ]) {
      expect(parseEvent({ type, properties: {} })).toBeUndefined();
    }
  });
});

describe("parseEvent: untrusted input never throws", () => {
  const garbage: unknown[] = [
    undefined,
    null,
    0,
    1,
    NaN,
    "",
    "question.asked",
    true,
    [],
    [asked({})],
    {},
    { type: 5, properties: {} },
    { type: "question.asked" },
    { type: "question.asked", properties: null },
    { type: "question.asked", properties: [] },
    { type: "question.asked", properties: "x" },
    { payload: null },
    { payload: "x" },
    { payload: { payload: asked({}) } },
    Object.create(null),
    { type: "question.asked", properties: Object.assign(Object.create(null), { id: "q", sessionID: "s", questions: [] }) },
    new Date(),
    () => undefined,
    Symbol("x"),
    10n,
  ];

  it.each(garbage.map((value, index) => [index, value]))("drops garbage #%i", (_index, value) => {
    expect(() => parseEvent(value)).not.toThrow();
    expect(parseEvent(value)).toBeUndefined();
  });

  it("drops question.asked with a questions array full of junk", () => {
    expect(parseEvent(asked({ questions: [1, "x", [], {}, null] }))).toBeUndefined();
  });

  it("handles a huge number of questions and options without throwing", () => {
    const options = Array.from({ length: 1000 }, (_, index) => ({ label: `L${index}`, description: "d".repeat(100) }));
    const parsed = parseEvent(asked({ questions: Array.from({ length: 100 }, () => question({ options })) }));
    expect(parsed?.event.type === "question.asked" && parsed.event.request.questions.length).toBe(100);
  });
});

describe("parseEvent on JSON text", () => {
  it("parses JSON text", () => {
    expect(parseEventData(JSON.stringify(asked({})))?.event.type).toBe("question.asked");
  });

  it.each(["null", "[]", "42", '"question.asked"', "{}", '{"type":"question.asked"}', '{"type":1,"properties":[]}'])("drops %j", (text) => {
    expect(() => parseEventData(text)).not.toThrow();
    expect(parseEventData(text)).toBeUndefined();
  });

  it("ignores prototype-pollution attempts", () => {
    const parsed = parseEventData('{"__proto__":{"polluted":true},"type":"session.idle","properties":{"sessionID":"s"}}');
    expect(parsed?.event).toEqual({ type: "session.idle", sessionID: "s" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("drops a frame with a huge id", () => {
    const text = JSON.stringify({ type: "question.rejected", properties: { requestID: "x".repeat(1_000_000), sessionID: "s" } });
    expect(parseEventData(text)).toBeUndefined();
  });
});
