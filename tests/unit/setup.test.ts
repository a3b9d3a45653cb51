// `opencode-hermes setup` (lib/cli/setup.ts) against the fake Telegram Bot API: the test plays the human who
// presses Start. The real launcher is spawned in tests/e2e/setup-cli.test.ts.
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { PassThrough } from "node:stream";
import fs from "node:fs";
import os from "node:os";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "../../lib/cli/io.ts";
import { setup } from "../../lib/cli/setup.ts";
import type { SetupTuning } from "../../lib/cli/setup-tuning.ts";
import { relayAddress } from "../../lib/relay/address.ts";
import { ensurePrivateDirectory } from "../../lib/system/private-dir.ts";
import { createTelegramApi, TelegramApiError } from "../../lib/telegram/wire/api.ts";
import { DEFAULT_USER, parseTelegramHtml, startFakeTelegram, type FakeTelegram, type SentMessage, type TgUser } from "../support/fake-telegram.ts";
import { freePort } from "../support/free-port.ts";
import { pollUntil } from "../support/wait.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const CODE = "pairing-code_0123456789";
/** From a clone, setup names the clone's plugin.ts: the package is not on the registry (yet). */
const ENTRY = path.join(REPO, "plugin.ts");
/** What the bot posts to prove it can (the exact words users see). */
const TEST_MESSAGE = "Hermes is set up: OpenCode's questions will appear here.";
const GROUP_USER: TgUser = { id: 2002, is_bot: false, first_name: "Grace", username: "grace" };

let fake: FakeTelegram;
/** $XDG_CONFIG_HOME of every test: setup's opencode.json step never sees the real one. */
let configHome: string;
beforeEach(async () => {
  fake = await startFakeTelegram();
  configHome = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-setup-config-"));
});
afterEach(async () => {
  await fake.close();
  fs.rmSync(configHome, { recursive: true, force: true });
});
const configFile = () => path.join(configHome, "opencode", "opencode.json");

function terminal(env: Record<string, string | undefined> = {}, tuning: SetupTuning = {}, input?: CliIo["input"]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    env: { XDG_CONFIG_HOME: configHome, ...env },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    onSignal: () => () => undefined,
    ...(input ? { input, prompt: new PassThrough() } : {}),
    setup: { timeoutMs: 15_000, pollSeconds: 1, pairingCode: () => CODE, opencodeVersion: async () => undefined, ...tuning },
  };
  return { io, out, err, all: () => [...out, ...err].join("\n") };
}

const args = (...extra: string[]) => ["--token", fake.token, "--api-root", fake.apiRoot, ...extra];
const waitingFor = (lines: string[]) =>
  pollUntil(() => lines.some((line) => line.includes("press Start")), { what: "the instructions", context: () => lines.join("\n") });
/** What the user sees of a bot message (its HTML parsed the way Telegram does). */
const plain = (m: SentMessage) => {
  const parsed = parseTelegramHtml(m.text);
  return parsed.ok ? parsed.plain : `(bad HTML: ${parsed.error})`;
};
const getUpdatesCalls = () => fake.calls.filter((call) => call.method === "getUpdates");

/** What Telegram would deliver to a Hermes started now (nothing, when setup confirmed its /start). */
async function pendingUpdates(): Promise<unknown[]> {
  const response = await fetch(`${fake.apiRoot}/bot${fake.token}/getUpdates`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ offset: 0, timeout: 0 }),
  });
  return ((await response.json()) as { result: unknown[] }).result;
}

