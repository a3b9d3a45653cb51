import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_API_ROOT,
  DEFAULT_QUESTION_TTL_MS,
  defaultLogFile,
  readConfig,
  readLogSettings,
  type ConfigResult,
  type HermesConfig,
} from "../../lib/config/config.ts";

const TOKEN = "123456789:AAF-abc_DEF123xyz";
const BASE = { HOME: "/home/tester", HERMES_TELEGRAM_TOKEN: TOKEN, HERMES_TELEGRAM_CHAT_ID: "42" };

function ok(result: ConfigResult): HermesConfig {
  if (!result.ok) throw new Error(`expected ok, got problems: ${result.problems.join(" | ")}`);
  return result.config;
}

/** What is reported: the problems that turn Hermes off, then what it ignores for the defaults (and runs). */
function problems(result: ConfigResult): string[] {
  if (result.ok) {
    if (!result.config.ignored?.length) throw new Error("expected problems, got ok");
    return result.config.ignored;
  }
  return [...result.problems, ...result.ignored];
}

/** What Hermes ignores for the defaults while it stays on (a bad optional value, an unknown variable). */
function ignored(result: ConfigResult): string[] {
  if (!result.ok) throw new Error(`expected ok, got problems: ${result.problems.join(" | ")}`);
  return result.config.ignored ?? [];
}

describe("readConfig: complete and default settings", () => {
  it("accepts the minimal env and fills every default", () => {
    expect(readConfig(BASE)).toEqual({
      ok: true,
      config: {
        token: TOKEN,
        chatId: 42,
        allowedUsers: [],
        apiRoot: DEFAULT_API_ROOT,
        questionTtlMs: DEFAULT_QUESTION_TTL_MS,
        permissionTtlMs: 0,
        notify: "all",
        doneAfterMs: 30_000,
        stallAfterMs: 600_000,
        language: "en",
        topics: false,
        progress: true,
        agentTools: true,
        log: { file: "/home/tester/.local/state/hermes/hermes.log", level: "info" },
      },
    });
  });

  it("exposes the documented defaults", () => {
    expect(DEFAULT_API_ROOT).toBe("https://api.telegram.org");
    expect(DEFAULT_QUESTION_TTL_MS).toBe(1_800_000);
  });

  it("reads every variable", () => {
    const config = ok(
      readConfig({
        HERMES_TELEGRAM_TOKEN: TOKEN,
        HERMES_TELEGRAM_CHAT_ID: "-1001234567890",
        HERMES_TELEGRAM_ALLOWED_USERS: "11,22",
        HERMES_TELEGRAM_API_ROOT: "http://localhost:8081",
        HERMES_QUESTION_TTL: "2h",
        HERMES_PERMISSION_TTL: "10m",
        HERMES_NOTIFY: "errors",
        HERMES_DONE_AFTER: "2m",
        HERMES_STALL_AFTER: "15s",
        HERMES_LANGUAGE: "zh-CN",
        HERMES_TELEGRAM_TOPICS: "on",
        HERMES_PROGRESS: "off",
        HERMES_AGENT_TOOLS: "off",
        HERMES_LOG_FILE: "/var/log/hermes.log",
        HERMES_LOG_LEVEL: "debug",
      }),
    );
    expect(config).toEqual({
      token: TOKEN,
      chatId: -1001234567890,
      allowedUsers: [11, 22],
      apiRoot: "http://localhost:8081",
      questionTtlMs: 7_200_000,
      permissionTtlMs: 600_000,
      notify: "errors",
      doneAfterMs: 120_000,
      stallAfterMs: 15_000,
      language: "zh",
      topics: true,
      progress: false,
      agentTools: false,
      log: { file: "/var/log/hermes.log", level: "debug" },
    });
  });

  it("trims whitespace around every value", () => {
    const config = ok(
      readConfig({
        HOME: "/h",
        HERMES_TELEGRAM_TOKEN: `  ${TOKEN}\n`,
        HERMES_TELEGRAM_CHAT_ID: " 42 ",
        HERMES_TELEGRAM_ALLOWED_USERS: " 7 , 8 ",
        HERMES_TELEGRAM_API_ROOT: " https://example.org/tg ",
        HERMES_QUESTION_TTL: " 90s ",
        HERMES_LOG_FILE: " /tmp/x.log ",
        HERMES_LOG_LEVEL: " warn ",
      }),
    );
    expect(config.token).toBe(TOKEN);
    expect(config.chatId).toBe(42);
    expect(config.allowedUsers).toEqual([7, 8]);
    expect(config.apiRoot).toBe("https://example.org/tg");
    expect(config.questionTtlMs).toBe(90_000);
    expect(config.log).toEqual({ file: "/tmp/x.log", level: "warn" });
  });
});

describe("readConfig: token", () => {
  it("reports a missing token", () => {
    const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_TOKEN: undefined }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/HERMES_TELEGRAM_TOKEN is not set/);
    expect(list[0]).toMatch(/BotFather/);
  });

  it("treats a blank token as missing", () => {
    expect(problems(readConfig({ ...BASE, HERMES_TELEGRAM_TOKEN: "   " }))[0]).toMatch(/HERMES_TELEGRAM_TOKEN is not set/);
  });

  it.each(["abc", "123456", ":ABC", "123456:", "abc:DEF", "123 456:ABC", "123456:AB C", "123456:ABC/../x", "123456:ABC?x=1"])(
    "rejects the malformed token %j",
    (token) => {
      const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_TOKEN: token }));
      expect(list).toHaveLength(1);
      expect(list[0]).toMatch(/HERMES_TELEGRAM_TOKEN does not look like a bot token/);
    },
  );

  it("never echoes a malformed token back in a problem", () => {
    const token = "123456:secret value";
    const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_TOKEN: token }));
    expect(list.join("\n")).not.toContain("secret value");
  });
});

