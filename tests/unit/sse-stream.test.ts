// The SSE client (lib/sse/stream.ts) against a loopback HTTP server the test scripts connection
// by connection: split frames, silence, hangs, ends, refusals, and a recorded OpenCode stream.
import fs from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseEvent, type ParsedEvent } from "../../lib/opencode/events.ts";
import { openEventStream, StreamError, type EventStream, type EventStreamOptions } from "../../lib/sse/stream.ts";
import { listenLoopback, type LoopbackServer } from "../support/loopback-server.ts";
import { pollUntil, sleep } from "../support/wait.ts";

const recordedPath = path.resolve(import.meta.dirname, "../fixtures/opencode-events/sse_global.sse");

interface Connection {
  index: number;
  req: IncomingMessage;
  res: ServerResponse;
  closed: boolean;
}

/** Each connection is handed to `script(connection)`; what it does is up to the test. */
async function sseServer(script: (c: Connection) => void | Promise<void>) {
  const connections: Connection[] = [];
  const server: LoopbackServer = await listenLoopback(async (req, res) => {
    const connection: Connection = { index: connections.length, req, res, closed: false };
    connections.push(connection);
    req.on("close", () => (connection.closed = true));
    await script(connection);
  });
  return { server, connections, url: `${server.origin}/global/event` };
}

const open = (res: ServerResponse) => res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
const connected = frame({ payload: { id: "evt_1", type: "server.connected", properties: {} } });
const heartbeat = frame({ payload: { id: "evt_h", type: "server.heartbeat", properties: {} } });
const asked = (id: string, directory = "/home/dev/project", question = "Which color?") =>
  frame({
    directory,
    project: "p",
    payload: {
      id: `evt_${id}`,
      type: "question.asked",
      properties: { id, sessionID: "ses_1", questions: [{ question, header: "H", options: [{ label: "A", description: "" }] }] },
    },
  });
const disposed = (directory = "/home/dev/project") => frame({ directory, payload: { type: "server.instance.disposed", properties: { directory } } });

