// The telegram_send_file tool as a plugin instance of OpenCode 1.x hands it out: registered when a
// chat is configured and HERMES_AGENT_TOOLS is on, and only then; its definition costs nothing at
// start (the bridge loads with the first call), its zod arguments are made when OpenCode reads them,
// and a call sends the project's file to the fake Telegram as a photo with its bytes.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Hooks, PluginInput, ToolContext } from "@opencode-ai/plugin";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 9, 8, 7]);

let dir: string;
let telegram: FakeTelegram;
let hooks: Hooks | undefined;
beforeEach(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-tool-")));
  telegram = await startFakeTelegram();
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("hermes.process")];
  vi.resetModules();
});
afterEach(async () => {
  await hooks?.dispose?.();
  hooks = undefined;
  await telegram.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function input(): PluginInput {
  const answer = async () => ({ data: [], response: new Response() });
  const client = { tui: { showToast: async () => undefined }, _client: { get: answer, post: answer } };
  return { client, directory: dir, worktree: "/", project: {}, $: undefined, serverUrl: new URL("http://127.0.0.1:9") } as unknown as PluginInput;
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: dir,
    XDG_STATE_HOME: path.join(dir, "state"),
    XDG_CONFIG_HOME: path.join(dir, "config"),
    XDG_RUNTIME_DIR: dir,
    HERMES_TELEGRAM_TOKEN: telegram.token,
    HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
    HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
    HERMES_LOG_FILE: path.join(dir, "hermes.log"),
    ...extra,
  };
}

async function start(extra: Record<string, string> = {}): Promise<Hooks> {
  const { startPlugin } = await import("../../lib/plugin/plugin-instance.ts");
  hooks = startPlugin(input(), env(extra));
  return hooks;
}

it("with a chat, the tool is registered; a call sends the project's PNG as a photo, loading the bridge only then", async () => {
  const tool = (await start()).tool?.telegram_send_file;
  expect(tool?.description).toContain("Send a file of this project to the user's phone");
  const bridge = () => (globalThis as Record<symbol, Map<string, { bridge: { loaded: boolean } }>>)[Symbol.for("hermes.hubs")]?.get(telegram.token)?.bridge;
  expect(bridge()?.loaded).toBe(false);
  // What OpenCode reads to build the tool's schema: zod schemas (1.1.53 puts them in its own z.object).
  const args = tool!.args as unknown as Record<string, { safeParse(value: unknown): { success: boolean } }>;
  expect(Object.keys(args)).toEqual(["path", "caption"]);
  expect(args.path!.safeParse("shot.png").success).toBe(true);
  expect(args.path!.safeParse(3).success).toBe(false);
  expect(args.caption!.safeParse(undefined).success).toBe(true);

  fs.writeFileSync(path.join(dir, "shot.png"), PNG);
  const context = { sessionID: "ses_1", messageID: "msg_1", agent: "build", directory: dir, worktree: "/", abort: new AbortController().signal } as ToolContext;
  const result = await tool!.execute({ path: "shot.png", caption: "the page" }, context);
  expect(result).toContain("Sent shot.png (15 bytes) to the user's Telegram chat as a photo");
  expect(bridge()?.loaded).toBe(true);
  const photo = await telegram.waitForMessage((m) => m.photo !== undefined, { timeoutMs: 5_000, what: "the photo" });
  expect(photo.photo!.data.equals(PNG)).toBe(true);
  expect(photo.text).toContain("the page");

  const refused = await tool!.execute({ path: "/etc/hostname" }, context).catch((error: unknown) => error);
  expect((refused as Error).message).toContain('not sent (rule "outside-project")');
});

it("HERMES_AGENT_TOOLS=off registers no tool", async () => {
  expect((await start({ HERMES_AGENT_TOOLS: "off" })).tool).toBeUndefined();
});

it("without a chat (setup: only the token), there is no tool", async () => {
  const { HERMES_TELEGRAM_CHAT_ID: _chat, ...noChat } = env();
  const { startPlugin } = await import("../../lib/plugin/plugin-instance.ts");
  hooks = startPlugin(input(), noChat);
  expect(hooks.tool).toBeUndefined();
});