describe("readConfig: chat id", () => {
  it.each([
    ["42", 42],
    ["-42", -42],
    ["-1001234567890", -1001234567890],
    ["9007199254740991", Number.MAX_SAFE_INTEGER],
  ])("accepts %j", (raw, id) => {
    expect(ok(readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: raw, HERMES_TELEGRAM_ALLOWED_USERS: "7" })).chatId).toBe(id);
  });

  it.each(["abc", "12.5", "1e5", "+42", "0x2a", "42abc", "- 42", "--42", "9007199254740993", "4 2", "@channel"])("rejects %j with a clear problem", (raw) => {
    const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: raw }));
    expect(list).toEqual([`HERMES_TELEGRAM_CHAT_ID must be a numeric chat id (got "${raw}")`]);
  });

  it("reports a missing chat id with the /start hint", () => {
    const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: undefined }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/HERMES_TELEGRAM_CHAT_ID is not set/);
    expect(list[0]).toMatch(/\/start/);
  });
});

describe("readConfig: setupToken", () => {
  it("is set when only the chat id is missing", () => {
    const result = readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: "" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.setupToken).toBe(TOKEN);
    expect(result.apiRoot).toBe(DEFAULT_API_ROOT);
    expect(result.log).toEqual({ file: "/home/tester/.local/state/hermes/hermes.log", level: "info" });
  });

  it("is the trimmed token", () => {
    const result = readConfig({ ...BASE, HERMES_TELEGRAM_TOKEN: ` ${TOKEN} `, HERMES_TELEGRAM_CHAT_ID: "  " });
    expect(result.ok === false && result.setupToken).toBe(TOKEN);
  });

  it("carries the configured api root so /start goes to the right server", () => {
    const result = readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: undefined, HERMES_TELEGRAM_API_ROOT: "http://127.0.0.1:8081/" });
    expect(result.ok === false && result.setupToken).toBe(TOKEN);
    expect(result.ok === false && result.apiRoot).toBe("http://127.0.0.1:8081");
  });

  it.each<[string, Record<string, string | undefined>]>([
    ["the token is missing too", { HERMES_TELEGRAM_TOKEN: undefined, HERMES_TELEGRAM_CHAT_ID: undefined }],
    ["the token is malformed", { HERMES_TELEGRAM_TOKEN: "nope", HERMES_TELEGRAM_CHAT_ID: undefined }],
    ["the chat id is invalid rather than missing", { HERMES_TELEGRAM_CHAT_ID: "abc" }],
    ["allowed users are invalid too", { HERMES_TELEGRAM_CHAT_ID: undefined, HERMES_TELEGRAM_ALLOWED_USERS: "x" }],
    ["the api root is invalid too", { HERMES_TELEGRAM_CHAT_ID: undefined, HERMES_TELEGRAM_API_ROOT: "ftp://x" }],
  ])("is absent when %s", (_name, overrides) => {
    const result = readConfig({ ...BASE, ...overrides });
    expect(result.ok).toBe(false);
    expect(result).not.toHaveProperty("setupToken");
  });

  it.each<[string, Record<string, string | undefined>]>([
    ["the TTL is invalid too", { HERMES_TELEGRAM_CHAT_ID: undefined, HERMES_QUESTION_TTL: "soon" }],
    ["the log level is invalid too", { HERMES_TELEGRAM_CHAT_ID: undefined, HERMES_LOG_LEVEL: "loud" }],
  ])("is there when %s (an optional value is ignored, never what stops /start from answering)", (_name, overrides) => {
    const result = readConfig({ ...BASE, ...overrides });
    expect(result.ok === false && result.setupToken).toBe(TOKEN);
    expect(result.ok === false && result.ignored).toHaveLength(1);
  });

  it("never appears on success", () => {
    expect(readConfig(BASE)).not.toHaveProperty("setupToken");
  });
});

describe("readConfig: allowed users", () => {
  it.each([
    ["", []],
    ["   ", []],
    [",,,", []],
    ["5", [5]],
    ["1,2,3", [1, 2, 3]],
    [" 1 , 2 ,, 3 ,", [1, 2, 3]],
    ["9007199254740991", [Number.MAX_SAFE_INTEGER]],
  ])("parses %j", (raw, users) => {
    expect(ok(readConfig({ ...BASE, HERMES_TELEGRAM_ALLOWED_USERS: raw })).allowedUsers).toEqual(users);
  });

  it.each(["abc", "-5", "1.5", "1e3", "1;2", "1 2", "@bob", "9007199254740993"])("rejects the bad entry %j", (entry) => {
    const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_ALLOWED_USERS: `1,${entry}` }));
    expect(list).toEqual([`HERMES_TELEGRAM_ALLOWED_USERS must be comma-separated numeric user ids, or "anyone" (bad entry "${entry}")`]);
  });

  it("reports every bad entry", () => {
    const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_ALLOWED_USERS: "x,1,y" }));
    expect(list).toHaveLength(2);
    expect(list[0]).toContain('"x"');
    expect(list[1]).toContain('"y"');
  });
});

describe("readConfig: a group chat needs an allow-list or the explicit opt-in", () => {
  const GROUP = { ...BASE, HERMES_TELEGRAM_CHAT_ID: "-1001234567890" };

  it("refuses a group chat without HERMES_TELEGRAM_ALLOWED_USERS, saying how to fix it", () => {
    for (const allowed of [undefined, "", " , "]) {
      const list = problems(readConfig({ ...GROUP, HERMES_TELEGRAM_ALLOWED_USERS: allowed }));
      expect(list).toEqual([
        'HERMES_TELEGRAM_ALLOWED_USERS is required for a group chat (or "allowedUsers" in opencode.json): list the user ids who may answer (comma-separated), or set it to "anyone" to let every member of the group answer',
      ]);
    }
  });

  it("accepts a group with a list of users", () => {
    expect(ok(readConfig({ ...GROUP, HERMES_TELEGRAM_ALLOWED_USERS: "7,8" })).allowedUsers).toEqual([7, 8]);
  });

  it.each(["anyone", " Anyone ", "ANYONE"])("accepts a group with the opt-in %j (an empty list: every member)", (raw) => {
    const config = ok(readConfig({ ...GROUP, HERMES_TELEGRAM_ALLOWED_USERS: raw }));
    expect(config.chatId).toBe(-1001234567890);
    expect(config.allowedUsers).toEqual([]);
  });

  it("keeps a private chat as it was: no list needed (only its one user can write there)", () => {
    expect(ok(readConfig(BASE)).allowedUsers).toEqual([]);
  });

  it("does not accept anyone inside a list", () => {
    expect(problems(readConfig({ ...GROUP, HERMES_TELEGRAM_ALLOWED_USERS: "1,anyone" }))[0]).toContain('(bad entry "anyone")');
  });
});

