// Attach mode end to end: the real `opencode serve` WITHOUT the Hermes plugin, Hermes attached
// from outside over HTTP + /global/event (in-process through startAttach, so the test can stop it,
// and once through the `opencode-hermes` CLI), a scripted LLM and a fake Telegram. A TCP proxy between
// Hermes and OpenCode cuts Hermes off while OpenCode carries on; the server is also killed and
// started again on the same port and data. Run once per supported OpenCode version.
import { spawn } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AttachError, type AttachHandle } from "../../lib/attach/attach-mode.ts";
import { startAttach } from "../../lib/attach/runner.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram, type SentMessage } from "../support/fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { startOpencode, type OpencodeServer, type OpencodeVersion } from "../support/opencode.ts";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy.ts";
import { pollUntil, sleep } from "../support/wait.ts";
import type { Cell } from "./matrix.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const PLUGIN_PATH = path.join(REPO, "plugin.ts");
const E2E_TIMEOUT = 150_000;
const WAIT = { timeoutMs: 60_000 };
/** OpenCode's heartbeat comes every 10 s: a watchdog a little above that notices a frozen stream soon. */
const STREAM = { connectTimeoutMs: 3_000, heartbeatTimeoutMs: 12_000, backoff: { minTimeout: 200, maxTimeout: 1_000 } };

const color = (marker: string) => ({
  question: `Which color? [${marker}]`,
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
});
/** 1.1.53 requires `description`; 1.18.33 ignores it. */
const bash = (command: string) => ({ tool: "bash", args: { command, description: `run ${command}` } });

interface World {
  telegram: FakeTelegram;
  llm: MockLlm;
  opencode: OpencodeServer;
  logFile: string;
  env: Record<string, string>;
}

async function startWorld(version: OpencodeVersion, server: { password?: string; plugins?: string[] } = {}): Promise<World> {
  // A token of its own: processes polling one token (and Bot API root) elect one poller machine-wide
  // (lib/relay), and test runs in parallel must not meet there.
  const telegram = await startFakeTelegram({ token: `${randomInt(100_000, 999_999)}:attach-${randomBytes(12).toString("hex")}` });
  const llm = await startMockLlm();
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-attach-log-")), "hermes.log");
  const opencode = await startOpencode({
    version,
    llmBaseURL: llm.baseURL,
    plugins: server.plugins ?? [],
    permission: { bash: "ask" },
    ...(server.password ? { password: server.password } : {}),
  });
  const env = {
    HERMES_TELEGRAM_TOKEN: telegram.token,
    HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
    HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
    HERMES_TELEGRAM_ALLOWED_USERS: String(DEFAULT_CHAT_ID),
    HERMES_LOG_FILE: logFile,
    HERMES_LOG_LEVEL: "debug",
  };
  return { telegram, llm, opencode, logFile, env };
}

async function stopWorld(world: World | undefined): Promise<void> {
  await world?.opencode.stop();
  await world?.llm.close();
  await world?.telegram.close();
  if (world && !process.env.KEEP_TMP) fs.rmSync(path.dirname(world.logFile), { recursive: true, force: true });
}

function current(world: World, message: SentMessage): SentMessage {
  return world.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
}

/** A new session in `directory` whose LLM asks `marker`'s question; resolves once OpenCode has it pending. */
async function raiseQuestion(world: World, marker: string, directory = world.opencode.directory): Promise<{ id: string }> {
  const before = (await world.opencode.pendingQuestions({ directory })).map((q) => q.id);
  const session = await world.opencode.createSession({ directory });
  await world.opencode.prompt(session.id, directive({ tool: "question", args: { questions: [color(marker)] } }), { directory });
  return world.opencode.waitForQuestion({ directory, not: before, timeoutMs: 60_000 });
}

function onPhone(world: World, marker: string): Promise<SentMessage> {
  return world.telegram.waitForMessage((m) => m.text.includes(`[${marker}]`) && world.telegram.buttons(m).length > 0, {
    ...WAIT,
    what: `question ${marker} on the phone`,
  });
}

