// The attach runner (lib/attach/runner.ts) against a fake `opencode serve` on loopback (only the
// routes attach mode uses) and an in-memory Telegram: directory discovery and linking, routing of
// events, the plugin check, auth, and the resync after a reconnect. The real server is in
// tests/e2e/attach-suite.ts.
import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AttachError, type AttachHandle, type AttachOptions } from "../../lib/attach/attach-mode.ts";
import { startAttach } from "../../lib/attach/runner.ts";
import { listenLoopback, readBody, sendJson, type LoopbackServer } from "../support/loopback-server.ts";
import { MemoryTelegram, type MemoryMessage } from "../support/memory-telegram.ts";
import { pollUntil } from "../support/wait.ts";

/** Its own token: processes sharing one elect a single Telegram poller machine-wide (lib/relay). */
const TOKEN = `424242:runner-${randomBytes(12).toString("hex")}`;
const CHAT = 1001;
const SERVER_DIR = "/srv/project";

/** getUpdates waits for a pushed update (or the poller's abort) instead of spinning. */
class PollingTelegram extends MemoryTelegram {
  #queue: unknown[] = [];
  #wake: (() => void) | undefined;
  #nextUpdate = 1;

  override getUpdates(offset = 0, _timeout = 0, signal: AbortSignal = new AbortController().signal): Promise<unknown[]> {
    return new Promise((resolve) => {
      const take = () => {
        const ready = this.#queue.filter((u) => (u as { update_id: number }).update_id >= offset);
        if (ready.length === 0) return false;
        this.#queue = [];
        resolve(ready);
        return true;
      };
      if (take()) return;
      const onAbort = () => resolve([]);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#wake = () => {
        if (take()) signal.removeEventListener("abort", onAbort);
      };
    });
  }

  tap(message: MemoryMessage, text: string): void {
    this.#queue.push({
      update_id: this.#nextUpdate++,
      callback_query: {
        id: `cb${this.#nextUpdate}`,
        from: { id: CHAT, first_name: "U" },
        data: this.button(message, text).callback_data,
        message: { message_id: message.messageId, chat: { id: CHAT, type: "private" } },
      },
    });
    this.#wake?.();
  }
}

interface Question {
  id: string;
  sessionID: string;
  questions: Array<{ question: string; header: string; options: Array<{ label: string; description: string }> }>;
}