describe("readConfig: api root", () => {
  it.each([
    ["https://api.telegram.org/", "https://api.telegram.org"],
    ["https://api.telegram.org///", "https://api.telegram.org"],
    ["http://localhost:8081/", "http://localhost:8081"],
    ["https://proxy.example/tg/", "https://proxy.example/tg"],
    ["HTTPS://EXAMPLE.ORG", "HTTPS://EXAMPLE.ORG"],
  ])("normalises %j to %j", (raw, root) => {
    expect(ok(readConfig({ ...BASE, HERMES_TELEGRAM_API_ROOT: raw })).apiRoot).toBe(root);
  });

  it("falls back to the default when blank", () => {
    expect(ok(readConfig({ ...BASE, HERMES_TELEGRAM_API_ROOT: "  " })).apiRoot).toBe(DEFAULT_API_ROOT);
  });

  it.each(["ftp://example.org", "example.org", "not a url", "file:///etc/passwd", "javascript:alert(1)", "/relative"])("rejects %j", (raw) => {
    const list = problems(readConfig({ ...BASE, HERMES_TELEGRAM_API_ROOT: raw }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^HERMES_TELEGRAM_API_ROOT must be an http\(s\) URL/);
    expect(list[0]).toContain(raw);
  });
});

describe("readConfig: question TTL", () => {
  it.each([
    ["0", 0],
    ["0s", 0],
    ["1500", 1500],
    ["90s", 90_000],
    ["30m", 1_800_000],
    ["2h", 7_200_000],
  ])("reads %j as %i ms", (raw, ms) => {
    expect(ok(readConfig({ ...BASE, HERMES_QUESTION_TTL: raw })).questionTtlMs).toBe(ms);
  });

  it("keeps 0 (never expire) instead of falling back to the default", () => {
    expect(ok(readConfig({ ...BASE, HERMES_QUESTION_TTL: "0" })).questionTtlMs).toBe(0);
  });

  it("uses the default when blank", () => {
    expect(ok(readConfig({ ...BASE, HERMES_QUESTION_TTL: " " })).questionTtlMs).toBe(DEFAULT_QUESTION_TTL_MS);
  });

  it("reads HERMES_TELEGRAM_TOPICS, which needs a group chat", () => {
    expect(ok(readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: "-1001", HERMES_TELEGRAM_ALLOWED_USERS: "7", HERMES_TELEGRAM_TOPICS: "1" })).topics).toBe(true);
    expect(problems(readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: "42", HERMES_TELEGRAM_TOPICS: "on" }))[0]).toMatch(/needs a supergroup/);
    expect(problems(readConfig({ ...BASE, HERMES_TELEGRAM_TOPICS: "maybe" }))[0]).toMatch(/^HERMES_TELEGRAM_TOPICS must be on or off/);
  });

  it("reads HERMES_MACHINE_NAME, trimmed; unset or blank means none (the host name is decided where it is shown)", () => {
    expect(ok(readConfig({ ...BASE, HERMES_MACHINE_NAME: "  build-box  " })).machineName).toBe("build-box");
    expect(ok(readConfig(BASE)).machineName).toBeUndefined();
    expect(ok(readConfig({ ...BASE, HERMES_MACHINE_NAME: "   " })).machineName).toBeUndefined();
  });

  it("reads HERMES_LANGUAGE (en, zh, zh-CN…) and rejects anything else", () => {
    expect(ok(readConfig(BASE)).language).toBe("en");
    expect(ok(readConfig({ ...BASE, HERMES_LANGUAGE: "zh_Hans" })).language).toBe("zh");
    expect(problems(readConfig({ ...BASE, HERMES_LANGUAGE: "fr" }))[0]).toMatch(/^HERMES_LANGUAGE must be en or zh/);
  });

  it("reads HERMES_NOTIFY (all, errors, off) and rejects anything else", () => {
    expect(ok(readConfig({ ...BASE, HERMES_NOTIFY: "OFF" })).notify).toBe("off");
    expect(problems(readConfig({ ...BASE, HERMES_NOTIFY: "loud" }))[0]).toMatch(/^HERMES_NOTIFY must be one of all, errors, off/);
  });

  it("reads HERMES_PERMISSION_TTL the same way, off by default", () => {
    expect(ok(readConfig(BASE)).permissionTtlMs).toBe(0);
    expect(ok(readConfig({ ...BASE, HERMES_PERMISSION_TTL: "90s" })).permissionTtlMs).toBe(90_000);
    expect(problems(readConfig({ ...BASE, HERMES_PERMISSION_TTL: "later" }))[0]).toMatch(/^HERMES_PERMISSION_TTL must be milliseconds/);
  });

  it.each(["soon", "-1", "1d", "30 minutes", "1h30m"])("rejects %j with a clear problem", (raw) => {
    const list = problems(readConfig({ ...BASE, HERMES_QUESTION_TTL: raw }));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^HERMES_QUESTION_TTL must be milliseconds or a duration like 90s, 30m, 2h; 0 = never/);
    expect(list[0]).toContain(`(got "${raw}")`);
  });
});

