// Hermes installed the way OpenCode installs a plugin named in opencode.json, on both versions:
// `npm pack`, the package and its runtime dependencies placed where OpenCode's own installer puts
// them (no network: OpenCode finds them there and installs nothing), `"plugin": ["opencode-hermes@…"]`,
// and a question answered from Telegram. Where each version looks (read from the binaries, then
// proven here):
// - 1.18.33 (`Npm.add`): $XDG_CACHE_HOME/opencode/packages/<spec as written>/node_modules/<name>;
//   if that directory exists it is imported as is, else npm's arborist installs the spec there.
// - 1.1.53 (`BunProc.install`): $XDG_CACHE_HOME/opencode/node_modules/<name>, used as is when
//   $XDG_CACHE_HOME/opencode/package.json lists exactly that version, else `bun add` installs it.
//   It empties that cache directory at start unless its `version` file says "21" (its cache format).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordEvents } from "../support/event-stream.ts";
import { DEFAULT_CHAT_ID } from "../support/fake-telegram.ts";
import type { OpencodeVersion } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const PKG = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as {
  name: string;
  version: string;
  exports: unknown;
  dependencies: Record<string, string>;
};
const SPEC = `${PKG.name}@${PKG.version}`;
const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};

/** Every file an `exports` map points at (through conditions), without the leading ".//". */
function exportTargets(exports: unknown): string[] {
  if (typeof exports === "string") return [exports.replace(/^\.\//, "")];
  if (typeof exports !== "object" || exports === null) return [];
  return [...new Set(Object.values(exports).flatMap(exportTargets))];
}

interface PackEntry {
  filename: string;
  files: Array<{ path: string }>;
  unpackedSize: number;
}

let work: string;
let tarball: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-by-name-"));
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--pack-destination", work], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
  ) as PackEntry[];
  tarball = path.join(work, packed!.filename);
}, 120_000);
afterAll(() => {
  if (!process.env.KEEP_TMP) fs.rmSync(work, { recursive: true, force: true });
});