describe("opencode-hermes setup", () => {
  it("private chat: finds the chat on /start, prints the exact env lines and opencode.json entry, and checks the bot can post", async () => {
    const t = terminal();
    const status = setup(args(), t.io);
    await waitingFor(t.out);
    expect(t.out).toContain(`✅ The token works: the bot is @hermes_test_bot.`);
    expect(t.out).toContain(`Now open this link on the phone and press Start: https://t.me/hermes_test_bot?start=${CODE}`);
    expect(t.out.some((line) => line.includes(`https://t.me/hermes_test_bot?startgroup=${CODE}`))).toBe(true);
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    expect(await status, t.all()).toBe(0);

    expect(t.out).toContain(`export HERMES_TELEGRAM_TOKEN=${fake.token}`);
    expect(t.out).toContain(`export HERMES_TELEGRAM_CHAT_ID=${DEFAULT_USER.id}`);
    expect(t.out).toContain(`export HERMES_TELEGRAM_API_ROOT=${fake.apiRoot}`);
    expect(t.all()).not.toContain("HERMES_TELEGRAM_ALLOWED_USERS=");
    expect(t.out.some((line) => line.includes(`Your user id: ${DEFAULT_USER.id}`))).toBe(true);
    expect(t.out).toContain("✅ The bot can post in that chat: it just sent a test message.");
    // No terminal to ask: the change is shown, not made.
    expect(t.out).toContain(`    + ${JSON.stringify({ $schema: "https://opencode.ai/config.json", plugin: [ENTRY] }, null, 2).split("\n")[2]}`);
    expect(t.out.some((line) => line.startsWith("Not changed (no terminal to ask; --yes makes the change)."))).toBe(true);
    expect(fs.existsSync(configFile())).toBe(false);
    expect(t.out.at(-1)).toMatch(/^Almost done\. Add Hermes to opencode\.json as shown/);
    expect(t.err).toEqual([]);

    const sent = fake.messages(DEFAULT_USER.id);
    expect(sent).toHaveLength(2);
    expect(plain(sent[0]!)).toContain(`✅ Found this chat: ${DEFAULT_USER.id}.`);
    expect(sent[0]!.replyToMessageId).toBeDefined();
    expect(plain(sent[1]!)).toBe(TEST_MESSAGE);
    // The /start was confirmed: a Hermes started later doesn't get it (and answer it) again.
    expect(await pendingUpdates()).toEqual([]);
    expect(fake.maxConcurrentGetUpdates).toBe(1);
  });

  it("group chat: negative id, ALLOWED_USERS for the user who sent /start; skips other messages", async () => {
    const group = -1001234567890;
    const t = terminal();
    const status = setup(args(), t.io);
    await waitingFor(t.out);
    fake.sendText(group, "hello everyone", { from: GROUP_USER, chatType: "supergroup" });
    fake.sendText(group, "/start@some_other_bot", { from: GROUP_USER, chatType: "supergroup" });
    fake.sendText(group, `/start@hermes_test_bot ${CODE}`, { from: GROUP_USER, chatType: "supergroup" });
    expect(await status, t.all()).toBe(0);

    expect(t.out).toContain(`export HERMES_TELEGRAM_TOKEN=${fake.token}`);
    expect(t.out).toContain(`export HERMES_TELEGRAM_CHAT_ID=${group}`);
    expect(t.out).toContain(`export HERMES_TELEGRAM_ALLOWED_USERS=${GROUP_USER.id}`);
    expect(t.out.filter((line) => line.includes("not this setup's /start"))).toHaveLength(1);
    const sent = fake.messages(group);
    expect(sent.map(plain)).toEqual([expect.stringContaining(`✅ Found this chat: ${group}.`), TEST_MESSAGE]);
    expect(fake.messages(DEFAULT_USER.id)).toEqual([]);
  });

  it("pairs only with this setup's code: a stranger's earlier /start and a /start with a wrong or no code are ignored", async () => {
    const STRANGER: TgUser = { id: 6666, is_bot: false, first_name: "Mallory" };
    // Sent before setup began (even with a code-like argument): setup skips the backlog by offset.
    fake.sendText(STRANGER.id, "/start", { from: STRANGER });
    fake.sendText(STRANGER.id, `/start ${CODE}`, { from: STRANGER });
    const t = terminal();
    const status = setup(args(), t.io);
    await waitingFor(t.out);
    fake.sendText(STRANGER.id, "/start", { from: STRANGER });
    fake.sendText(STRANGER.id, "/start guessed-code", { from: STRANGER });
    await pollUntil(() => t.out.filter((line) => line.startsWith("(Ignored a /start")).length === 2, { what: "two ignored /start", context: () => t.all() });
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    expect(await status, t.all()).toBe(0);

    expect(t.out).toContain(`export HERMES_TELEGRAM_CHAT_ID=${DEFAULT_USER.id}`);
    expect(t.out.filter((line) => line.startsWith("(Ignored a /start"))).toEqual([
      "(Ignored a /start without this setup's code, from Mallory. Only the link above pairs.)",
      "(Ignored a /start without this setup's code, from Mallory. Only the link above pairs.)",
    ]);
    expect(fake.messages(STRANGER.id)).toEqual([]);
    expect(fake.messages(DEFAULT_USER.id)).toHaveLength(2);
  });

  it("prints names from Telegram escaped: no control or escape sequence reaches the terminal", async () => {
    const hostile = "Eve\u001b]0;pwned\u0007\u001b[2J\r\nexport HERMES_TELEGRAM_CHAT_ID=666\u202e";
    const EVE: TgUser = { id: 7777, is_bot: false, first_name: hostile };
    const t = terminal();
    const status = setup(args(), t.io);
    await waitingFor(t.out);
    fake.sendText(EVE.id, "/start nope", { from: EVE });
    fake.sendText(EVE.id, `/start ${CODE}`, { from: EVE });
    expect(await status, t.all()).toBe(0);
    const printed = t.all();
    expect(printed).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const shown = "Eve\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}\\u{a}export HERMES_TELEGRAM_CHAT_ID=666\\u{2…";
    expect(printed).toContain(`(Ignored a /start without this setup's code, from ${shown}.`);
    expect(printed).toContain(`(a private chat with ${shown})`);
    expect(t.out.filter((line) => line.startsWith("export HERMES_TELEGRAM_CHAT_ID="))).toEqual([`export HERMES_TELEGRAM_CHAT_ID=${EVE.id}`]);
  });

  it("a wrong token: Telegram's 401 becomes a clear message and status 1", async () => {
    const t = terminal();
    expect(await setup(["--token", "999:wrong-token", "--api-root", fake.apiRoot], t.io)).toBe(1);
    expect(t.err.join("\n")).toMatch(/Telegram rejected the token \(Telegram 401: Unauthorized\): the token is wrong/);
    expect(t.err.join("\n")).not.toContain("999:wrong-token");
    expect(getUpdatesCalls()).toEqual([]);
  });

  it("409 Conflict from a running poller: explains that Hermes answers /start itself, status 1, takes nothing", async () => {
    const held = new AbortController();
    const poll = fetch(`${fake.apiRoot}/bot${fake.token}/getUpdates`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ offset: 0, timeout: 30 }),
      signal: held.signal,
    }).catch(() => undefined);
    await pollUntil(() => getUpdatesCalls().some((call) => call.status === 0), { what: "the other poller's long poll" });
    try {
      const t = terminal();
      expect(await setup(args(), t.io), t.all()).toBe(1);
      const text = t.err.join("\n");
      expect(text).toContain("Another program is already polling this bot (Telegram answers 409 Conflict): most likely a running OpenCode with Hermes.");
      expect(text).toContain("Send /start to @hermes_test_bot in Telegram instead");
      expect(text).toContain("Hermes itself answers /start with the chat id");
      expect(fake.messages()).toEqual([]);
    } finally {
      held.abort();
      await poll;
    }
  });

  it("a Hermes polling on this machine (its relay socket answers): refuses before any getUpdates", async () => {
    const relay = net.createServer((socket) => socket.end());
    const address = relayAddress(fake.token, fake.apiRoot);
    ensurePrivateDirectory(path.dirname(address));
    await new Promise<void>((resolve) => relay.listen(address, resolve));
    try {
      const t = terminal();
      expect(await setup(args(), t.io)).toBe(1);
      expect(t.err.join("\n")).toMatch(/A running OpenCode with Hermes .* on this machine is already polling this bot/);
      expect(t.err.join("\n")).toContain("Hermes itself answers /start with the chat id");
      expect(getUpdatesCalls()).toEqual([]);
    } finally {
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it("nobody presses Start: gives up after the timeout with a clear message, status 1", async () => {
    const t = terminal({}, { timeoutMs: 1_500 });
    const began = Date.now();
    expect(await setup(args(), t.io)).toBe(1);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(t.out).toContain("Waiting up to 1.5 s for /start… (Ctrl-C to stop)");
    expect(t.err[0]).toBe("Nobody opened the setup link of @hermes_test_bot and pressed Start within 1.5 s.");
    expect(t.err[1]).toContain("Run opencode-hermes setup again and open the new link");
    expect(t.out.join("\n")).not.toContain("export ");
  });

  it("--timeout overrides the default", async () => {
    const t = terminal({}, { timeoutMs: 60_000 });
    expect(await setup(args("--timeout", "1s"), t.io)).toBe(1);
    expect(t.err[0]).toBe("Nobody opened the setup link of @hermes_test_bot and pressed Start within 1 s.");
  });

  it("Telegram unreachable: says which API root it could not reach", async () => {
    const root = `http://127.0.0.1:${await freePort()}`;
    const t = terminal();
    expect(await setup(["--token", fake.token, "--api-root", root], t.io)).toBe(1);
    expect(t.err.join("\n")).toContain(`can't reach Telegram at ${root}`);
    expect(t.err.join("\n")).not.toContain(fake.token.split(":")[1]!);
  });

  it("takes the token and API root from the environment", async () => {
    const t = terminal({ HERMES_TELEGRAM_TOKEN: fake.token, HERMES_TELEGRAM_API_ROOT: `${fake.apiRoot}/` });
    const status = setup([], t.io);
    await waitingFor(t.out);
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    expect(await status, t.all()).toBe(0);
    expect(t.out).toContain(`export HERMES_TELEGRAM_TOKEN=${fake.token}`);
  });

  it("asks for the token on a terminal; without one and no terminal: status 64", async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const t = terminal({}, {}, input);
    const status = setup(["--api-root", fake.apiRoot], t.io);
    input.write("not a token\n");
    input.write(`${fake.token}\n`);
    await waitingFor(t.out);
    expect(t.out.some((line) => line.startsWith("That does not look like a bot token"))).toBe(true);
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    await pollUntil(() => t.out.some((line) => line.includes("OpenCode loads what its plugin list names")), {
      what: "the opencode.json offer",
      context: () => t.all(),
    });
    input.write("n\n");
    expect(await status, t.all()).toBe(0);
    expect(t.out).toContain(`export HERMES_TELEGRAM_TOKEN=${fake.token}`);
    expect(fs.existsSync(configFile())).toBe(false);

    const piped = terminal({}, {}, new PassThrough());
    expect(await setup(["--api-root", fake.apiRoot], piped.io)).toBe(64);
    expect(piped.err[0]).toMatch(/^opencode-hermes setup: no bot token\. Pass --token/);

    const bad = terminal({ HERMES_TELEGRAM_TOKEN: "nonsense" });
    expect(await setup([], bad.io)).toBe(64);
    expect(bad.err[0]).toMatch(/HERMES_TELEGRAM_TOKEN does not look like a bot token/);
  });

  it("reads the token on a terminal without echoing it: the question shows, the token does not", async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const screen = Object.assign(new PassThrough(), { isTTY: true, columns: 80 });
    let shown = "";
    screen.on("data", (chunk: Buffer) => (shown += chunk.toString("utf8")));
    const t = terminal({}, {}, input);
    const status = setup(["--api-root", fake.apiRoot], { ...t.io, prompt: screen });
    await pollUntil(() => shown.includes("Bot token"), { what: "the question", context: () => shown });
    for (const character of fake.token) input.write(character);
    input.write("\r");
    await waitingFor(t.out);
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    await pollUntil(() => t.out.some((line) => line.includes("OpenCode loads what its plugin list names")), { what: "the offer", context: () => t.all() });
    input.write("n\r");
    expect(await status, t.all()).toBe(0);
    expect(shown).toContain("Bot token (not shown as you type): ");
    expect(shown).not.toContain(fake.token.split(":")[1]!.slice(0, 6));
    expect(shown).toContain("Write this change");
  });

  it("the bot can't post in the chat: reports Telegram's error with a hint, status 1", async () => {
    const api = (token: string, root: string) => {
      const real = createTelegramApi(token, root);
      return {
        ...real,
        sendMessage: () => Promise.reject(new TelegramApiError(403, "Forbidden: bot was kicked from the supergroup chat")),
      };
    };
    const t = terminal({}, { api });
    const status = setup(args(), t.io);
    await waitingFor(t.out);
    fake.sendText(-100777, `/start ${CODE}`, { from: GROUP_USER, chatType: "supergroup" });
    expect(await status, t.all()).toBe(1);
    expect(t.out).toContain("export HERMES_TELEGRAM_CHAT_ID=-100777");
    expect(t.err[0]).toBe("❌ The bot could not post in chat -100777: Telegram 403: Forbidden: bot was kicked from the supergroup chat.");
    expect(t.err[1]).toBe("Add @hermes_test_bot to the group again, then run opencode-hermes setup again.");
  });

  it("Ctrl-C while waiting: stops the long poll at once, status 130", async () => {
    const t = terminal();
    let interrupt: (() => void) | undefined;
    t.io.onSignal = (stop) => {
      interrupt = stop;
      return () => {
        interrupt = undefined;
      };
    };
    const status = setup(args(), t.io);
    await waitingFor(t.out);
    await pollUntil(() => getUpdatesCalls().some((call) => call.status === 0), { what: "setup's long poll" });
    interrupt!();
    expect(await status).toBe(130);
    expect(t.err).toEqual(["opencode-hermes setup: stopped."]);
    expect(interrupt).toBeUndefined();
  });

  it("usage errors: unknown flags, positionals, a bad --timeout or API root", async () => {
    for (const argv of [["--bogus"], ["extra"], ["--token", "1:a", "--timeout", "soon"], ["--token", "1:a", "--api-root", "ftp://x"]]) {
      const t = terminal();
      expect(await setup(argv, t.io), argv.join(" ")).toBe(64);
      expect(t.err[0]).toMatch(/^opencode-hermes/);
    }
    const help = terminal();
    expect(await setup(["--help"], help.io)).toBe(0);
    expect(help.out[0]).toMatch(/^Usage: opencode-hermes setup/);
  });
});

