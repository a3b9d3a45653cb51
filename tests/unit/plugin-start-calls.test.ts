// A plugin instance of OpenCode 1.x starts with its project instance, which has no pending prompt
// yet: Hermes asks OpenCode nothing at start. The first call through the plugin client makes
// OpenCode build its in-process API (3–4 MB, docs/performance.md): it waits for a real need, such as
// the first prompt's session title. Nor does it write a log line at the default level (logger-load.test.ts),
// nor load the bridge, which waits for the first event (on-demand-bridge.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PluginInput } from "@opencode-ai/plugin";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { sleep } from "../support/wait.ts";

let dir: string;
let calls: string[];
let telegram: FakeTelegram;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-start-"));
  calls = [];
  telegram = await startFakeTelegram();
});
afterEach(async () => {
  await telegram.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function input(): PluginInput {
  const answer = (method: string) => async (options: { url: string }) => {
    calls.push(`${method} ${options.url}`);
    return { data: options.url === "/session/{sessionID}" ? { id: "ses_1", title: "Fix the build", directory: dir } : [], response: new Response() };
  };
  const client = { tui: { showToast: async () => undefined }, _client: { get: answer("GET"), post: answer("POST") } };
  return { client, directory: dir, worktree: dir, project: {}, $: undefined, serverUrl: new URL("http://127.0.0.1:9") } as unknown as PluginInput;
}

it("a plugin instance asks OpenCode nothing at start, and asks on the first prompt", async () => {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("hermes.process")];
  vi.resetModules();
  const { startPlugin } = await import("../../lib/plugin/plugin-instance.ts");
  const env = {
    HOME: dir,
    XDG_STATE_HOME: path.join(dir, "state"),
    XDG_CONFIG_HOME: path.join(dir, "config"),
    XDG_RUNTIME_DIR: dir,
    HERMES_TELEGRAM_TOKEN: telegram.token,
    HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
    HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
    HERMES_LOG_FILE: path.join(dir, "hermes.log"),
  };
  const hooks = startPlugin(input(), env);
  // Started for good: it polls Telegram (and the relay is up).
  await vi.waitFor(() => expect(telegram.calls.some((call) => call.method === "getUpdates")).toBe(true), { timeout: 5_000 });
  await sleep(500);
  expect(calls).toEqual([]);
  // Nor Telegram anything but the long poll: the command menu and getMe wait for the bridge.
  expect([...new Set(telegram.calls.map((call) => call.method))]).toEqual(["getUpdates"]);
  // Nor does it write a line at the default level (start-up lines are debug): the logger is not even loaded.
  expect(fs.readFileSync(env.HERMES_LOG_FILE, "utf8")).toBe("");
  // Nor has it loaded the bridge (on-demand-bridge.ts): a waiting OpenCode does not need it.
  const bridge = () => (globalThis as Record<symbol, Map<string, { bridge: { loaded: boolean } }>>)[Symbol.for("hermes.hubs")]?.get(telegram.token)?.bridge;
  expect(bridge()?.loaded).toBe(false);

  const question = { id: "que_1", sessionID: "ses_1", questions: [{ question: "Go on?", header: "Go", options: [{ label: "Yes", description: "" }] }] };
  await hooks.event?.({ event: { type: "question.asked", properties: question } } as never);
  await telegram.waitForMessage((m) => m.text.includes("Go on?"), { timeoutMs: 5_000, what: "the question" });
  expect(bridge()?.loaded).toBe(true);
  // This process polls, so its bridge told Telegram the bot's commands and asked its name once loaded.
  await vi.waitFor(() => expect(telegram.calls.map((call) => call.method)).toEqual(expect.arrayContaining(["setMyCommands", "getMe"])), { timeout: 5_000 });
  await vi.waitFor(() => expect(calls).toContain("GET /session/{sessionID}"), { timeout: 5_000 });
  expect(fs.readFileSync(env.HERMES_LOG_FILE, "utf8")).toContain('"msg":"prompt asked"');
  await hooks.dispose?.();
});