/** What OpenCode's installer would leave in `dir`: node_modules with Hermes and its runtime dependencies. */
function installInto(dir: string): void {
  const modules = path.join(dir, "node_modules");
  const own = path.join(modules, PKG.name);
  fs.mkdirSync(own, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", own, "--strip-components=1"]);
  // The runtime dependency tree, as npm resolved it for this repository (the same package.json).
  const tree = execFileSync("npm", ["ls", "--omit=dev", "--all", "--parseable"], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  for (const line of tree.split("\n")) {
    const relative = path.relative(path.join(REPO, "node_modules"), line.trim());
    if (!line.trim() || relative.startsWith("..") || relative.includes(`${path.sep}node_modules${path.sep}`)) continue;
    fs.cpSync(path.join(REPO, "node_modules", relative), path.join(modules, relative), { recursive: true });
  }
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ dependencies: { [PKG.name]: PKG.version } }, null, 2)}\n`);
}

/** A fresh $XDG_CACHE_HOME with Hermes where `version` looks for `spec`. */
function cacheWithHermes(version: OpencodeVersion, spec: string = SPEC): string {
  const cache = fs.mkdtempSync(path.join(work, "xdg-cache-"));
  if (version === "1.1.53") {
    installInto(path.join(cache, "opencode"));
    fs.writeFileSync(path.join(cache, "opencode", "version"), "21");
  } else {
    installInto(path.join(cache, "opencode", "packages", spec));
  }
  return cache;
}

describe("the npm package", () => {
  it("holds only what runs: the plugin (TypeScript, for OpenCode's Bun), the command line compiled for Node, the launcher, the README; only runtime dependencies", () => {
    const [dry] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }),
    ) as PackEntry[];
    const files = dry!.files.map((file) => file.path).sort();
    // The entry points package.json exports (plugin.ts, and any other) are in, and nothing else at the root.
    const entries = exportTargets(PKG.exports);
    expect(entries).toContain("plugin.ts");
    for (const entry of entries) expect(files).toContain(entry);
    for (const file of files)
      if (!entries.includes(file)) expect(file).toMatch(/^(lib\/.+\.ts|dist\/lib\/.+\.js|bin\/opencode-hermes\.mjs|README\.md|package\.json)$/);
    expect(files.filter((file) => /(^|\/)(tests?|bench|scripts|node_modules)\//.test(file))).toEqual([]);
    // Every module of lib/ is there, and compiled to JavaScript (the command line runs those on Node).
    const sources = fs.readdirSync(path.join(REPO, "lib"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    // A declaration file (a dependency's types, lib/approvals/mvdan-sh.d.ts) compiles to nothing.
    const compiled = sources.filter((file) => !file.endsWith(".d.ts"));
    for (const source of sources) expect(files).toContain(`lib/${source}`);
    for (const source of compiled) expect(files).toContain(`dist/lib/${source.replace(/\.ts$/, ".js")}`);
    expect(files).toContain("plugin.ts");
    expect(files).toContain("bin/opencode-hermes.mjs");
    expect(Object.keys(PKG.dependencies).sort()).toEqual(["eventsource-parser", "jsonc-parser", "marked", "mvdan-sh", "p-retry", "pino", "zod"]);
    const imported = new Set<string>();
    for (const file of files.filter((name) => /\.(js|ts)$/.test(name))) {
      const text = fs.readFileSync(path.join(REPO, file), "utf8");
      // Runtime imports only (`import type` disappears when the module runs); `require` loads on first use (pino, lib/system/log.ts).
      for (const match of text.matchAll(/^import (?!type )[^;]*? from "([^".][^"]*)"|import\("([^".][^"]*)"\)|\brequire\("([^".][^"]*)"\)/gm)) {
        const name = match[1] ?? match[2] ?? match[3]!;
        if (!name.startsWith("node:")) imported.add(name.startsWith("@") ? name.split("/").slice(0, 2).join("/") : name.split("/")[0]!);
      }
    }
    expect([...imported].sort()).toEqual(Object.keys(PKG.dependencies).sort());
  });
});

describe("the packed command line", () => {
  it("runs on plain Node from an install without tsx or TypeScript", () => {
    const dir = fs.mkdtempSync(path.join(work, "consumer-"));
    installInto(dir);
    const launcher = path.join(dir, "node_modules", PKG.name, "bin", "opencode-hermes.mjs");
    const env = { PATH: process.env.PATH ?? "", HOME: dir };
    expect(execFileSync(process.execPath, [launcher, "--version"], { cwd: dir, env, encoding: "utf8" }).trim()).toBe(`${PKG.name} ${PKG.version}`);
    expect(execFileSync(process.execPath, [launcher, "setup", "--help"], { cwd: dir, env, encoding: "utf8" })).toMatch(/^Usage: opencode-hermes setup/);
    expect(fs.existsSync(path.join(dir, "node_modules", "tsx"))).toBe(false);
  });
});

describe.each(["1.18.33", "1.1.53"] as const)("OpenCode %s loads Hermes by name from its own install location", (version) => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig(version, { XDG_CACHE_HOME: cacheWithHermes(version) }, SPEC);
  }, 180_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("answers a question from Telegram, with nothing installed from the network", async () => {
    const { message } = await askOnPhone(rig, [color], `by-name-${version}`);
    await rig.telegram.tapButton(message, "Blue");
    const result = await rig.llm.waitForToolResult((r) => r.content.includes(`by-name-${version}`), { what: "tool result" });
    expect(result.content).toContain('"Blue"');
    const logs = rig.opencode.logs();
    expect(logs).not.toMatch(/installing package|npm-install|BunInstallFailedError|NpmInstallFailedError/i);
  });
});

describe("options next to Hermes in the global opencode.json (OpenCode 1.18.33 passes them)", () => {
  let rig: Rig;
  const GROUP = -1001234567890;
  beforeAll(async () => {
    const options = { chatId: "{env:HERMES_E2E_CHAT}", allowedUsers: [DEFAULT_CHAT_ID], language: "zh", doneAfter: "1h" };
    rig = await startRig(
      "1.18.33",
      { XDG_CACHE_HOME: cacheWithHermes("1.18.33"), HERMES_TELEGRAM_CHAT_ID: "", HERMES_TELEGRAM_ALLOWED_USERS: "", HERMES_E2E_CHAT: String(GROUP) },
      SPEC,
      // The user's global config: a project's opencode.json could not name the chat or the allow-list.
      { extraConfig: { plugin: [] }, globalConfig: { plugin: [[SPEC, options]] } },
    );
  }, 180_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("takes the chat from {env:NAME} substitution, the allow-list and the language from the options", async () => {
    const { message } = await askOnPhone(rig, [color], "options-zh");
    expect(message.chatId).toBe(GROUP);
    expect(rig.telegram.buttons(message).map((button) => button.text)).toContain("忽略");
    await rig.telegram.tapButton(message, "Red");
    const result = await rig.llm.waitForToolResult((r) => r.content.includes("options-zh"), { what: "tool result" });
    expect(result.content).toContain('"Red"');
  });
});

describe("an unknown option and one of the wrong type in opencode.json (OpenCode 1.18.33)", () => {
  let rig: Rig;
  beforeAll(async () => {
    // No warm-up: the recorder's own request starts the instance, so it can't miss the toast.
    rig = await startRig("1.18.33", { XDG_CACHE_HOME: cacheWithHermes("1.18.33") }, SPEC, {
      extraConfig: { plugin: [[SPEC, { chatID: 42, progress: 3 }]] },
      warmup: false,
    });
  }, 180_000);
  afterAll(async () => {
    await rig?.stop();
  });

  it("ignores both, as a misspelled or bad variable: Hermes stays on and names them once (toast, phone, log), the typo with the option it is closest to (issue 50)", async () => {
    const stream = await recordEvents(rig.opencode.url, rig.opencode.directory);
    try {
      const toast = await pollUntil(() => stream.events.find((e) => e.type === "tui.toast.show"), { what: "toast", timeoutMs: 30_000 });
      expect(toast.properties.message).toContain('opencode.json option "chatID" is not a Hermes option and is ignored: did you mean "chatId"?');
      expect(toast.properties.message).toContain('opencode.json option "progress" must be true or false ("on" or "off") (got 3): its default is used');
    } finally {
      stream.close();
    }
    const notice = await rig.telegram.waitForMessage((m) => m.text.includes("chatID"), { what: "the ignored options on the phone", timeoutMs: 30_000 });
    expect(notice.text).toContain("progress");
    // Hermes is on: a question comes and a tap answers it.
    const { message } = await askOnPhone(rig, [color], "option-typo");
    await rig.telegram.tapButton(message, "Blue");
    const result = await rig.llm.waitForToolResult((r) => r.content.includes("option-typo"), { what: "tool result" });
    expect(result.content).toContain('"Blue"');
    const log = fs.readFileSync(rig.logFile, "utf8");
    expect(log).not.toContain("Hermes is off");
    expect(
      log
        .trim()
        .split("\n")
        .filter((line) => line.includes("Hermes ignored settings")),
    ).toHaveLength(1);
    expect(rig.telegram.messages().filter((m) => m.text.includes("chatID"))).toHaveLength(1);
  });
});