async function answerOnPhone(world: World, message: SentMessage, marker: string, label = "Blue"): Promise<void> {
  await world.telegram.tapButton(message, label);
  const result = await world.llm.waitForToolResult((r) => r.content.includes(marker), { ...WAIT, what: `the tool result of ${marker}` });
  expect(result.content).toContain(`"${label}"`);
  await settledAs(world, message, "Answered from Telegram");
}

function settledAs(world: World, message: SentMessage, status: string): Promise<SentMessage> {
  return world.telegram.waitFor(
    () => {
      const now = current(world, message);
      return now.text.includes(status) && world.telegram.buttons(now).length === 0 ? now : undefined;
    },
    { ...WAIT, what: `message ${message.messageId} settled as "${status}"` },
  );
}

function attachTo(world: World, url: string, lines: string[], auth?: { username: string; password: string }): AttachHandle {
  return startAttach({ url, env: world.env, report: (line) => lines.push(line), stream: STREAM, ...(auth ? { auth } : {}) });
}

function waitForLog(world: World, pattern: RegExp, what: string, from = 0): Promise<string> {
  return pollUntil(
    () =>
      fs
        .readFileSync(world.logFile, "utf8")
        .slice(from)
        .split("\n")
        .find((line) => pattern.test(line)),
    { ...WAIT, what: `${what} (in the Hermes log)` },
  );
}

function waitForLine(lines: string[], pattern: RegExp, what: string, from = 0): Promise<string> {
  return pollUntil(() => lines.slice(from).find((line) => pattern.test(line)), { ...WAIT, what, context: () => `status lines: ${JSON.stringify(lines)}` });
}

/** Runs the real CLI (bin/opencode-hermes.mjs) as a user would; resolves with its exit code and stderr. */
function runCli(args: string[], env: Record<string, string>, onLine?: (line: string, child: ReturnType<typeof spawn>) => void) {
  const child = spawn(process.execPath, [path.join(REPO, "bin/opencode-hermes.mjs"), ...args], {
    cwd: REPO,
    env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    stderr += text;
    for (const line of text.split("\n").filter(Boolean)) onLine?.(line, child);
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), 90_000);
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(killer);
      resolve({ code, stderr });
    }),
  );
}

