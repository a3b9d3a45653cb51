// `opencode-hermes doctor` against the fake Telegram and the real OpenCode 1.18.33 (on the PATH, and
// running with Hermes so that the relay check finds it polling): every line ✅ and exit 0 for a good
// setup; a wrong token, a chat the bot cannot post to (a blocked private chat, a group where members
// may not post), a group without an allow-list, and a missing plugin entry each give their ❌ line
// with its fix and exit 1. The token never appears in what doctor prints.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIo } from "../../lib/cli/io.ts";
import { main } from "../../lib/cli/main.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { startOpencode, type OpencodeServer } from "../support/opencode.ts";
import { opencodeBinary } from "../support/opencode/binary.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const PLUGIN = path.join(REPO, "plugin.ts");
const WRONG_TOKEN = "123456:WRONG-token-abcdefghijklmnopqrstuv";

describe("opencode-hermes doctor", { timeout: 120_000 }, () => {
  let telegram: FakeTelegram;
  let llm: MockLlm;
  let opencode: OpencodeServer;
  let scratch: string;
  let transcriber: http.Server;
  let transcribeUrl: string;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    llm = await startMockLlm();
    opencode = await startOpencode({
      version: "1.18.33",
      llmBaseURL: llm.baseURL,
      plugins: [PLUGIN],
      env: { HERMES_TELEGRAM_TOKEN: telegram.token, HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID), HERMES_TELEGRAM_API_ROOT: telegram.apiRoot },
    });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-doctor-"));
    fs.mkdirSync(path.join(scratch, "config", "opencode"), { recursive: true });
    fs.writeFileSync(path.join(scratch, "config", "opencode", "opencode.json"), JSON.stringify({ plugin: [PLUGIN] }));
    fs.mkdirSync(path.join(scratch, "empty-config"));
    fs.mkdirSync(path.join(scratch, "bare-project", ".git"), { recursive: true });
    transcriber = http.createServer((_, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => transcriber.listen(0, "127.0.0.1", resolve));
    transcribeUrl = `http://127.0.0.1:${(transcriber.address() as AddressInfo).port}/v1`;
  }, 120_000);

  afterAll(async () => {
    await opencode?.stop();
    await llm?.close();
    await telegram?.close();
    transcriber?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  /** The environment of a user whose setup is right; `change` adjusts it (undefined removes a variable). */
  function environment(change: Record<string, string | undefined> = {}): Record<string, string | undefined> {
    const env: Record<string, string | undefined> = {
      PATH: `${path.join(REPO, "node_modules", ".bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      HOME: path.join(scratch, "home"),
      XDG_CONFIG_HOME: path.join(scratch, "config"),
      // Where the running OpenCode's Hermes keeps its relay socket (no XDG_RUNTIME_DIR in its world).
      XDG_STATE_HOME: path.join(opencode.root, "xdg-state"),
      HERMES_LOG_FILE: path.join(scratch, "hermes.log"),
      HERMES_TELEGRAM_TOKEN: telegram.token,
      HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
      HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
      HERMES_TRANSCRIBE_URL: transcribeUrl,
      HERMES_TRANSCRIBE_KEY: "sk-doctor-secret-key-0123456789",
      // Any HTTP server of this user answers the speech check as it does the transcription one.
      HERMES_SPEECH_URL: transcribeUrl,
      ...change,
    };
    for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key];
    return env;
  }

  async function doctor(env: Record<string, string | undefined>, directory: string = opencode.directory) {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { env, out: (line) => out.push(line), err: (line) => err.push(line), onSignal: () => () => undefined };
    const status = await main(["doctor", "--directory", directory], io);
    const text = [...out, ...err].join("\n");
    expect(text).not.toContain(String(env.HERMES_TELEGRAM_TOKEN));
    expect(text).not.toContain(String(env.HERMES_TELEGRAM_TOKEN).split(":")[1]);
    expect(text).not.toContain("sk-doctor-secret-key");
    const checks = out.filter((line) => /^(✅|❌|➖) /.test(line));
    return { status, out, err, text, checks, problems: checks.filter((line) => line.startsWith("❌")) };
  }

  it("a good setup: every check ✅ (versions, both configs, token, chat, relay, transcription, speech, log), exit 0", async () => {
    const result = await doctor(environment());
    expect(result.err).toEqual([]);
    expect(
      result.checks.filter((line) => !line.startsWith("✅")),
      result.text,
    ).toEqual([]);
    expect(result.status, result.text).toBe(0);
    expect(result.checks.length).toBeGreaterThanOrEqual(10);
    expect(result.text).toMatch(/^✅ Node \d+\./m);
    expect(result.text).toMatch(/^✅ OpenCode 1\.18\.33\.$/m);
    expect(result.text).toContain("✅ The token works: the bot is @hermes_test_bot.");
    expect(result.text).toContain(`✅ The chat ${DEFAULT_CHAT_ID} is a private chat.`);
    expect(result.text).toContain("✅ @hermes_test_bot can post in the chat.");
    expect(result.text).toMatch(/^✅ An OpenCode with Hermes .* is polling @hermes_test_bot right now\.$/m);
    expect(result.text).toContain(`✅ The transcription service at ${transcribeUrl} answers (HTTP 404).`);
    expect(result.text).toContain(`✅ The speech service at ${transcribeUrl} answers (HTTP 404).`);
    expect(result.out.at(-1)).toBe("Nothing to fix.");
  });

  it("through the launcher (node bin/opencode-hermes.mjs doctor), as a user runs it: the same lines on stdout, exit 0", async () => {
    // Not spawnSync: the fake Telegram answers from this process.
    const child = spawn(process.execPath, [path.join(REPO, "bin", "opencode-hermes.mjs"), "doctor", "--directory", opencode.directory], {
      env: environment() as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const status = await new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    expect(status, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toContain("✅ The token works: the bot is @hermes_test_bot.");
    expect(stdout).not.toMatch(/^(❌|➖) /m);
    expect(`${stdout}${stderr}`).not.toContain(telegram.token.split(":")[1]);
  });

  it("a wrong token: its ❌ line with the fix, the chat not checked, exit 1", async () => {
    const result = await doctor(environment({ HERMES_TELEGRAM_TOKEN: WRONG_TOKEN }));
    expect(result.problems).toEqual([
      "❌ Telegram rejected the token (401: Unauthorized). Fix: the token is wrong or was revoked: copy it again from @BotFather (/mybots → your bot → API Token).",
    ]);
    expect(result.status).toBe(1);
  });

  it("a private chat that blocked the bot: ❌ it cannot post there, exit 1", async () => {
    telegram.setChatRights(2002, { blocked: true });
    const result = await doctor(environment({ HERMES_TELEGRAM_CHAT_ID: "2002" }));
    expect(result.problems).toEqual([
      "❌ @hermes_test_bot cannot post there (403: Forbidden: bot was blocked by the user). Fix: unblock @hermes_test_bot in Telegram.",
    ]);
    expect(result.status).toBe(1);
  });

  it("a group where members may not post and the bot is no admin: ❌ with the fix, exit 1", async () => {
    telegram.setChatRights(-1002002, { membersCanPost: false });
    const result = await doctor(environment({ HERMES_TELEGRAM_CHAT_ID: "-1002002", HERMES_TELEGRAM_ALLOWED_USERS: "1001" }));
    expect(result.problems).toEqual([
      "❌ Members may not send messages in the group, and @hermes_test_bot is not an admin. Fix: make @hermes_test_bot an admin, or let members send messages.",
    ]);
    expect(result.text).toContain("✅ Only user 1001 may answer in the group.");
    expect(result.status).toBe(1);
  });

  it("a group without an allow-list: ❌ Hermes stays off, with the fix, exit 1", async () => {
    const result = await doctor(environment({ HERMES_TELEGRAM_CHAT_ID: "-1003003" }));
    expect(result.problems).toEqual([
      "❌ The chat is a group and HERMES_TELEGRAM_ALLOWED_USERS is not set: Hermes stays off, so that not every member can approve. " +
        'Fix: export HERMES_TELEGRAM_ALLOWED_USERS=<your user id> (setup prints it), or "anyone".',
    ]);
    expect(result.text).toContain("✅ @hermes_test_bot can post in the group.");
    expect(result.status).toBe(1);
  });

  it("topics on in a group where the bot is no admin and privacy mode is on: ❌ for topics and for privacy, exit 1", async () => {
    telegram.setChatRights(-1004004, { isForum: true });
    const result = await doctor(environment({ HERMES_TELEGRAM_CHAT_ID: "-1004004", HERMES_TELEGRAM_ALLOWED_USERS: "1001", HERMES_TELEGRAM_TOPICS: "on" }));
    expect(result.problems).toEqual([
      "❌ HERMES_TELEGRAM_TOPICS is on but @hermes_test_bot may not manage topics. Fix: make @hermes_test_bot an admin with the right to manage topics.",
      "❌ @hermes_test_bot's privacy mode is on: it won't see a plain message in a session's topic. Fix: @BotFather → /setprivacy → Disable (or make @hermes_test_bot an admin).",
    ]);
    telegram.setChatRights(-1004004, { isForum: true, bot: "administrator", canManageTopics: true });
    const fixed = await doctor(environment({ HERMES_TELEGRAM_CHAT_ID: "-1004004", HERMES_TELEGRAM_ALLOWED_USERS: "1001", HERMES_TELEGRAM_TOPICS: "on" }));
    expect(fixed.problems, fixed.text).toEqual([]);
    expect(fixed.text).toContain('✅ The chat -1004004 is the supergroup "Test Group" (with topics).');
    expect(fixed.status).toBe(0);
  });

  it("a chat id that is not a number: one ❌ from the settings check, the chat not checked", async () => {
    const result = await doctor(environment({ HERMES_TELEGRAM_CHAT_ID: "my-chat" }));
    expect(result.problems).toEqual([
      '❌ Setting: HERMES_TELEGRAM_CHAT_ID must be a numeric chat id (got "my-chat"). Fix: change it as said (docs/configuration.md lists every setting).',
    ]);
    expect(result.text).toContain("➖ The chat was not checked: its id is not a number.");
    expect(result.status).toBe(1);
  });

  it("no plugin entry in the global config nor in the project: ❌ with the entry to add, exit 1", async () => {
    const config = path.join(scratch, "empty-config");
    const result = await doctor(environment({ XDG_CONFIG_HOME: config }), path.join(scratch, "bare-project"));
    expect(result.problems).toEqual([
      `❌ Neither the global config ${path.join(config, "opencode", "opencode.json")} nor this project loads Hermes. ` +
        `Fix: in ${path.join(config, "opencode", "opencode.json")}, add "${PLUGIN}" to its "plugin" list (OpenCode 2: "plugins"), or run node ${path.join(REPO, "bin", "opencode-hermes.mjs")} setup.`,
    ]);
    expect(result.status).toBe(1);
  });

  it("a misspelled variable and a bad optional value: ❌ each, named with the known one closest, exit 1", async () => {
    const result = await doctor(environment({ HERMES_TELEGRAM_CHATID: "1001", HERMES_STREAM: "maybe" }));
    expect(result.problems).toEqual([
      `❌ Ignored: HERMES_TELEGRAM_CHATID is not a Hermes setting and is ignored: did you mean HERMES_TELEGRAM_CHAT_ID? Fix: fix it or remove it (docs/configuration.md lists every setting); Hermes runs on the default meanwhile.`,
      `❌ Ignored: HERMES_STREAM must be on or off (got "maybe"): its default is used. Fix: fix it or remove it (docs/configuration.md lists every setting); Hermes runs on the default meanwhile.`,
    ]);
    expect(result.status).toBe(1);
  });

  it("an entry that resolves to nothing (a name the registry does not have, a path that is gone): ❌ with the entry that loads, exit 1", async () => {
    const registry = http.createServer((_, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}'));
    await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
      const config = path.join(scratch, "by-name-config");
      const file = path.join(config, "opencode", "opencode.json");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ plugin: ["opencode-hermes@0.2.0"] }));
      const env = environment({ XDG_CONFIG_HOME: config, XDG_CACHE_HOME: path.join(scratch, "empty-cache"), npm_config_registry: url });
      const byName = await doctor(env, path.join(scratch, "bare-project"));
      expect(byName.problems).toContain(
        `❌ Its entry opencode-hermes@0.2.0 is neither on the registry ${url} nor installed where OpenCode looks: OpenCode starts without Hermes. ` +
          `Fix: in ${file}, list "${PLUGIN}" instead (this clone's plugin.ts (OpenCode loads it as it is)); node ${path.join(REPO, "bin", "opencode-hermes.mjs")} setup writes it.`,
      );
      expect(byName.status).toBe(1);

      const gone = path.join(scratch, "gone", "hermes", "plugin.ts");
      fs.writeFileSync(file, JSON.stringify({ plugin: [gone] }));
      const byPath = await doctor(env, path.join(scratch, "bare-project"));
      expect(byPath.problems.some((line) => line.startsWith(`❌ Its entry ${gone} names ${gone}, which does not exist: OpenCode starts without Hermes.`))).toBe(
        true,
      );
      expect(byPath.status).toBe(1);
    } finally {
      registry.close();
    }
  });

  it('OpenCode 2.0.15 on the PATH and a 1.x entry naming plugin.ts (2.0.15 skips it): ❌ with the folder for "plugins"; that entry: no ❌ for it', async () => {
    const bin = path.join(scratch, "opencode2-bin");
    fs.mkdirSync(bin, { recursive: true });
    if (!fs.existsSync(path.join(bin, "opencode"))) fs.symlinkSync(opencodeBinary("2.0.15"), path.join(bin, "opencode"));
    const env = environment({ PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}` });
    const file = path.join(scratch, "config", "opencode", "opencode.json");
    const skipped = await doctor(env, path.join(scratch, "bare-project"));
    expect(skipped.checks).toContain("✅ OpenCode 2.0.15.");
    expect(skipped.problems).toContain(
      `❌ Its entry ${PLUGIN} names a file, which OpenCode 2.0.15 skips (a local plugin must be a folder): OpenCode starts without Hermes. ` +
        `Fix: in ${file}, list "${pathToFileURL(REPO).href}" in "plugins" instead.`,
    );
    expect(skipped.status).toBe(1);
    // Every fix names what this OpenCode loads: with no entry at all, the folder in "plugins".
    const none = await doctor({ ...env, XDG_CONFIG_HOME: path.join(scratch, "empty-config") }, path.join(scratch, "bare-project"));
    expect(none.problems.some((line) => line.includes(`add "${pathToFileURL(REPO).href}" to its "plugins" list, or run`))).toBe(true);

    const config = path.join(scratch, "opencode2-config");
    fs.mkdirSync(path.join(config, "opencode"), { recursive: true });
    fs.writeFileSync(path.join(config, "opencode", "opencode.json"), JSON.stringify({ plugins: [pathToFileURL(REPO).href] }));
    const folder = await doctor({ ...env, XDG_CONFIG_HOME: config }, path.join(scratch, "bare-project"));
    expect(folder.problems.filter((line) => line.includes("Its entry"))).toEqual([]);
    expect(folder.checks.some((line) => line.startsWith(`✅ Its entry ${pathToFileURL(REPO).href} is there`))).toBe(true);
  });

  it("an OpenCode running with the token whose entry loaded nothing: ❌ no Hermes polls for it, exit 1", async () => {
    const other = await startFakeTelegram({ token: "654321:DOCTOR-unloaded-abcdefghijklmnopq" });
    const gone = path.join(scratch, "gone-too", "hermes", "plugin.ts");
    const unloaded = await startOpencode({
      version: "1.18.33",
      llmBaseURL: llm.baseURL,
      globalConfig: { plugin: [gone] },
      env: { HERMES_TELEGRAM_TOKEN: other.token, HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID), HERMES_TELEGRAM_API_ROOT: other.apiRoot },
    });
    try {
      const env = environment({
        HERMES_TELEGRAM_TOKEN: other.token,
        HERMES_TELEGRAM_API_ROOT: other.apiRoot,
        // The same user: the global config that OpenCode reads.
        XDG_CONFIG_HOME: path.join(unloaded.root, "xdg-config"),
        XDG_CACHE_HOME: path.join(unloaded.root, "xdg-cache"),
        XDG_STATE_HOME: path.join(unloaded.root, "xdg-state"),
      });
      const result = await doctor(env, unloaded.directory);
      expect(result.problems.some((line) => line.startsWith(`❌ Its entry ${gone} names ${gone}, which does not exist`))).toBe(true);
      expect(
        result.problems.some((line) => /^❌ OpenCode \(pid \d+\) runs with this bot's token, but no Hermes polls the bot for it/.test(line)),
        result.text,
      ).toBe(true);
      expect(result.status).toBe(1);
    } finally {
      await unloaded.stop();
      await other.close();
    }
  });
});
