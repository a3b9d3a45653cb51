// The bot token never reaches the log file or a toast, in whichever setting it was pasted (an easy
// slip: HERMES_TELEGRAM_CHAT_ID=<token>), whatever state the rest of the configuration is in, and
// also through a logger that an earlier instance created and a later one reuses.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { PluginInput } from "@opencode-ai/plugin";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const TOKEN = "7012345678:AAH-secret_value-of-the-bot-0123456789";
const SECRET_HALF = TOKEN.split(":")[1]!;
const TRANSCRIBE_KEY = "sk-transcribe-0123456789abcdef";
/** Nothing listens on port 9 (discard): anything Hermes sends there fails at once, with the token in the URL. */
const DEAD_API = "http://127.0.0.1:9";

/** Every setting but the token, as a variable and as its opencode.json option. */
const SETTINGS: Array<[variable: string, option: string]> = [
  ["HERMES_TELEGRAM_CHAT_ID", "chatId"],
  ["HERMES_TELEGRAM_ALLOWED_USERS", "allowedUsers"],
  ["HERMES_TELEGRAM_API_ROOT", "apiRoot"],
  ["HERMES_QUESTION_TTL", "questionTtl"],
  ["HERMES_PERMISSION_TTL", "permissionTtl"],
  ["HERMES_NOTIFY", "notify"],
  ["HERMES_DONE_AFTER", "doneAfter"],
  ["HERMES_LANGUAGE", "language"],
  ["HERMES_TELEGRAM_TOPICS", "topics"],
  ["HERMES_MACHINE_NAME", "machineName"],
  ["HERMES_LOG_FILE", "logFile"],
  ["HERMES_LOG_LEVEL", "logLevel"],
];

let dir: string;
let toasts: string[];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-token-"));
  toasts = [];
  vi.useFakeTimers({ toFake: ["setTimeout"] });
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A plugin module with its process state fresh (the state is process-wide on purpose: reset it for each case). */
async function freshPlugin() {
  delete (globalThis as Record<symbol, unknown>)[Symbol.for("hermes.process")];
  vi.resetModules();
  return await import("../../lib/plugin/plugin-instance.ts");
}

function input(): PluginInput {
  const client = {
    tui: { showToast: async ({ body }: { body: { message: string } }) => void toasts.push(body.message) },
    _client: { request: async () => ({ data: {}, response: new Response() }) },
  };
  return { client, directory: dir, worktree: dir, project: {}, $: undefined, serverUrl: new URL("http://127.0.0.1:9") } as unknown as PluginInput;
}

/** Every byte Hermes wrote under the test's directory (the log files wherever the settings put them), and every file name. */
function everythingWritten(): string {
  const parts: string[] = [];
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    parts.push(file);
    if (entry.isFile()) parts.push(fs.readFileSync(file, "utf8"));
  }
  return parts.join("\n");
}

function baseEnv(): Record<string, string> {
  return {
    HOME: dir,
    XDG_STATE_HOME: path.join(dir, "state"),
    XDG_CONFIG_HOME: path.join(dir, "config"),
    XDG_RUNTIME_DIR: dir,
    HERMES_TELEGRAM_TOKEN: TOKEN,
    HERMES_TRANSCRIBE_KEY: TRANSCRIBE_KEY,
    HERMES_TELEGRAM_API_ROOT: DEAD_API,
    HERMES_LOG_FILE: path.join(dir, "hermes.log"),
  };
}

async function run(env: Record<string, string>, options?: unknown): Promise<string> {
  const { startPlugin } = await freshPlugin();
  const hooks = startPlugin(input(), env, options);
  await vi.advanceTimersByTimeAsync(5_000);
  await hooks.dispose?.();
  const written = everythingWritten();
  expect(written.length).toBeGreaterThan(0);
  return written;
}

function expectNoSecret(text: string): void {
  expect(text).not.toContain(SECRET_HALF);
  expect(text).not.toContain(TRANSCRIBE_KEY);
}

describe("the bot token pasted into another setting", () => {
  it.each(SETTINGS)("in %s: not in the log file, not in the toast", async (variable) => {
    const written = await run({ ...baseEnv(), [variable]: TOKEN });
    expectNoSecret(written);
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toContain(variable);
    expectNoSecret(toasts.join("\n"));
  });

  it.each(SETTINGS)("in the opencode.json option for %s (%s): not in the log file, not in the toast", async (_variable, option) => {
    const written = await run({ ...baseEnv(), HERMES_TELEGRAM_CHAT_ID: "42" }, { [option]: TOKEN });
    expectNoSecret(written);
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toContain(`"${option}"`);
    expectNoSecret(toasts.join("\n"));
  });

  it("a token that does not even look like one (a bad HERMES_TELEGRAM_TOKEN) is still never quoted back", async () => {
    const odd = "not a token but secret 0123456789";
    const written = await run({ ...baseEnv(), HERMES_TELEGRAM_TOKEN: odd, HERMES_TELEGRAM_CHAT_ID: odd });
    expect(written).not.toContain(odd);
    expect(toasts.join("\n")).not.toContain(odd);
  });
});

describe("one logger per file, shared by instances in any state", () => {
  it("a logger made for a broken configuration scrubs the token for the valid instance that reuses it, and vice versa", async () => {
    const { loggerFor } = await freshPlugin();
    const settings = { file: path.join(dir, "shared.log"), level: "info" as const };
    // First an instance whose configuration is broken (no valid token to hand), then a valid one.
    const first = loggerFor(settings, { HOME: dir, HERMES_TELEGRAM_CHAT_ID: TOKEN });
    const second = loggerFor(settings, { ...baseEnv() });
    expect(second.logger).toBe(first.logger);
    first.logger.error({ url: `${DEAD_API}/bot${TOKEN}/getMe` }, `failed: ${TOKEN} and ${TRANSCRIBE_KEY}`);
    const text = fs.readFileSync(settings.file, "utf8");
    expect(text).toContain("failed: [redacted] and [redacted]");
    expectNoSecret(text);
  });
});