export function attachSuite(cell: Cell): void {
  const { version } = cell;
  /** Measured: 1.18.33 sends `server.heartbeat` on /global/event every 10 s, 1.1.53 none. */
  const heartbeats = version !== "1.1.53";
  describe(`attach mode on OpenCode ${version}, no auth`, () => {
    let world: World;
    let proxy: TcpProxy;
    let handle: AttachHandle | undefined;
    const lines: string[] = [];
    let second: string;
    let attachedAt = 0;

    beforeAll(async () => {
      world = await startWorld(version);
      proxy = await startTcpProxy({ port: world.opencode.port });
      second = await world.opencode.addProject("second");
      handle = attachTo(world, proxy.url, lines);
      await handle.ready;
      attachedAt = Date.now();
    }, E2E_TIMEOUT);
    afterAll(async () => {
      await handle?.stop();
      await proxy?.close();
      await stopWorld(world);
    });

    it("bridges the server's directory from the start, and says so", () => {
      expect(handle!.attached()).toEqual([world.opencode.directory]);
      expect(lines).toEqual([`Hermes attached to ${proxy.url}: bridging ${world.opencode.directory} to Telegram chat ${DEFAULT_CHAT_ID}`]);
    });

    it(
      "questions in two directories and a permission are answered from Telegram",
      async () => {
        await raiseQuestion(world, "dir-one");
        await raiseQuestion(world, "dir-two", second);
        const one = await onPhone(world, "dir-one");
        const two = await onPhone(world, "dir-two");
        expect(one.text).toContain(path.basename(world.opencode.directory));
        expect(two.text).toContain("second");
        expect(handle!.attached().sort()).toEqual([world.opencode.directory, second].sort());
        expect(lines).toContain(`Hermes: now bridging ${second}`);
        await answerOnPhone(world, two, "dir-two", "Red");
        await answerOnPhone(world, one, "dir-one", "Blue");

        const session = await world.opencode.createSession({ directory: second });
        await world.opencode.prompt(session.id, directive(bash("echo attach-permission-ok")), { directory: second });
        const asked = await world.telegram.waitForMessage((m) => m.text.includes("echo attach-permission-ok") && world.telegram.buttons(m).length > 0, {
          ...WAIT,
          what: "the permission on the phone",
        });
        await world.telegram.tapButton(asked, "Allow once");
        const result = await world.llm.waitForToolResult((r) => r.content.includes("attach-permission-ok"), { ...WAIT, what: "the bash output" });
        expect(result.content).toContain("attach-permission-ok");
        await settledAs(world, asked, "Allowed once</b> from Telegram");
      },
      E2E_TIMEOUT,
    );

    it(
      "instance disposed while a question is pending: the message loses its buttons; the next question is delivered",
      async () => {
        await raiseQuestion(world, "before-dispose", second);
        const doomed = await onPhone(world, "before-dispose");
        expect((await world.opencode.request("POST", "/instance/dispose", { directory: second })).status).toBe(200);
        await settledAs(world, doomed, "No longer pending");
        await raiseQuestion(world, "after-dispose", second);
        await answerOnPhone(world, await onPhone(world, "after-dispose"), "after-dispose", "Red");
      },
      E2E_TIMEOUT,
    );

    it(
      "cut off from OpenCode: on reconnect, the question raised meanwhile is delivered and the one answered meanwhile is closed",
      async () => {
        await raiseQuestion(world, "answered-in-gap", second);
        const early = await onPhone(world, "answered-in-gap");
        const from = lines.length;

        // Until the stream has shown a heartbeat (the first comes 10 s after connecting), its silence
        // can't be told from that of a server that sends none: let one arrive first.
        if (heartbeats) await sleep(Math.max(0, attachedAt + 11_000 - Date.now()));
        const logFrom = fs.readFileSync(world.logFile, "utf8").length;
        proxy.freeze(); // the stream goes silent; reconnects hang until thawed
        const [pending] = (await world.opencode.pendingQuestions({ directory: second })).filter((q) => JSON.stringify(q).includes("answered-in-gap"));
        expect((await world.opencode.request("POST", `/question/${pending.id}/reply`, { directory: second, body: { answers: [["Red"]] } })).status).toBe(200);
        await raiseQuestion(world, "raised-in-gap");
        await waitForLog(world, /lost the event stream .*no data for \d+ s|event stream silent/, "the silent stream noticed", logFrom);
        // A reconnect now hangs at the frozen proxy: the connect timeout gives up on it, and says so.
        await waitForLine(lines, /^Hermes: waiting for OpenCode at .*\(no answer within 3000 ms of connecting\)$/, "the connect timeout", from);
        expect(world.telegram.messages().some((m) => m.text.includes("[raised-in-gap]"))).toBe(false);
        proxy.thaw();

        const late = await onPhone(world, "raised-in-gap");
        await settledAs(world, early, "No longer pending");
        await waitForLog(world, /reconnected to .*; resynced 2 directories/, "the resync", logFrom);
        const waiting = expect.stringMatching(/^Hermes: waiting for OpenCode/);
        const reconnected = expect.stringMatching(/^Hermes: reconnected to .*; resynced 2 directories$/);
        await waitForLine(lines, /^Hermes: reconnected to /, "the reconnect reported", from);
        if (heartbeats)
          expect(lines.slice(from)).toEqual([
            expect.stringMatching(/^Hermes: lost the event stream .*\(no data for \d+ s\); reconnecting$/),
            waiting,
            reconnected,
          ]);
        // 1.1.53 sends no heartbeat: its silent stream is reopened as routine, without a word, until
        // reopening fails.
        else expect(lines.slice(from)).toEqual([waiting, reconnected]);
        await answerOnPhone(world, late, "raised-in-gap", "Blue");
      },
      E2E_TIMEOUT,
    );

    it(
      "server killed and started again: its lost question is closed, and a question raised after the restart is answered",
      async () => {
        await raiseQuestion(world, "before-restart");
        const lost = await onPhone(world, "before-restart");
        const from = lines.length;
        await world.opencode.kill();
        await waitForLine(lines, /^Hermes: lost the event stream/, "the drop", from);
        await world.opencode.start();
        await waitForLine(lines, /^Hermes: reconnected to /, "the reconnect after the restart", from);
        await settledAs(world, lost, "No longer pending");

        await raiseQuestion(world, "after-restart", second);
        const fresh = await onPhone(world, "after-restart");
        await answerOnPhone(world, fresh, "after-restart", "Red");
      },
      E2E_TIMEOUT,
    );

    it(
      "stops cleanly: the bridge lets go of Telegram and OpenCode",
      async () => {
        await handle!.stop();
        await expect(handle!.done).resolves.toBeUndefined();
        handle = undefined;
        const log = fs.readFileSync(world.logFile, "utf8");
        expect(log).toContain("attach mode stopped");
        expect(log).not.toContain(world.telegram.token.split(":")[1]);
      },
      E2E_TIMEOUT,
    );

    it(
      "the opencode-hermes CLI attaches, bridges a question, and exits 0 on Ctrl-C",
      async () => {
        let flow: Promise<unknown> | undefined;
        const run = runCli(["attach", "--url", world.opencode.url], world.env, (line, child) => {
          if (flow || !line.startsWith("Hermes attached to")) return;
          flow = (async () => {
            try {
              await raiseQuestion(world, "via-cli");
              await answerOnPhone(world, await onPhone(world, "via-cli"), "via-cli", "Red");
            } finally {
              child.kill("SIGINT");
            }
          })().then(
            () => "ok",
            (error: unknown) => error,
          );
        });
        const { code, stderr } = await run;
        expect(stderr).toContain(`Hermes attached to ${world.opencode.url}: bridging ${world.opencode.directory}`);
        expect(await flow).toBe("ok");
        expect(world.llm.toolResults.some((r) => r.content.includes("via-cli") && r.content.includes('"Red"'))).toBe(true);
        expect(code).toBe(0);
      },
      E2E_TIMEOUT,
    );
  });

  describe(`attach mode on OpenCode ${version}, Basic auth`, () => {
    let world: World;
    let handle: AttachHandle | undefined;
    const lines: string[] = [];

    beforeAll(async () => {
      world = await startWorld(version, { password: "s3cret-pass" });
    }, E2E_TIMEOUT);
    afterAll(async () => {
      await handle?.stop();
      await stopWorld(world);
    });

    it(
      "without the password: one clear line, and it stops",
      async () => {
        const failed = attachTo(world, world.opencode.url, lines);
        const error = await failed.done.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(AttachError);
        expect((error as AttachError).kind).toBe("auth");
        expect(lines).toEqual([expect.stringMatching(/refused the credentials \(HTTP 401\)\. Set OPENCODE_SERVER_PASSWORD/)]);
      },
      E2E_TIMEOUT,
    );

    it(
      "with the password: a question is delivered and answered from Telegram",
      async () => {
        lines.length = 0;
        handle = attachTo(world, world.opencode.url, lines, { username: "opencode", password: "s3cret-pass" });
        await handle.ready;
        expect(handle.attached()).toEqual([world.opencode.directory]);
        await raiseQuestion(world, "with-auth");
        await answerOnPhone(world, await onPhone(world, "with-auth"), "with-auth", "Blue");
        expect((await world.opencode.request("GET", "/question", { auth: false })).status).toBe(401);
      },
      E2E_TIMEOUT,
    );
  });

  describe(`attach mode on OpenCode ${version}, Hermes plugin loaded in the server`, () => {
    let world: World;

    beforeAll(async () => {
      // The plugin is loaded but has no Telegram settings in the server's env, so it stays inert.
      world = await startWorld(version, { plugins: [PLUGIN_PATH] });
    }, E2E_TIMEOUT);
    afterAll(async () => {
      await stopWorld(world);
    });

    it(
      "the CLI says so in one line and exits with status 2",
      async () => {
        const { code, stderr } = await runCli(["attach", "--url", world.opencode.url], world.env);
        expect(code).toBe(2);
        expect(stderr).toContain(`the Hermes plugin is already loaded in the OpenCode server at ${world.opencode.url}`);
        expect(world.telegram.messages()).toEqual([]);
      },
      E2E_TIMEOUT,
    );
  });
}
