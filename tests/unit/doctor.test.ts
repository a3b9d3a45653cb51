// The local pieces of `opencode-hermes doctor` (lib/cli/doctor-check.ts, doctor-local.ts): the line
// format, the Node check, the transcription service (another user's loopback listener, no answer),
// the log file (a symlink, the last warning), and where a project's config is looked for. The
// Telegram checks run end to end in tests/e2e/doctor.test.ts.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkLine, ok, problem, skipped } from "../../lib/cli/doctor-check.ts";
import { entryFormCheck, logCheck, nodeCheck, opencodeCheck, projectConfigFiles, speechCheck, transcriptionCheck } from "../../lib/cli/doctor-local.ts";
import { main } from "../../lib/cli/main.ts";
import { ownEntry } from "../../lib/cli/plugin-spec.ts";
import { credentialSecrets } from "../../lib/config/process-secrets.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-doctor-unit-"));
  dirs.push(dir);
  return dir;
}

const HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
/** /proc/net/tcp with one listener on 127.0.0.1:`port` owned by `uid`. */
function procWith(port: number, uid: number) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const line = `   0: 0100007F:${hexPort} 00000000:0000 0A 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 4242 1 0000000000000000 100 0 0 10 0\n`;
  return { uid: 1000, read: (file: "tcp" | "tcp6") => (file === "tcp" ? HEADER + line : undefined) };
}

describe("doctor lines", () => {
  it("✅ / ❌ with the fix / ➖, each a sentence", () => {
    expect(checkLine(ok("Node 22.1.0"))).toBe("✅ Node 22.1.0.");
    expect(checkLine(problem("The bot cannot post (403: blocked)", "unblock it."))).toBe("❌ The bot cannot post (403: blocked). Fix: unblock it.");
    expect(checkLine(skipped("Nothing set."))).toBe("➖ Nothing set.");
  });

  it("Node older than 20 is a problem", () => {
    expect(nodeCheck("18.19.0").state).toBe("problem");
    expect(nodeCheck("20.0.0").state).toBe("ok");
  });

  it("doctor --help prints its usage; an unknown option is a usage error (64)", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { env: {}, out: (line: string) => out.push(line), err: (line: string) => err.push(line), onSignal: () => () => undefined };
    expect(await main(["doctor", "--help"], io)).toBe(0);
    expect(out[0]).toMatch(/^Usage: opencode-hermes doctor/);
    expect(await main(["doctor", "--frobnicate"], io)).toBe(64);
    expect(err[0]).toMatch(/frobnicate/);
  });
});

describe("the entry's form and the OpenCode on the PATH", () => {
  const file = "/home/you/.config/opencode/opencode.json";
  /** The entry that loads a clone in ~/hermes, in the OpenCode of `version`. */
  const own = (version: string | undefined) => ownEntry(version, { spec: "/home/you/hermes/plugin.ts", why: "this clone's plugin.ts" });
  it('OpenCode 2 skips a 1.x entry naming a file: ❌ with the folder\'s file: URL for "plugins"', () => {
    const check = entryFormCheck({ file, spec: "/home/you/hermes/plugin.ts", key: "plugin" }, "2.0.15", own("2.0.15"));
    expect(check?.state).toBe("problem");
    expect(checkLine(check!)).toContain("names a file, which OpenCode 2.0.15 skips");
    expect(checkLine(check!)).toContain('list "file:///home/you/hermes" in "plugins" instead');
  });
  it('OpenCode 1.x does not read "plugins": ❌', () => {
    const check = entryFormCheck({ file, spec: "file:///home/you/hermes", key: "plugins" }, "1.18.33", own("1.18.33"));
    expect(check?.state).toBe("problem");
    expect(checkLine(check!)).toContain('list "/home/you/hermes/plugin.ts" in "plugin" instead');
  });
  it("says nothing where the form fits, or the version is not known", () => {
    expect(entryFormCheck({ file, spec: "file:///home/you/hermes", key: "plugins" }, "2.0.15", own("2.0.15"))).toBeUndefined();
    expect(entryFormCheck({ file, spec: "/home/you/hermes/plugin.ts", key: "plugin" }, "1.18.33", own("1.18.33"))).toBeUndefined();
    expect(entryFormCheck({ file, spec: "opencode-hermes@0.2.0", key: "plugin" }, "2.0.15", own("2.0.15"))).toBeUndefined();
    expect(entryFormCheck({ file, spec: "/home/you/hermes/plugin.ts", key: "plugin" }, undefined, own(undefined))).toBeUndefined();
  });
  it("names the OpenCode found, or why none was", () => {
    expect(checkLine(opencodeCheck({ version: "2.0.15" }))).toBe("✅ OpenCode 2.0.15.");
    expect(opencodeCheck({ missing: true, reason: "spawn opencode ENOENT" }).state).toBe("problem");
  });
});

