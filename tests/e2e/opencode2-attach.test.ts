// Attach mode against OpenCode 2.0.15: `opencode serve` WITHOUT the Hermes plugin, Hermes attached
// from outside over `GET /api/event` (through startAttachFor, which recognises OpenCode 2 by
// `GET /api/info`, and once through the `hermes` CLI), questions answered through the form routes
// and permissions through the permission route, both from the phone.
import { spawn } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeServer, startAttachFor } from "../../lib/attach/dispatch.ts";
import { AttachError, type AttachHandle } from "../../lib/attach/attach-mode.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { OPENCODE2_VERSION, startOpencode, type OpencodeServer } from "../support/opencode.ts";
import { startTcpProxy } from "../support/tcp-proxy.ts";
import { pollUntil } from "../support/wait.ts";
import { PACKAGE_ROOT } from "./question-suite.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "attach-e2e";
const AUTH = { username: "opencode", password: PASSWORD };
/** Reconnect quickly after the restart. */
const STREAM = { connectTimeoutMs: 3_000, heartbeatTimeoutMs: 20_000, backoff: { minTimeout: 200, maxTimeout: 1_000 } };
const color = (marker: string) => ({
  question: `Which color? [${marker}]`,
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
});

describe(`attach mode against OpenCode ${OPENCODE2_VERSION}`, () => {
  let telegram: FakeTelegram;
  let llm: MockLlm;
  let opencode: OpencodeServer;
  let env: Record<string, string>;
  let handle: AttachHandle | undefined;
  const lines: string[] = [];

  beforeAll(async () => {
    telegram = await startFakeTelegram({ token: `${randomInt(100_000, 999_999)}:attach2-${randomBytes(12).toString("hex")}` });
    llm = await startMockLlm();
    opencode = await startOpencode({ version: OPENCODE2_VERSION, llmBaseURL: llm.baseURL, plugins: [], permission: { shell: "ask" }, password: PASSWORD });
    const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-attach2-log-")), "hermes.log");
    env = {
      HERMES_TELEGRAM_TOKEN: telegram.token,
      HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
      HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
      HERMES_LOG_FILE: logFile,
    };
  }, 120_000);
  afterAll(async () => {
    await handle?.stop();
    await opencode?.stop();
    await llm?.close();
    await telegram?.close();
    if (env?.HERMES_LOG_FILE) fs.rmSync(path.dirname(env.HERMES_LOG_FILE), { recursive: true, force: true });
  });

  it("recognises OpenCode 2 by GET /api/info", async () => {
    expect(await probeServer({ url: opencode.url, auth: AUTH })).toEqual({ kind: "opencode2" });
    expect(await probeServer({ url: "http://127.0.0.1:9", auth: AUTH })).toEqual({ kind: "opencode1" });
  });

  it("bridges questions and permissions of the server's location from the phone", async () => {
    handle = startAttachFor({ url: opencode.url, auth: AUTH, env, report: (line) => lines.push(line), directories: [opencode.directory] });
    await handle.ready;
    expect(handle.attached()).toEqual([opencode.directory]);
    expect(lines.join("\n")).toContain("attached to OpenCode 2");

    const asking = await opencode.createSession();
    await opencode.prompt(asking.id, directive({ tool: "question", args: { questions: [color("attach2")] } }));
    const question = await telegram.waitForMessage((m) => m.text.includes("[attach2]") && telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "the question",
    });
    await telegram.tapButton(question, "Blue");
    expect((await llm.waitForToolResult((r) => r.content.includes("[attach2]"), { what: "answer" })).content).toContain("Blue");

    const running = await opencode.createSession();
    await opencode.prompt(running.id, directive({ tool: "shell", args: { command: "echo attached-permission" } }));
    const permission = await telegram.waitForMessage((m) => m.text.includes("echo attached-permission") && telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "the permission",
    });
    await telegram.tapButton(permission, "Allow once");
    expect((await llm.waitForToolResult((r) => r.content.includes("attached-permission"), { what: "shell output" })).content.trim()).toBe(
      "attached-permission",
    );
    await telegram.waitFor(
      () => telegram.messages().find((m) => m.messageId === permission.messageId && m.text.includes("Allowed once") && telegram.buttons(m).length === 0),
      { what: "permission settled" },
    );

    await handle.stop();
    handle = undefined;
  });

  it("the server is killed and started again: attach reconnects, resyncs, and bridges the next question", async () => {
    handle = startAttachFor({ url: opencode.url, auth: AUTH, env, report: (line) => lines.push(line), directories: [opencode.directory], stream: STREAM });
    await handle.ready;
    const from = lines.length;
    await opencode.kill();
    await opencode.start();
    await pollUntil(() => lines.slice(from).find((line) => /reconnected to .* resynced 1 location/.test(line)), {
      timeoutMs: 60_000,
      what: "the reconnect line",
      context: () => JSON.stringify(lines),
    });
    const asking = await opencode.createSession();
    await opencode.prompt(asking.id, directive({ tool: "question", args: { questions: [color("after-restart")] } }));
    const question = await telegram.waitForMessage((m) => m.text.includes("[after-restart]") && telegram.buttons(m).length > 0, {
      timeoutMs: 60_000,
      what: "the question after the restart",
    });
    await telegram.tapButton(question, "Red");
    expect((await llm.waitForToolResult((r) => r.content.includes("[after-restart]"), { what: "answer" })).content).toContain("Red");
    await handle.stop();
    handle = undefined;
  }, 120_000);

  it("cut off for a while: what was raised meanwhile is delivered, what was answered meanwhile is closed", async () => {
    const proxy = await startTcpProxy({ port: opencode.port });
    try {
      // A short watchdog: the frozen stream is noticed in seconds (2.x sends its heartbeat as an SSE comment).
      handle = startAttachFor({
        url: proxy.url,
        auth: AUTH,
        env,
        report: (line) => lines.push(line),
        directories: [opencode.directory],
        stream: { ...STREAM, heartbeatTimeoutMs: 4_000 },
      });
      await handle.ready;
      const early = await opencode.createSession();
      await opencode.prompt(early.id, directive({ tool: "question", args: { questions: [color("answered-in-gap")] } }));
      const earlyMessage = await telegram.waitForMessage((m) => m.text.includes("[answered-in-gap]") && telegram.buttons(m).length > 0, {
        timeoutMs: 60_000,
        what: "the early question",
      });
      const from = lines.length;
      proxy.freeze();
      const [pending] = (await opencode.pendingQuestions()).filter((form) => JSON.stringify(form).includes("answered-in-gap"));
      expect(await opencode.answerQuestion(pending, [["Red"]])).toBeLessThan(300);
      const late = await opencode.createSession();
      await opencode.prompt(late.id, directive({ tool: "question", args: { questions: [color("raised-in-gap")] } }));
      await pollUntil(async () => (await opencode.pendingQuestions()).some((form) => JSON.stringify(form).includes("raised-in-gap")), {
        what: "the question raised in the gap",
      });
      await pollUntil(() => lines.slice(from).find((line) => /lost the event stream/.test(line)), { timeoutMs: 30_000, what: "the silent stream noticed" });
      expect(telegram.messages().some((m) => m.text.includes("[raised-in-gap]"))).toBe(false);
      proxy.thaw();
      const lateMessage = await telegram.waitForMessage((m) => m.text.includes("[raised-in-gap]") && telegram.buttons(m).length > 0, {
        timeoutMs: 60_000,
        what: "the question raised in the gap",
      });
      await telegram.waitFor(
        () =>
          telegram.messages().find((m) => m.messageId === earlyMessage.messageId && m.text.includes("No longer pending") && telegram.buttons(m).length === 0),
        { timeoutMs: 30_000, what: "the early question closed" },
      );
      await telegram.tapButton(lateMessage, "Blue");
      expect((await llm.waitForToolResult((r) => r.content.includes("[raised-in-gap]"), { what: "answer" })).content).toContain("Blue");
      await handle.stop();
      handle = undefined;
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it("a location where the Hermes plugin is loaded is left to it; the others are bridged", async () => {
    const withPlugin = await opencode.addProject("with-hermes");
    const config = JSON.parse(fs.readFileSync(path.join(withPlugin, "opencode.json"), "utf8"));
    config.plugins = [PACKAGE_ROOT];
    fs.writeFileSync(path.join(withPlugin, "opencode.json"), JSON.stringify(config));
    handle = startAttachFor({ url: opencode.url, auth: AUTH, env, report: (line) => lines.push(line), directories: [withPlugin] });
    await handle.ready;
    expect(handle.skipped()).toEqual([withPlugin]);
    expect(handle.attached()).toEqual([opencode.directory]);
    await handle.stop();
    handle = undefined;
  });

  it("the hermes CLI probes the server first and reports refused credentials (exit 1)", async () => {
    const child = spawn(process.execPath, [path.join(REPO, "bin/opencode-hermes.mjs"), "attach", "--url", opencode.url, "--password", "wrong"], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(stderr).toContain("refused the credentials (HTTP 401)");
    expect(code).toBe(1);
  }, 60_000);

  it("wrong credentials: attach fails with an auth error", async () => {
    const refused = startAttachFor({ url: opencode.url, auth: { username: "opencode", password: "wrong" }, env, report: () => undefined });
    const error = await refused.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AttachError);
    expect((error as AttachError).kind).toBe("auth");
  });
});