/** Plays `opencode serve`: /global/event, /path, /session, /config, /question, /permission, replies. */
async function fakeOpencode(options: { password?: string } = {}) {
  const streams = new Set<ServerResponse>();
  const pending = new Map<string, Question[]>();
  const plugins = new Map<string, string[]>();
  const configDelay = new Map<string, Promise<void>>();
  const requests: Array<{ method: string; path: string; directory: string | null; auth?: string }> = [];
  let streamStatus = 200;
  const emit = (directory: string, type: string, properties: unknown) => {
    for (const res of streams) res.write(`data: ${JSON.stringify({ directory, project: "p", payload: { type, properties } })}\n\n`);
  };
  const server: LoopbackServer = await listenLoopback(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const directory = url.searchParams.get("directory");
    requests.push({ method: req.method ?? "", path: url.pathname, directory, ...(req.headers.authorization ? { auth: req.headers.authorization } : {}) });
    if (options.password && req.headers.authorization !== `Basic ${Buffer.from(`opencode:${options.password}`).toString("base64")}`) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="Secure Area"' }).end();
      return;
    }
    const dir = directory ?? SERVER_DIR;
    if (url.pathname === "/global/event") {
      if (streamStatus !== 200) return void res.writeHead(streamStatus).end();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ payload: { type: "server.connected", properties: {} } })}\n\n`);
      streams.add(res);
      req.on("close", () => streams.delete(res));
      return;
    }
    if (url.pathname === "/path") return sendJson(res, 200, { directory: SERVER_DIR, worktree: "/" });
    if (url.pathname === "/session") return sendJson(res, 200, []);
    if (url.pathname === "/config") {
      await configDelay.get(dir);
      return sendJson(res, 200, { plugin: plugins.get(dir) ?? [] });
    }
    if (url.pathname === "/question") return sendJson(res, 200, pending.get(dir) ?? []);
    if (url.pathname === "/permission") return sendJson(res, 200, []);
    const reply = /^\/question\/([^/]+)\/reply$/.exec(url.pathname);
    if (reply && req.method === "POST") {
      const body = JSON.parse((await readBody(req)).toString("utf8")) as { answers: string[][] };
      const list = pending.get(dir) ?? [];
      const found = list.find((q) => q.id === reply[1]);
      if (!found) return sendJson(res, 404, { name: "QuestionNotFoundError" });
      pending.set(
        dir,
        list.filter((q) => q !== found),
      );
      sendJson(res, 200, true);
      emit(dir, "question.replied", { sessionID: found.sessionID, requestID: found.id, answers: body.answers });
      return;
    }
    if (url.pathname.startsWith("/session/")) return sendJson(res, 404, {});
    sendJson(res, 404, { name: "NotFound" });
  });
  let counter = 0;
  return {
    server,
    url: server.origin,
    requests,
    pending,
    plugins,
    configDelay,
    set streamStatus(status: number) {
      streamStatus = status;
    },
    /** A pending question, announced on the stream unless `silently`. */
    ask(directory: string, text: string, silently = false, sessionID?: string): Question {
      const question: Question = {
        id: `que_${++counter}`,
        sessionID: sessionID ?? `ses_${counter}`,
        questions: [
          {
            question: text,
            header: "H",
            options: [
              { label: "Red", description: "" },
              { label: "Blue", description: "" },
            ],
          },
        ],
      };
      pending.set(directory, [...(pending.get(directory) ?? []), question]);
      if (!silently) emit(directory, "question.asked", question);
      return question;
    },
    emit,
    /** Ends every open event stream (as OpenCode does after an instance is disposed). */
    dropStreams() {
      for (const res of streams) res.end();
      streams.clear();
    },
    streams: () => streams.size,
  };
}

const handles: AttachHandle[] = [];
const servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function attach(oc: Awaited<ReturnType<typeof fakeOpencode>>, extra: Partial<AttachOptions> = {}) {
  servers.push(oc.server);
  const telegram = new PollingTelegram();
  const lines: string[] = [];
  const handle = startAttach({
    url: oc.url,
    env: { HERMES_TELEGRAM_TOKEN: TOKEN, HERMES_TELEGRAM_CHAT_ID: String(CHAT), HERMES_LOG_LEVEL: "silent", HERMES_LOG_FILE: "/dev/null" },
    telegram,
    report: (line) => lines.push(line),
    stream: { connectTimeoutMs: 2_000, heartbeatTimeoutMs: 5_000, backoff: { minTimeout: 20, maxTimeout: 100 } },
    ...extra,
  });
  handles.push(handle);
  return { handle, telegram, lines };
}

const messageWith = (telegram: MemoryTelegram, text: string) =>
  vi.waitFor(
    () => {
      const message = telegram.messages.find((m) => m.text.includes(text) && m.keyboard.length > 0);
      if (!message) throw new Error(`no live message with "${text}"`);
      return message;
    },
    { timeout: 5_000 },
  );

describe("startAttach", () => {
  it("links the server's directory and every directory an event names; replies go to the right one", async () => {
    const oc = await fakeOpencode();
    const before = oc.ask(SERVER_DIR, "Pending before attach?", true);
    const { handle, telegram, lines } = await attach(oc);
    await handle.ready;
    expect(handle.attached()).toEqual([SERVER_DIR]);
    expect(lines).toEqual([`Hermes attached to ${oc.url}: bridging ${SERVER_DIR} to Telegram chat ${CHAT}`]);
    const first = await messageWith(telegram, "Pending before attach?");

    const other = oc.ask("/srv/other", "From the other directory?");
    const second = await messageWith(telegram, "From the other directory?");
    expect(handle.attached().sort()).toEqual(["/srv/other", SERVER_DIR].sort());
    expect(lines).toContain("Hermes: now bridging /srv/other");

    telegram.tap(second, "Blue");
    await vi.waitFor(() => expect(second.text).toContain("Answered from Telegram"), { timeout: 5_000 });
    telegram.tap(first, "Red");
    await vi.waitFor(() => expect(first.text).toContain("Answered from Telegram"), { timeout: 5_000 });
    const replies = oc.requests.filter((r) => r.method === "POST").map((r) => [r.path, r.directory]);
    expect(replies).toEqual([
      [`/question/${other.id}/reply`, "/srv/other"],
      [`/question/${before.id}/reply`, SERVER_DIR],
    ]);
  });

  it("holds a new directory's events until its check is done, then delivers them in order", async () => {
    const oc = await fakeOpencode();
    const { handle, telegram } = await attach(oc);
    await handle.ready;
    let release!: () => void;
    oc.configDelay.set("/srv/slow", new Promise<void>((resolve) => (release = resolve)));
    oc.emit("/srv/slow", "session.created", { sessionID: "ses_s", info: { id: "ses_s", title: "Slow session", directory: "/srv/slow" } });
    oc.ask("/srv/slow", "Held?", false, "ses_s");
    // The check is under way, and a prompt of a linked directory, on the same stream after the held
    // events, has reached the phone: had they not been held, they would have been there first.
    await vi.waitFor(() => expect(oc.requests.some((r) => r.path === "/config" && r.directory === "/srv/slow")).toBe(true), { timeout: 5_000 });
    oc.ask(SERVER_DIR, "Linked already?");
    await messageWith(telegram, "Linked already?");
    expect(telegram.messages.map((m) => m.text)).toEqual([expect.stringContaining("Linked already?")]);
    release();
    const message = await messageWith(telegram, "Held?");
    await vi.waitFor(() => expect(message.text).toContain("Slow session"), { timeout: 5_000 });
    expect(telegram.messages.filter((m) => m.text.includes("Held?"))).toHaveLength(1);
  });

  it("exits when the Hermes plugin is loaded in the server", async () => {
    const oc = await fakeOpencode();
    oc.plugins.set(SERVER_DIR, ["file:///home/you/hermes/plugin.ts"]);
    const { handle, lines } = await attach(oc);
    const error = await handle.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AttachError);
    expect((error as AttachError).kind).toBe("plugin-loaded");
    expect(lines).toEqual([
      `Hermes: the Hermes plugin is already loaded in the OpenCode server at ${oc.url} (${SERVER_DIR}); it bridges that server itself, so attach mode exits.`,
    ]);
    await pollUntil(() => oc.streams() === 0, { what: "the event stream closed" });
  });

  it("leaves a later directory to the plugin loaded there, and bridges the others", async () => {
    const oc = await fakeOpencode();
    oc.plugins.set("/srv/plugged", ["opencode-hermes@0.1.0"]);
    const { handle, telegram, lines } = await attach(oc);
    await handle.ready;
    oc.ask("/srv/plugged", "Plugin's own?");
    await pollUntil(() => handle.skipped().includes("/srv/plugged"), { what: "the directory skipped" });
    oc.ask(SERVER_DIR, "Ours?");
    await messageWith(telegram, "Ours?");
    expect(telegram.messages.some((m) => m.text.includes("Plugin's own?"))).toBe(false);
    expect(lines).toContain("Hermes: the Hermes plugin is loaded in OpenCode for /srv/plugged (opencode-hermes@0.1.0); leaving that directory to it");
    expect(oc.requests.filter((r) => r.directory === "/srv/plugged").map((r) => r.path)).toEqual(["/config"]);
  });

  it("at start-up, names in its one line the directories left to the plugin", async () => {
    const oc = await fakeOpencode();
    oc.plugins.set("/srv/plugged", ["opencode-hermes"]);
    const { handle, lines } = await attach(oc, { directories: ["/srv/plugged"] });
    await handle.ready;
    expect(handle.skipped()).toEqual(["/srv/plugged"]);
    expect(lines).toEqual([
      `Hermes attached to ${oc.url}: bridging ${SERVER_DIR} to Telegram chat ${CHAT}; leaving /srv/plugged to the Hermes plugin loaded there`,
    ]);
  });

  it("sends Basic auth everywhere, and stops with a clear error when the server refuses it", async () => {
    const oc = await fakeOpencode({ password: "s3cret" });
    const { handle, telegram } = await attach(oc, { auth: { username: "opencode", password: "s3cret" } });
    await handle.ready;
    oc.ask(SERVER_DIR, "Behind a password?");
    await messageWith(telegram, "Behind a password?");
    expect(oc.requests.every((r) => r.auth === `Basic ${Buffer.from("opencode:s3cret").toString("base64")}`)).toBe(true);
    await handle.stop();

    const wrong = await attach(oc, { auth: { username: "opencode", password: "nope" } });
    const error = await wrong.handle.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as AttachError).kind).toBe("auth");
    expect(wrong.lines).toEqual([expect.stringMatching(/refused the credentials \(HTTP 401\)\. Set OPENCODE_SERVER_PASSWORD/)]);
  });

  it("after a reconnect: delivers what was raised during the gap and closes what was resolved", async () => {
    const oc = await fakeOpencode();
    const { handle, telegram, lines } = await attach(oc);
    await handle.ready;
    oc.ask("/srv/b", "Answered in the gap?");
    const old = await messageWith(telegram, "Answered in the gap?");
    oc.streamStatus = 503;
    oc.dropStreams();
    await pollUntil(() => lines.some((l) => l.startsWith("Hermes: lost the event stream")), { what: "the drop reported" });
    oc.pending.set("/srv/b", []); // answered elsewhere while Hermes was away
    oc.ask(SERVER_DIR, "Raised in the gap?", true);
    oc.streamStatus = 200;
    await messageWith(telegram, "Raised in the gap?");
    await vi.waitFor(() => expect(old.text).toContain("No longer pending"), { timeout: 5_000 });
    expect(old.keyboard).toEqual([]);
    await pollUntil(() => lines.some((l) => l.startsWith(`Hermes: reconnected to ${oc.url}; resynced 2 directories`)), { what: "the reconnect reported" });
  });

  it("reopens the quiet stream of a server without heartbeats now and then, resyncing without a word", async () => {
    const oc = await fakeOpencode();
    const { handle, telegram, lines } = await attach(oc, {
      stream: { connectTimeoutMs: 2_000, heartbeatTimeoutMs: 300, backoff: { minTimeout: 20, maxTimeout: 100 } },
    });
    await handle.ready;
    oc.ask(SERVER_DIR, "Missed by the stream?", true);
    await messageWith(telegram, "Missed by the stream?");
    expect(lines).toEqual([`Hermes attached to ${oc.url}: bridging ${SERVER_DIR} to Telegram chat ${CHAT}`]);
  });

  it("with only the token set, answers /start so the user can find the chat id, until stopped", async () => {
    const telegram = new PollingTelegram();
    const lines: string[] = [];
    const handle = startAttach({
      url: "http://127.0.0.1:9",
      env: { HERMES_TELEGRAM_TOKEN: TOKEN, HERMES_LOG_FILE: "/dev/null" },
      telegram,
      report: (line) => lines.push(line),
    });
    handles.push(handle);
    await handle.ready;
    expect(lines).toEqual(["Hermes: HERMES_TELEGRAM_CHAT_ID is not set. Send /start to your bot: it replies with the chat id. (Ctrl-C to stop)"]);
    await handle.stop();
    await expect(handle.done).resolves.toBeUndefined();
  });

  it("stays off with the configuration problems as the error", async () => {
    const handle = startAttach({ url: "http://127.0.0.1:9", env: { HERMES_LOG_FILE: "/dev/null" } });
    const error = await handle.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as AttachError).kind).toBe("config");
    expect((error as AttachError).message).toMatch(/^Hermes is off: HERMES_TELEGRAM_TOKEN is not set/);
  });
});