describe("transcription service", () => {
  it("not set: skipped, not a problem", async () => {
    expect((await transcriptionCheck({})).state).toBe("skipped");
  });

  it("another user's loopback listener: a problem, and nothing is sent to it", async () => {
    let fetched = false;
    const check = await transcriptionCheck({ HERMES_TRANSCRIBE_URL: "http://127.0.0.1:8080/v1" }, procWith(8080, 4242), async () => {
      fetched = true;
      return new Response("");
    });
    expect(check.state).toBe("problem");
    expect(check.text).toContain("owned by another user (uid 4242)");
    expect(fetched).toBe(false);
  });

  it("a user and password in the URL: probed as HTTP Basic at the bare URL, which is all that is printed (a percent-encoded password too)", async () => {
    const password = "p@ss/word-0123456789";
    const url = `http://alice:${encodeURIComponent(password)}@127.0.0.1:8080/v1/${"x".repeat(150)}`;
    const seen: Array<{ url: string; authorization: string | null }> = [];
    const check = await transcriptionCheck({ HERMES_TRANSCRIBE_URL: url }, procWith(8080, 1000), async (input, init) => {
      seen.push({ url: String(input), authorization: new Headers(init?.headers).get("authorization") });
      return new Response("", { status: 200 });
    });
    expect(seen).toEqual([
      { url: `http://127.0.0.1:8080/v1/${"x".repeat(150)}`, authorization: `Basic ${Buffer.from(`alice:${password}`).toString("base64")}` },
    ]);
    expect(check.state).toBe("ok");
    expect(check.text).toContain("http://127.0.0.1:8080/v1/xxx");
    expect(check.text).not.toContain("alice");
    expect(check.text).not.toContain(encodeURIComponent(password).slice(0, 6));
  });

  it("doctor's scrubber knows a percent-encoded password as it stands in the URL", () => {
    const secrets = credentialSecrets("https://bob:s%3Acr%40t-secret@example.com/v1");
    expect(secrets).toContain("s:cr@t-secret");
    expect(secrets).toContain("s%3Acr%40t-secret");
  });

  it("this user's listener that answers: ok; nothing listening: a problem", async () => {
    const answers = await transcriptionCheck(
      { HERMES_TRANSCRIBE_URL: "http://127.0.0.1:8080/v1" },
      procWith(8080, 1000),
      async () => new Response("", { status: 404 }),
    );
    expect(answers).toEqual(ok("The transcription service at http://127.0.0.1:8080/v1 answers (HTTP 404)"));
    const silent = await transcriptionCheck({ HERMES_TRANSCRIBE_URL: "http://127.0.0.1:9/v1" }, procWith(8080, 1000), async () => {
      throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    });
    expect(silent.state).toBe("problem");
    expect(silent.text).toContain("does not answer (ECONNREFUSED)");
  });
});

describe("speech service", () => {
  it("checked as the transcription service is: unset skipped; another user's listener a problem, nothing sent; this user's answering ok", async () => {
    expect((await speechCheck({})).text).toBe("No speech service set (HERMES_SPEECH_URL): answers are not spoken");
    let fetched = false;
    const squatted = await speechCheck({ HERMES_SPEECH_URL: "http://127.0.0.1:8880/v1" }, procWith(8880, 4242), async () => {
      fetched = true;
      return new Response("");
    });
    expect(squatted.state).toBe("problem");
    expect(squatted.text).toContain("owned by another user (uid 4242): the agent's answers would go to them");
    expect(fetched).toBe(false);
    const answers = await speechCheck({ HERMES_SPEECH_URL: "http://127.0.0.1:8880/v1" }, procWith(8880, 1000), async () => new Response("", { status: 404 }));
    expect(answers).toEqual(ok("The speech service at http://127.0.0.1:8880/v1 answers (HTTP 404)"));
  });
});

describe("log file", () => {
  it("a symlink is a problem (Hermes won't follow it); a log with a warning shows the last one", () => {
    const dir = tempDir();
    const log = path.join(dir, "hermes.log");
    fs.symlinkSync(path.join(dir, "elsewhere"), log);
    expect(logCheck({ HERMES_LOG_FILE: log }).state).toBe("problem");
    fs.unlinkSync(log);
    const lines = [
      { level: 30, time: Date.UTC(2026, 10, 27), msg: "question sent" },
      { level: 40, time: Date.UTC(2026, 10, 27, 1), msg: "HERMES_TELEGRAM_CHAT_ID is not set" },
      { level: 30, time: Date.UTC(2026, 10, 27, 2), msg: "tap" },
    ];
    fs.writeFileSync(log, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const check = logCheck({ HERMES_LOG_FILE: log });
    expect(check.state).toBe("ok");
    expect(check.text).toContain("its last warning: 2026-11-27T01:00:00.000Z HERMES_TELEGRAM_CHAT_ID is not set");
  });

  it("no log yet in a writable place: ok", () => {
    const dir = tempDir();
    expect(logCheck({ HERMES_LOG_FILE: path.join(dir, "sub", "hermes.log") }).state).toBe("ok");
  });
});

describe("project config files", () => {
  it("from the directory up to its git root, both names and .opencode/", () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, "repo", ".git"), { recursive: true });
    fs.mkdirSync(path.join(root, "repo", "pkg"));
    const files = projectConfigFiles(path.join(root, "repo", "pkg"));
    expect(files).toContain(path.join(root, "repo", "pkg", "opencode.json"));
    expect(files).toContain(path.join(root, "repo", ".opencode", "opencode.jsonc"));
    expect(files.some((file) => file.startsWith(path.join(root, "opencode")))).toBe(false);
  });
});