describe("opencode-hermes setup: adding Hermes to the global opencode.json", () => {
  const JSONC = `{
  // my settings
  "$schema": "https://opencode.ai/config.json",
  "theme": "tokyonight", /* inline */
  "plugin": [
    "opencode-wakatime", // time tracking
  ],
}
`;

  async function pairedSetup(extra: string[], input?: CliIo["input"], env: Record<string, string> = {}) {
    const t = terminal(env, { now: () => Date.UTC(2026, 10, 22, 12, 0, 0) }, input);
    const status = setup(args(...extra), t.io);
    await waitingFor(t.out);
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    return { t, status };
  }

  it("--yes: appends the entry to a JSONC file, keeping every comment, and keeps the old file as a backup", async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    fs.writeFileSync(configFile(), JSONC);
    const { t, status } = await pairedSetup(["--yes"]);
    expect(await status, t.all()).toBe(0);
    const after = fs.readFileSync(configFile(), "utf8");
    expect(after).toBe(JSONC.replace(`    "opencode-wakatime", // time tracking\n`, `    "${ENTRY}",\n    "opencode-wakatime", // time tracking\n`));
    const backup = `${configFile()}.bak-2026-11-22T12-00-00-000Z`;
    expect(fs.readFileSync(backup, "utf8")).toBe(JSONC);
    expect(t.out).toContain(`    +     "${ENTRY}",`);
    expect(t.out).toContain(`✅ Added "${ENTRY}" to ${configFile()} (the old file is kept as ${backup}).`);
    expect(t.out.at(-1)).toMatch(/^Done\. Set the variables above/);
  });

  it('with OpenCode 2 on the PATH: the clone\'s folder, as a file: URL, in "plugins" (2.0.15 skips a 1.x entry naming a file)', async () => {
    const t = terminal({}, { now: () => Date.UTC(2026, 10, 22, 12, 0, 0), opencodeVersion: async () => "2.0.15" });
    const status = setup(args("--yes"), t.io);
    await waitingFor(t.out);
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    expect(await status, t.all()).toBe(0);
    const folder = pathToFileURL(path.dirname(ENTRY)).href;
    expect(JSON.parse(fs.readFileSync(configFile(), "utf8"))).toEqual({ $schema: "https://opencode.ai/config.json", plugins: [folder] });
    expect(t.all()).toContain("OpenCode 2.0.15 loads a local plugin from its folder");
    // Run again: the folder is there, and it loads (it exists).
    const again = terminal({}, { opencodeVersion: async () => "2.0.15" });
    const second = setup(args("--yes"), again.io);
    await waitingFor(again.out);
    fake.sendText(DEFAULT_USER.id, `/start ${CODE}`);
    expect(await second, again.all()).toBe(0);
    expect(again.out).toContain(`✅ ${configFile()} already loads Hermes (${JSON.stringify(folder)}).`);
  });

  it("a symlinked config (dotfiles) stays a symlink: the change goes to its target, the old text to the backup", async () => {
    const dotfiles = path.join(configHome, "dotfiles");
    fs.mkdirSync(dotfiles, { recursive: true });
    fs.writeFileSync(path.join(dotfiles, "opencode.json"), JSONC, { mode: 0o640 });
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    // Relative, as dotfile managers make them.
    fs.symlinkSync(path.join("..", "dotfiles", "opencode.json"), configFile());
    const { t, status } = await pairedSetup(["--yes"]);
    expect(await status, t.all()).toBe(0);
    expect(fs.lstatSync(configFile()).isSymbolicLink()).toBe(true);
    const after = fs.readFileSync(path.join(dotfiles, "opencode.json"), "utf8");
    expect(after).toContain(`"${ENTRY}"`);
    expect(fs.statSync(path.join(dotfiles, "opencode.json")).mode & 0o777).toBe(0o640);
    const backup = `${configFile()}.bak-2026-11-22T12-00-00-000Z`;
    expect(fs.readFileSync(backup, "utf8")).toBe(JSONC);
    expect(fs.readdirSync(dotfiles)).toEqual(["opencode.json"]);
  });

  it("a dangling symlink: the new file is created where it points", async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    const target = path.join(configHome, "dotfiles", "opencode.json");
    fs.symlinkSync(target, configFile());
    const { t, status } = await pairedSetup(["--yes"]);
    expect(await status, t.all()).toBe(0);
    expect(fs.lstatSync(configFile()).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(target, "utf8"))).toEqual({ $schema: "https://opencode.ai/config.json", plugin: [ENTRY] });
  });

  it("asks on a terminal; yes creates a new file with the entry", async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    const { t, status } = await pairedSetup([], input);
    await pollUntil(() => t.out.some((line) => line.includes("(a new file)")), { what: "the offer", context: () => t.all() });
    input.write("y\n");
    expect(await status, t.all()).toBe(0);
    expect(JSON.parse(fs.readFileSync(configFile(), "utf8"))).toEqual({ $schema: "https://opencode.ai/config.json", plugin: [ENTRY] });
    expect(fs.readdirSync(path.dirname(configFile()))).toEqual(["opencode.json"]);
  });

  it("prefers an existing opencode.jsonc, and leaves a file that already loads Hermes alone", async () => {
    const jsonc = path.join(configHome, "opencode", "opencode.jsonc");
    fs.mkdirSync(path.dirname(jsonc), { recursive: true });
    const text = `{ "plugin": [[${JSON.stringify(ENTRY)}, { "chatId": 42 }]] } // mine\n`;
    fs.writeFileSync(jsonc, text);
    const { t, status } = await pairedSetup(["--yes"]);
    expect(await status, t.all()).toBe(0);
    expect(t.out).toContain(`✅ ${jsonc} already loads Hermes (${JSON.stringify([ENTRY, { chatId: 42 }])}).`);
    expect(fs.readFileSync(jsonc, "utf8")).toBe(text);
    expect(fs.readdirSync(path.dirname(jsonc))).toEqual(["opencode.jsonc"]);
  });

  it("replaces an entry that loads nothing (a name the registry does not have), keeping its options", async () => {
    const registry = http.createServer((_, res) => res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}'));
    await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(registry.address() as AddressInfo).port}/`;
      fs.mkdirSync(path.dirname(configFile()), { recursive: true });
      fs.writeFileSync(configFile(), '{ "plugin": [["opencode-hermes@0.2.0", { "chatId": 42 }]] }\n');
      const { t, status } = await pairedSetup(["--yes"], undefined, { npm_config_registry: url, XDG_CACHE_HOME: path.join(configHome, "cache") });
      expect(await status, t.all()).toBe(0);
      expect(t.out.join("\n")).toContain(
        `❌ Its entry opencode-hermes@0.2.0 is neither on the registry ${url} nor installed where OpenCode looks: OpenCode starts without Hermes.`,
      );
      expect(JSON.parse(fs.readFileSync(configFile(), "utf8"))).toEqual({ plugin: [[ENTRY, { chatId: 42 }]] });
    } finally {
      registry.close();
    }
  });

  it("leaves a file it can't parse alone and says what to add", async () => {
    fs.mkdirSync(path.dirname(configFile()), { recursive: true });
    fs.writeFileSync(configFile(), '{ "plugin": [ "a" ');
    const { t, status } = await pairedSetup(["--yes"]);
    expect(await status, t.all()).toBe(0);
    expect(t.err.join("\n")).toContain(`(Left ${configFile()} alone: it is not valid JSON(C)`);
    expect(t.err.join("\n")).toContain(`Add "${ENTRY}" to the "plugin" list of ${configFile()}`);
    expect(fs.readFileSync(configFile(), "utf8")).toBe('{ "plugin": [ "a" ');
  });
});