describe("readConfig: several problems", () => {
  it("reports all of them at once, in a stable order", () => {
    const list = problems(
      readConfig({
        HOME: "/h",
        HERMES_LOG_LEVEL: "loud",
        HERMES_TELEGRAM_TOKEN: "bad",
        HERMES_TELEGRAM_CHAT_ID: "x",
        HERMES_TELEGRAM_ALLOWED_USERS: "y",
        HERMES_TELEGRAM_API_ROOT: "ftp://z",
        HERMES_QUESTION_TTL: "w",
      }),
    );
    // What turns Hermes off first, then what it ignores for the defaults.
    expect(list.map((line) => line.split(" ")[0])).toEqual([
      "HERMES_TELEGRAM_TOKEN",
      "HERMES_TELEGRAM_CHAT_ID",
      "HERMES_TELEGRAM_ALLOWED_USERS",
      "HERMES_TELEGRAM_API_ROOT",
      "HERMES_LOG_LEVEL",
      "HERMES_QUESTION_TTL",
    ]);
  });

  it("still returns the log settings so problems can be logged", () => {
    const result = readConfig({ HERMES_LOG_FILE: "/tmp/h.log", HERMES_LOG_LEVEL: "error" });
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.log).toEqual({ file: "/tmp/h.log", level: "error" });
  });
});

describe("readLogSettings", () => {
  it.each(["fatal", "error", "warn", "info", "debug", "trace", "silent"])("accepts the level %j", (level) => {
    const list: string[] = [];
    expect(readLogSettings({ HOME: "/h", HERMES_LOG_LEVEL: level }, list).level).toBe(level);
    expect(list).toEqual([]);
  });

  it("is case-insensitive", () => {
    const list: string[] = [];
    expect(readLogSettings({ HOME: "/h", HERMES_LOG_LEVEL: "DEBUG" }, list).level).toBe("debug");
    expect(list).toEqual([]);
  });

  it("defaults to info", () => {
    expect(readLogSettings({ HOME: "/h" }).level).toBe("info");
    expect(readLogSettings({ HOME: "/h", HERMES_LOG_LEVEL: "  " }).level).toBe("info");
  });

  it.each(["verbose", "warning", "10", "info,debug"])("falls back to info and reports %j", (level) => {
    const list: string[] = [];
    expect(readLogSettings({ HOME: "/h", HERMES_LOG_LEVEL: level }, list).level).toBe("info");
    expect(list).toEqual([`HERMES_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${level}"): info is used`]);
  });

  it("uses HERMES_LOG_FILE when set, else the default", () => {
    expect(readLogSettings({ HOME: "/h", HERMES_LOG_FILE: "/x/y.log" }).file).toBe("/x/y.log");
    expect(readLogSettings({ HOME: "/h", HERMES_LOG_FILE: "   " }).file).toBe("/h/.local/state/hermes/hermes.log");
  });
});

describe("defaultLogFile", () => {
  it("honours XDG_STATE_HOME", () => {
    expect(defaultLogFile({ XDG_STATE_HOME: "/state", HOME: "/home/u" })).toBe("/state/hermes/hermes.log");
  });

  it("falls back to HOME/.local/state", () => {
    expect(defaultLogFile({ HOME: "/home/u" })).toBe("/home/u/.local/state/hermes/hermes.log");
    expect(defaultLogFile({ XDG_STATE_HOME: "", HOME: "/home/u" })).toBe("/home/u/.local/state/hermes/hermes.log");
  });

  it("falls back to the OS home directory when HOME is unset", () => {
    expect(defaultLogFile({})).toBe(path.join(os.homedir(), ".local", "state", "hermes", "hermes.log"));
  });

  it("is what readConfig uses", () => {
    const result = readConfig({ ...BASE, XDG_STATE_HOME: "/xdg" });
    expect(ok(result).log.file).toBe("/xdg/hermes/hermes.log");
  });
});