const streams: EventStream[] = [];
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(streams.splice(0).map((s) => s.stop()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function start(url: string, options: Partial<EventStreamOptions> = {}) {
  const events: ParsedEvent[] = [];
  const log: string[] = [];
  const stream = openEventStream({
    url,
    onEvent: (parsed) => events.push(parsed),
    onConnect: ({ reconnect }) => log.push(reconnect ? "connect:again" : "connect:first"),
    onReconnect: () => log.push("reconnect"),
    onDisconnect: (reason, { idle }) => log.push(`disconnect:${reason}${idle ? " (idle)" : ""}`),
    onConnectFailed: ({ attempt, error }) => log.push(`failed:${attempt}:${error.message}`),
    backoff: { minTimeout: 20, maxTimeout: 100, randomize: false },
    connectTimeoutMs: 2_000,
    heartbeatTimeoutMs: 2_000,
    ...options,
  });
  streams.push(stream);
  return { stream, events, log };
}

async function withServer(script: (c: Connection) => void | Promise<void>) {
  const s = await sseServer(script);
  servers.push(s.server);
  return s;
}

const questionIds = (events: ParsedEvent[]) => events.flatMap((e) => (e.event.type === "question.asked" ? [e.event.request.id] : []));

describe("openEventStream", () => {
  it("drops data that is not JSON or not an event, and reads on past it", async () => {
    const junk = ["", " ", "{", "not json", "undefined", "{'type':'x'}", '{"type":"question.asked"', "\u0000"].map((text) => `data: ${text}\n\n`).join("");
    const { url } = await withServer(({ res }) => {
      open(res);
      res.write(connected + junk + frame(null) + frame([]) + asked("que_after"));
    });
    const { events } = start(url);
    await pollUntil(() => events.length > 0);
    expect(questionIds(events)).toEqual(["que_after"]);
  });

  it("reassembles frames split anywhere (mid-line, mid-character), and several frames in one chunk", async () => {
    const directory = "/home/dév/projet ✓";
    const body = connected + asked("que_1", directory, "Quelle couleur ? 🎨") + heartbeat + asked("que_2", directory) + asked("que_3", directory);
    const bytes = Buffer.from(body, "utf8");
    const { url } = await withServer(async ({ res, index }) => {
      open(res);
      if (index > 0) return;
      // 1..7-byte pieces: splits "data:", the JSON, the blank line and the multi-byte characters.
      for (let at = 0, size = 1; at < bytes.length; at += size, size = (size % 7) + 1) {
        res.write(bytes.subarray(at, at + size));
        if (at % 5 === 0) await sleep(1);
      }
    });
    const { events, log } = start(url);
    await pollUntil(() => questionIds(events).length === 3, { what: "three questions" });
    expect(questionIds(events)).toEqual(["que_1", "que_2", "que_3"]);
    expect(events.every((e) => e.directory === directory)).toBe(true);
    const first = events[0]!.event;
    expect(first.type === "question.asked" && first.request.questions[0]!.question).toBe("Quelle couleur ? 🎨");
    expect(log).toEqual(["connect:first"]);
  });

  it("sends accept: text/event-stream and the given headers", async () => {
    const { url, connections } = await withServer(({ res }) => {
      open(res);
      res.write(connected);
    });
    const { log } = start(url, { headers: { authorization: "Basic b3BlbmNvZGU6cHc=" } });
    await pollUntil(() => log.includes("connect:first"), { what: "connect" });
    expect(connections[0]!.req.headers.accept).toBe("text/event-stream");
    expect(connections[0]!.req.headers.authorization).toBe("Basic b3BlbmNvZGU6cHc=");
  });

  it("reconnects when the stream goes silent, but not while heartbeats keep coming", async () => {
    let beats = 0;
    const { url, connections } = await withServer(async (c) => {
      open(c.res);
      c.res.write(connected);
      if (c.index === 0) {
        // Heartbeats for about 3× the watchdog, then silence.
        for (let i = 0; i < 20 && !c.closed; i++) {
          await sleep(75);
          c.res.write(heartbeat);
          beats++;
        }
      } else c.res.write(asked("que_after") + heartbeat);
    });
    const { events, log, stream } = start(url, { heartbeatTimeoutMs: 500 });
    // Heartbeats have kept coming for more than twice the watchdog: silence would have been noticed by now.
    await pollUntil(() => beats >= 16, { what: "16 heartbeats (1.2 s)", timeoutMs: 5_000, context: () => `connections: ${connections.length}` });
    expect(connections).toHaveLength(1);
    expect(stream.connected).toBe(true);
    await pollUntil(() => questionIds(events).includes("que_after") && log.length >= 4, { what: "the question on the second connection", timeoutMs: 3_000 });
    expect(connections[0]!.closed).toBe(true);
    expect(log.slice(0, 4)).toEqual(["connect:first", expect.stringMatching(/^disconnect:no data for \d+ s$/), "connect:again", "reconnect"]);
  });

  it("reopens a silent stream of a server that never sent a heartbeat (OpenCode 1.1.53) as routine: idle", async () => {
    const { url } = await withServer((c) => {
      open(c.res);
      c.res.write(connected + (c.index === 1 ? asked("que_refreshed") : ""));
      if (c.index === 1) c.res.write(heartbeat); // from now on this server is known to send heartbeats
    });
    const { events, log } = start(url, { heartbeatTimeoutMs: 200 });
    await pollUntil(() => log.length >= 7, { what: "a third connection", timeoutMs: 3_000 });
    expect(questionIds(events)).toEqual(["que_refreshed"]);
    expect(log.slice(0, 7)).toEqual([
      "connect:first",
      expect.stringMatching(/^disconnect:no data for \d+ s \(idle\)$/),
      "connect:again",
      "reconnect",
      expect.stringMatching(/^disconnect:no data for \d+ s$/),
      "connect:again",
      "reconnect",
    ]);
  });

  it("gives every connect its own timeout: a server that never answers, or answers headers and no byte", async () => {
    const { url, connections } = await withServer((c) => {
      if (c.index === 0) return; // hangs before the headers
      open(c.res);
      if (c.index === 1) return; // headers, then nothing
      c.res.write(connected + asked("que_ok"));
    });
    const started = Date.now();
    const { events, log } = start(url, { connectTimeoutMs: 250 });
    await pollUntil(() => questionIds(events).includes("que_ok"), { what: "the question on the third connection", timeoutMs: 3_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(connections).toHaveLength(3);
    expect(log).toEqual(["failed:1:no answer within 250 ms of connecting", "failed:2:no answer within 250 ms of connecting", "connect:first"]);
    await pollUntil(() => connections[0]!.closed && connections[1]!.closed, { what: "the hung requests to be closed" });
  });

  it("reconnects after the stream ends (as OpenCode does after server.instance.disposed)", async () => {
    const { url, connections } = await withServer((c) => {
      open(c.res);
      if (c.index === 0) c.res.end(connected + asked("que_1") + disposed());
      else c.res.write(connected + asked("que_2"));
    });
    const { events, log } = start(url);
    await pollUntil(() => questionIds(events).includes("que_2"), { what: "the question after the reconnect" });
    expect(connections).toHaveLength(2);
    expect(events.map((e) => e.event.type)).toEqual(["question.asked", "instance.disposed", "question.asked"]);
    expect(log).toEqual(["connect:first", "disconnect:the stream ended", "connect:again", "reconnect"]);
  });

  it("backs off between failed connects, and resets once a connection opened", async () => {
    const { url, connections } = await withServer((c) => {
      if (c.index < 3 || (c.index >= 4 && c.index < 6)) {
        c.res.writeHead(503).end("starting");
        return;
      }
      open(c.res);
      if (c.index === 3) c.res.end(connected);
      else c.res.write(connected + asked("que_late"));
    });
    const delays: number[] = [];
    const { events } = start(url, { onConnectFailed: ({ delayMs }) => delays.push(delayMs), backoff: { minTimeout: 20, maxTimeout: 60, randomize: false } });
    await pollUntil(() => questionIds(events).includes("que_late"), { what: "the question after the failures" });
    expect(connections).toHaveLength(7);
    expect(delays).toEqual([20, 40, 60, 20, 40]);
  });

  it.each([401, 403, 404])("stops for good on HTTP %i (retrying can't fix it)", async (status) => {
    const { url, connections } = await withServer(({ res }) => void res.writeHead(status).end());
    const { stream, log } = start(url);
    const error = await stream.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StreamError);
    expect((error as StreamError).status).toBe(status);
    expect((error as StreamError).fatal).toBe(true);
    expect(connections).toHaveLength(1);
    expect(log).toEqual([]);
  });

  it("retries a refused connection and a reply that is not an event stream", async () => {
    const { url, server, connections } = await withServer((c) => {
      if (c.index === 0) {
        c.res.writeHead(200, { "content-type": "text/html" }).end("<html>proxy</html>");
        return;
      }
      open(c.res);
      c.res.write(connected + asked("que_x"));
    });
    const refused = await withServer(() => undefined);
    await refused.server.close();
    const a = start(refused.url, { backoff: { minTimeout: 10, maxTimeout: 10, randomize: false } });
    await pollUntil(() => a.log.filter((l) => l.startsWith("failed:")).length >= 2, { what: "two refused connects" });
    expect(a.log[0]).toMatch(/^failed:1:could not connect: fetch failed/);
    const b = start(url);
    await pollUntil(() => questionIds(b.events).includes("que_x"), { what: "the question" });
    expect(b.log[0]).toBe(`failed:1:${server.origin}/global/event is not an event stream (content-type "text/html")`);
    expect(connections).toHaveLength(2);
  });

  it("replays the recorded /global/event stream of OpenCode 1.18.33 exactly as lib/opencode/events.ts reads it", async () => {
    const bytes = fs.readFileSync(recordedPath);
    const expected = bytes
      .toString("utf8")
      .split("\n\n")
      .map((block) => block.trim())
      .filter((block) => block.startsWith("data: "))
      .flatMap((block) => {
        const parsed = parseEvent(JSON.parse(block.slice("data: ".length)));
        return parsed ? [parsed] : [];
      });
    const { url } = await withServer(async ({ res, index }) => {
      open(res);
      if (index > 0) return;
      let seed = 7;
      for (let at = 0; at < bytes.length; ) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const size = 1 + (seed % 4096);
        res.write(bytes.subarray(at, at + size));
        at += size;
      }
      // A last event of our own: once it is read, everything the recording held has been read too.
      res.write(asked("que_end"));
    });
    const { events } = start(url);
    await pollUntil(() => questionIds(events).includes("que_end"), { what: `${expected.length} events and the end marker` });
    const recorded = events.slice(0, -1);
    expect(recorded).toEqual(expected);
    const types = new Set(recorded.map((e) => e.event.type));
    for (const type of ["question.asked", "question.replied", "question.rejected", "permission.asked", "permission.replied", "session.upserted"])
      expect(types).toContain(type);
    expect(recorded.every((e) => e.directory === "/home/dev/project")).toBe(true);
    // Every `sync` duplicate was dropped: no request is announced twice.
    const ids = questionIds(recorded);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("stops cleanly: during a connection, during a backoff wait, and through the given signal; no timer is left", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const { url } = await withServer((c) => {
      open(c.res);
      c.res.write(connected);
    });
    const live = start(url);
    await pollUntil(() => live.stream.connected, { what: "connected" });
    await live.stream.stop();
    expect(live.stream.connected).toBe(false);

    const failing = await withServer(({ res }) => void res.writeHead(500).end());
    const waiting = start(failing.url, { backoff: { minTimeout: 60_000, maxTimeout: 60_000, randomize: false } });
    await pollUntil(() => waiting.log.length > 0, { what: "a failed connect" });
    const stopAt = Date.now();
    await waiting.stream.stop();
    expect(Date.now() - stopAt).toBeLessThan(1_000);

    const controller = new AbortController();
    const viaSignal = start(url, { signal: controller.signal });
    await pollUntil(() => viaSignal.stream.connected, { what: "connected" });
    controller.abort();
    await expect(viaSignal.stream.done).resolves.toBeUndefined();

    expect(timers()).toBeLessThanOrEqual(before);
  });
});