describe("readConfig: options from opencode.json", () => {
  const ENV = { HOME: "/home/tester", HERMES_TELEGRAM_TOKEN: TOKEN };
  const GLOBAL_FILE = "/home/tester/.config/opencode/opencode.json";
  /** The user's global config says exactly these options for Hermes. */
  const inGlobal = (options: Record<string, unknown>) => ({ file: GLOBAL_FILE, options });
  /** Options as OpenCode passes them, with the global config saying the same. */
  const fromGlobal = (env: Record<string, string>, options: Record<string, unknown>) => readConfig(env, options, inGlobal(options));

  it("accepts every setting but the environment-only ones there, with its natural JSON type", () => {
    const config = ok(
      fromGlobal(ENV, {
        chatId: -1001234567890,
        allowedUsers: [7, "8"],
        questionTtl: "2h",
        permissionTtl: 60_000,
        notify: "errors",
        doneAfter: "1m",
        stallAfter: 60_000,
        language: "zh",
        topics: true,
        progress: false,
        agentTools: false,
        machineName: "build-box",
        logLevel: "debug",
      }),
    );
    expect(config).toEqual({
      token: TOKEN,
      chatId: -1001234567890,
      allowedUsers: [7, 8],
      apiRoot: DEFAULT_API_ROOT,
      questionTtlMs: 7_200_000,
      permissionTtlMs: 60_000,
      notify: "errors",
      doneAfterMs: 60_000,
      stallAfterMs: 60_000,
      language: "zh",
      topics: true,
      progress: false,
      agentTools: false,
      machineName: "build-box",
      log: { file: "/home/tester/.local/state/hermes/hermes.log", level: "debug" },
    });
  });

  it("HERMES_RICH: on unless set, off when asked (environment or option), a wrong value is ignored for its default (issue 50)", () => {
    expect(ok(readConfig(BASE)).rich).toBeUndefined();
    expect(ok(readConfig({ ...BASE, HERMES_RICH: "off" })).rich).toBe(false);
    expect(ok(readConfig({ ...BASE, HERMES_RICH: "on" })).rich).toBe(true);
    expect(ok(readConfig(BASE, { rich: false })).rich).toBe(false);
    const bad = ok(readConfig({ ...BASE, HERMES_RICH: "fancy" }));
    expect(bad.rich).not.toBe(false);
    expect((bad.ignored ?? []).join("\n")).toMatch(/HERMES_RICH must be on or off/);
  });

  it("HERMES_STALL_AFTER: 10 min by default, off (or 0) turns it off, a wrong value is a problem", () => {
    expect(ok(readConfig(BASE)).stallAfterMs).toBe(600_000);
    expect(ok(readConfig({ ...BASE, HERMES_STALL_AFTER: "off" })).stallAfterMs).toBe(0);
    expect(ok(readConfig({ ...BASE, HERMES_STALL_AFTER: "0" })).stallAfterMs).toBe(0);
    expect(ok(readConfig(BASE, { stallAfter: "20m" })).stallAfterMs).toBe(1_200_000);
    // A wrong value is ignored for the default, and said.
    const bad = ok(readConfig({ ...BASE, HERMES_STALL_AFTER: "soon" }));
    expect(bad.stallAfterMs).toBe(600_000);
    expect(bad.ignored).toEqual([expect.stringContaining("HERMES_STALL_AFTER must be")]);
  });

  it("HERMES_DESK_DELAY: unset by default (off), a duration, off (or 0) is unset, a wrong value is said", () => {
    expect(ok(readConfig(BASE)).deskDelayMs).toBeUndefined();
    expect(ok(readConfig({ ...BASE, HERMES_DESK_DELAY: "20s" })).deskDelayMs).toBe(20_000);
    expect(ok(readConfig(BASE, { deskDelay: "1m" })).deskDelayMs).toBe(60_000);
    expect(ok(readConfig({ ...BASE, HERMES_DESK_DELAY: "off" })).deskDelayMs).toBeUndefined();
    expect(ok(readConfig({ ...BASE, HERMES_DESK_DELAY: "0" })).deskDelayMs).toBeUndefined();
    const bad = ok(readConfig({ ...BASE, HERMES_DESK_DELAY: "soon" }));
    expect(bad.deskDelayMs).toBeUndefined();
    expect(bad.ignored).toEqual([expect.stringContaining("HERMES_DESK_DELAY must be")]);
  });

  it("HERMES_PROGRESS: on by default, off when asked, a wrong value is ignored for its default", () => {
    expect(ok(readConfig(BASE)).progress).toBe(true);
    expect(ok(readConfig({ ...BASE, HERMES_PROGRESS: "OFF" })).progress).toBe(false);
    expect(ok(readConfig(BASE, { progress: "off" })).progress).toBe(false);
    // A wrong value is ignored for the default (on), and said: Hermes stays on.
    const bad = readConfig({ ...BASE, HERMES_PROGRESS: "sometimes" });
    expect(ok(bad).progress).toBe(true);
    expect(ignored(bad)).toEqual(['HERMES_PROGRESS must be on or off (got "sometimes"): its default is used']);
    const badOption = readConfig(BASE, { progress: 3 });
    expect(ok(badOption).progress).toBe(true);
    expect(ignored(badOption)).toEqual(['opencode.json option "progress" must be true or false ("on" or "off") (got 3): its default is used']);
  });

  it("HERMES_AGENT_TOOLS: on by default, off from the environment or a project's option (turning a tool off is harmless), a wrong value is ignored for its default", () => {
    expect(ok(readConfig(BASE)).agentTools).toBe(true);
    expect(ok(readConfig({ ...BASE, HERMES_AGENT_TOOLS: "off" })).agentTools).toBe(false);
    expect(ok(readConfig(BASE, { agentTools: false })).agentTools).toBe(false);
    expect(ok(readConfig({ ...BASE, HERMES_AGENT_TOOLS: "on" }, { agentTools: false })).agentTools).toBe(true);
    const bad = readConfig({ ...BASE, HERMES_AGENT_TOOLS: "maybe" });
    expect(ok(bad).agentTools).toBe(true);
    expect(ignored(bad)).toEqual(['HERMES_AGENT_TOOLS must be on or off (got "maybe"): its default is used']);
    const badOption = readConfig(BASE, { agentTools: 1 });
    expect(ok(badOption).agentTools).toBe(true);
    expect(ignored(badOption)).toEqual(['opencode.json option "agentTools" must be true or false ("on" or "off") (got 1): its default is used']);
    // A global entry's off stays off whatever a project's option says, of any type.
    expect(ok(readConfig(BASE, { agentTools: 1 }, { file: "/home/tester/.config/opencode/opencode.json", options: { agentTools: false } })).agentTools).toBe(
      false,
    );
  });

  it("HERMES_SHELL: on by default (no field), off from the environment or a project's option, a wrong value is ignored for its default (issue 50)", () => {
    expect(ok(readConfig(BASE)).shell).toBeUndefined();
    expect(ok(readConfig({ ...BASE, HERMES_SHELL: "off" })).shell).toBe(false);
    expect(ok(readConfig(BASE, { shell: false })).shell).toBe(false);
    expect(ok(readConfig({ ...BASE, HERMES_SHELL: "on" }, { shell: false })).shell).toBeUndefined();
    const bad = readConfig({ ...BASE, HERMES_SHELL: "maybe" });
    expect(bad.ok ? [] : bad.problems).toEqual([]);
    expect(ok(bad).shell).toBeUndefined();
    expect(ok(bad).ignored).toEqual(['HERMES_SHELL must be on or off (got "maybe"): its default is used']);
  });

  it('takes the chat id as a string too (what {env:NAME} substitution gives), and allowedUsers as "anyone"', () => {
    const config = ok(readConfig(ENV, { chatId: "-100123", allowedUsers: "anyone" }, inGlobal({ chatId: -100123, allowedUsers: "anyone" })));
    expect(config.chatId).toBe(-100123);
    expect(config.allowedUsers).toEqual([]);
  });

  it("lets the environment win where both set a value; blank variables don't count", () => {
    const config = ok(fromGlobal({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42", HERMES_LANGUAGE: " " }, { chatId: 99, language: "zh", notify: "off" }));
    expect(config.chatId).toBe(42);
    expect(config.language).toBe("zh");
    expect(config.notify).toBe("off");
  });

  it.each([
    ["apiRoot", "http://attacker.example", "HERMES_TELEGRAM_API_ROOT"],
    ["logFile", "/home/tester/.bashrc", "HERMES_LOG_FILE"],
  ])("never takes %s (here %j) from opencode.json, even when the global config says the same: only %s sets it", (name, value, variable) => {
    const result = fromGlobal({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, { [name]: value });
    expect(problems(result)).toEqual([
      `opencode.json option "${name}" is not taken from opencode.json (a cloned project's file could set it): set ${variable} in the environment instead`,
    ]);
    if (!result.ok) expect(result.apiRoot).toBe(DEFAULT_API_ROOT);
    if (!result.ok) expect(result.log.file).toBe("/home/tester/.local/state/hermes/hermes.log");
  });

  it.each([
    ["chatId", -100666, "HERMES_TELEGRAM_CHAT_ID", undefined],
    ["chatId", -100666, "HERMES_TELEGRAM_CHAT_ID", { chatId: 42 }],
    ["allowedUsers", [666], "HERMES_TELEGRAM_ALLOWED_USERS", { allowedUsers: [7] }],
    ["allowedUsers", "anyone", "HERMES_TELEGRAM_ALLOWED_USERS", {}],
  ])("refuses %s %j unless the global config says the same (%s; global options %j), naming the setting and the file", (name, value, variable, global) => {
    const list = problems(readConfig({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, { [name]: value }, global && inGlobal(global)));
    expect(list).toEqual([
      `opencode.json option "${name}" is refused: it is not what ${global ? GLOBAL_FILE : "the global opencode.json"} says for Hermes, and a ` +
        `project's opencode.json does not choose who gets the prompts or who may approve them; set it in ${global ? GLOBAL_FILE : "the global opencode.json"} or in ${variable}`,
    ]);
  });

  it.each([
    ["no options", undefined],
    ["an empty object", {}],
    ["only a language", { language: "zh" }],
  ])("a project entry with %s takes the global entry's chat and allow-list", (_what, options) => {
    const config = ok(readConfig(ENV, options, inGlobal({ chatId: -1001234567890, allowedUsers: [7, 8] })));
    expect(config.chatId).toBe(-1001234567890);
    expect(config.allowedUsers).toEqual([7, 8]);
    // The environment still wins, and a global allow-list with a wrong entry is named with its file.
    expect(ok(readConfig({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, options, inGlobal({ chatId: -100777, allowedUsers: [7] }))).chatId).toBe(42);
    expect(problems(readConfig(ENV, options, inGlobal({ chatId: -100777, allowedUsers: "me" })))).toEqual([
      expect.stringContaining(`opencode.json option "allowedUsers" in ${GLOBAL_FILE} must be comma-separated numeric user ids`),
    ]);
  });

  it("refuses a project's chat even where the environment sets the chat: the attempt is worth a word", () => {
    expect(problems(readConfig({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, { chatId: 42 }))[0]).toMatch(/^opencode\.json option "chatId" is refused/);
  });

  it("refuses the bot token in opencode.json, even when the environment has it", () => {
    expect(problems(fromGlobal(ENV, { chatId: 42, token: TOKEN }))).toEqual([
      'opencode.json option "token": the bot token does not belong in opencode.json; set HERMES_TELEGRAM_TOKEN in the environment',
    ]);
    expect(JSON.stringify(problems(fromGlobal(ENV, { chatId: 42, token: TOKEN })))).not.toContain(TOKEN);
  });

  it("ignores an unknown option, naming the option it is closest to (or listing the known ones): Hermes stays on (issue 50)", () => {
    const typo = readConfig({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, { chatID: 42, progres: false });
    expect(ignored(typo)).toEqual([
      'opencode.json option "chatID" is not a Hermes option and is ignored: did you mean "chatId"?',
      'opencode.json option "progres" is not a Hermes option and is ignored: did you mean "progress"?',
    ]);
    expect(ok(typo).progress).toBe(true);
    const far = ignored(readConfig({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, { colour: "red" }));
    expect(far).toHaveLength(1);
    expect(far[0]).toMatch(/^opencode\.json option "colour" is not a Hermes option and is ignored \(known: chatId, allowedUsers, apiRoot, /);
  });

  it("ignores an optional option of the wrong type for its default; a wrong chat or allow-list still turns Hermes off", () => {
    const config = ok(fromGlobal(ENV, { chatId: 42, progress: 3, questionTtl: [1], stream: {} }));
    expect(config.progress).toBe(true);
    expect(config.questionTtlMs).toBe(ok(fromGlobal(ENV, { chatId: 42 })).questionTtlMs);
    expect(config.stream).toBeUndefined();
    expect(config.ignored).toEqual([
      'opencode.json option "progress" must be true or false ("on" or "off") (got 3): its default is used',
      'opencode.json option "questionTtl" must be milliseconds or a duration like "30m" (got a list): its default is used',
      'opencode.json option "stream" must be true or false ("on" or "off") (got an object): its default is used',
    ]);
    expect(readConfig(ENV, { chatId: true }, inGlobal({ chatId: true })).ok).toBe(false);
  });

  it.each([
    [{ chatId: "abc" }, 'opencode.json option "chatId" must be a numeric chat id (got "abc")'],
    [{ chatId: true }, 'opencode.json option "chatId" must be a numeric chat id (got true)'],
    [{ chatId: 42, allowedUsers: [] }, 'opencode.json option "allowedUsers" must be a list of numeric user ids, or "anyone" (got a list)'],
    [{ chatId: 42, allowedUsers: [1, { id: 2 }] }, 'opencode.json option "allowedUsers" must be a list of numeric user ids, or "anyone" (got a list)'],
    [{ chatId: 42, allowedUsers: ["x"] }, 'opencode.json option "allowedUsers" must be comma-separated numeric user ids, or "anyone" (bad entry "x")'],
    [{ chatId: 42, language: "fr" }, 'opencode.json option "language" must be en or zh (zh-CN) (got "fr"): en is used'],
    [{ chatId: 42, language: 1 }, 'opencode.json option "language" must be "en" or "zh" (got 1): its default is used'],
    [{ chatId: 42, notify: 1 }, 'opencode.json option "notify" must be "all", "errors" or "off" (got 1): its default is used'],
    [{ chatId: 42, notify: "loud" }, 'opencode.json option "notify" must be one of all, errors, off (got "loud"): all is used'],
    [
      { chatId: 42, questionTtl: "soon" },
      'opencode.json option "questionTtl" must be milliseconds or a duration like 90s, 30m, 2h; 0 = never (got "soon"): its default is used',
    ],
    [{ chatId: 42, topics: "maybe" }, 'opencode.json option "topics" must be on or off (got "maybe"): off is used'],
    [
      { chatId: 42, logLevel: "loud" },
      'opencode.json option "logLevel" must be one of fatal, error, warn, info, debug, trace, silent (got "loud"): info is used',
    ],
  ])("reports an invalid option %j by its opencode.json name", (options, problem) => {
    expect(problems(fromGlobal(ENV, options))).toEqual([problem]);
  });

  it("refuses options that are not an object", () => {
    expect(problems(readConfig({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, ["chatId", 42]))[0]).toMatch(
      /^the opencode\.json options for Hermes must be an object/,
    );
    expect(problems(readConfig({ ...ENV, HERMES_TELEGRAM_CHAT_ID: "42" }, "42"))[0]).toMatch(/must be an object .* \(got "42"\)$/);
  });

  it("treats missing options (OpenCode 1.1.x passes none) like an empty object", () => {
    expect(readConfig(BASE, undefined)).toEqual(readConfig(BASE, {}));
    expect(readConfig(BASE, null)).toEqual(readConfig(BASE));
  });
});

describe("readConfig: voice transcription", () => {
  it("is off unless HERMES_TRANSCRIBE_URL is set (a key or a model alone turn nothing on)", () => {
    expect(ok(readConfig({ ...BASE, HERMES_TRANSCRIBE_KEY: "sk-abc123", HERMES_TRANSCRIBE_MODEL: "base" })).transcription).toBeUndefined();
  });

  it("reads the URL (without a trailing slash), the key, the model (whisper-1 by default) and the language", () => {
    expect(ok(readConfig({ ...BASE, HERMES_TRANSCRIBE_URL: "https://api.openai.com/v1/", HERMES_TRANSCRIBE_KEY: " sk-abc123 " })).transcription).toEqual({
      url: "https://api.openai.com/v1",
      key: "sk-abc123",
      model: "whisper-1",
    });
    const env = { ...BASE, HERMES_TRANSCRIBE_URL: "http://127.0.0.1:8080/v1", HERMES_TRANSCRIBE_MODEL: "whisper-large-v3", HERMES_TRANSCRIBE_LANGUAGE: "ZH" };
    expect(ok(readConfig(env)).transcription).toEqual({ url: "http://127.0.0.1:8080/v1", model: "whisper-large-v3", language: "zh" });
  });

  it("model and language may come from opencode.json; the environment wins", () => {
    const options = { transcribeModel: "whisper-large-v3-turbo", transcribeLanguage: "zh" };
    expect(ok(readConfig({ ...BASE, HERMES_TRANSCRIBE_URL: "https://api.groq.com/openai/v1" }, options)).transcription).toEqual({
      url: "https://api.groq.com/openai/v1",
      model: "whisper-large-v3-turbo",
      language: "zh",
    });
    const env = { ...BASE, HERMES_TRANSCRIBE_URL: "https://api.groq.com/openai/v1", HERMES_TRANSCRIBE_LANGUAGE: "en" };
    expect(ok(readConfig(env, options)).transcription?.language).toBe("en");
  });

  it("the URL and the key are environment only: in opencode.json they are problems, never used", () => {
    const result = readConfig(BASE, { transcribeUrl: "https://collector.example/v1", transcribeKey: "sk-in-the-repo" });
    const found = problems(result);
    expect(found).toEqual([
      expect.stringContaining('opencode.json option "transcribeUrl": where voice notes are sent is not a project\'s choice; set HERMES_TRANSCRIBE_URL'),
      expect.stringContaining('opencode.json option "transcribeKey": a secret does not belong in opencode.json; set HERMES_TRANSCRIBE_KEY'),
    ]);
    expect(found.join(" ")).not.toContain("sk-in-the-repo");
    expect(found.join(" ")).not.toContain("collector.example");
  });

  it("a user and password in the URL leave it when it is read, for the Authorization header (fetch would drop or quote them)", () => {
    expect(ok(readConfig({ ...BASE, HERMES_TRANSCRIBE_URL: "https://al%40ice:p%3Ass-w0rd@whisper.example:8443/v1/" })).transcription).toEqual({
      url: "https://whisper.example:8443/v1",
      basic: "al@ice:p:ss-w0rd",
      model: "whisper-1",
    });
    const both = problems(readConfig({ ...BASE, HERMES_TRANSCRIBE_URL: "https://u:pw-123456@whisper.example/v1", HERMES_TRANSCRIBE_KEY: "sk-abc123" }));
    expect(both).toEqual([expect.stringContaining("HERMES_TRANSCRIBE_URL holds a user and password and HERMES_TRANSCRIBE_KEY is set too")]);
    expect(both.join(" ")).not.toContain("pw-123456");
  });

  it("a URL that is not http(s) and a language that is not a code are ignored, voice notes refused; the URL is never quoted (it may hold a password)", () => {
    const result = readConfig({ ...BASE, HERMES_TRANSCRIBE_URL: "ftp://user:secret@host/v1", HERMES_TRANSCRIBE_LANGUAGE: "Chinese!" });
    expect(ok(result).transcription).toBeUndefined();
    expect(ignored(result)).toEqual([
      'HERMES_TRANSCRIBE_LANGUAGE must be a language code like "en" or "zh" (got "Chinese!"): the service detects it',
      "HERMES_TRANSCRIBE_URL must be an http(s) URL such as https://api.openai.com/v1: voice notes are refused",
    ]);
  });
});

describe("readConfig: a bad optional value, or an unknown variable, never turns Hermes off (issue 50)", () => {
  it("HERMES_STREAM=maybe: Hermes on, the stream as if unset (decided by the chat), and said once", () => {
    const result = readConfig({ ...BASE, HERMES_STREAM: "maybe" });
    expect(ok(result).stream).toBeUndefined();
    expect(ignored(result)).toEqual(['HERMES_STREAM must be on or off (got "maybe"): its default is used']);
  });

  it("HERMES_RUN_BUDGET=abc: Hermes on, no budget, and said once", () => {
    const result = readConfig({ ...BASE, HERMES_RUN_BUDGET: "abc" });
    expect(ok(result).runBudget).toBeUndefined();
    expect(ignored(result)).toEqual(['HERMES_RUN_BUDGET must be an amount in dollars, such as 2.50, or off (got "abc"): no budget is set']);
  });

  it("HERMES_TELEGRAM_TOPICS=on in a private chat: topics stay off, Hermes on", () => {
    const result = readConfig({ ...BASE, HERMES_TELEGRAM_TOPICS: "on" });
    expect(ok(result).topics).toBe(false);
    expect(ignored(result)[0]).toMatch(/needs a supergroup with topics/);
  });

  it("a misspelled variable is named with the known one it is closest to; the rest of the settings apply", () => {
    const result = readConfig({ ...BASE, HERMES_RUN_BUDJET: "2", HERMES_TELEGRAM_CHATID: "42", HERMES_WHATEVER_ELSE_ENTIRELY: "1" });
    expect(ignored(result)).toEqual([
      "HERMES_RUN_BUDJET is not a Hermes setting and is ignored: did you mean HERMES_RUN_BUDGET?",
      "HERMES_TELEGRAM_CHATID is not a Hermes setting and is ignored: did you mean HERMES_TELEGRAM_CHAT_ID?",
      "HERMES_WHATEVER_ELSE_ENTIRELY is not a Hermes setting and is ignored (docs/configuration.md lists them)",
    ]);
    expect(ok(result).runBudget).toBeUndefined();
  });

  it("only the token and the chat (and who may act, and where Telegram is) turn it off", () => {
    expect(readConfig({ ...BASE, HERMES_TELEGRAM_CHAT_ID: "x", HERMES_STREAM: "maybe" }).ok).toBe(false);
    expect(readConfig({ ...BASE, HERMES_TELEGRAM_TOKEN: "nope" }).ok).toBe(false);
    expect(readConfig({ ...BASE, HERMES_NOTIFY: "loud", HERMES_DONE_AFTER: "later", HERMES_LANGUAGE: "fr", HERMES_LOG_LEVEL: "loud" }).ok).toBe(true);
  });
});

describe("readConfig: the fourth review's project options", () => {
  const KEY = "sk-transcribe-0123456789abcdefghijklmnopqrstuvwxyz-0123456789abcdefghij";
  const VOICE = { ...BASE, HERMES_TRANSCRIBE_URL: "https://api.example.com/v1", HERMES_TRANSCRIBE_KEY: KEY };

  it.each(["machineName", "transcribeLanguage", "language"])(
    "a %s that holds the transcription key (OpenCode expanded {env:…}) is refused, never quoted",
    (name) => {
      const list = problems(readConfig(VOICE, { [name]: KEY }));
      expect(list).toEqual([`opencode.json option "${name}" holds the transcription key or password (not shown); it belongs in the environment only`]);
      expect(list.join(" ")).not.toContain(KEY.slice(0, 12));
    },
  );

  it("so is one that holds the password of the transcription URL, percent-encoded or not", () => {
    const env = { ...BASE, HERMES_TRANSCRIBE_URL: "https://alice:s%40cret-pass-77@api.example.com/v1" };
    for (const value of ["box-s@cret-pass-77", "s%40cret-pass-77"]) {
      const list = problems(readConfig(env, { machineName: value }));
      expect(list).toEqual(['opencode.json option "machineName" holds the transcription key or password (not shown); it belongs in the environment only']);
    }
  });

  it('a global "agentTools": false holds when a project lists Hermes: the project may turn the tool off, never on', () => {
    const global = { file: "/home/tester/.config/opencode/opencode.json", options: { agentTools: false } };
    expect(ok(readConfig(BASE, undefined, global)).agentTools).toBe(false);
    expect(ok(readConfig(BASE, { language: "zh" }, global)).agentTools).toBe(false);
    expect(ok(readConfig(BASE, { agentTools: true }, global)).agentTools).toBe(false);
    expect(ok(readConfig(BASE, { agentTools: "on" }, { ...global, options: { agentTools: "off" } })).agentTools).toBe(false);
    // The project may still turn it off; the user's own environment decides over both.
    expect(ok(readConfig(BASE, { agentTools: false }, { ...global, options: {} })).agentTools).toBe(false);
    expect(ok(readConfig({ ...BASE, HERMES_AGENT_TOOLS: "on" }, { language: "zh" }, global)).agentTools).toBe(true);
  });
});
