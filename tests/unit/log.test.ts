import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readConfig } from "../../lib/config/config.ts";
import { createLogger, makeScrubber } from "../../lib/system/log.ts";
import { loggerFor } from "../../lib/plugin/plugin-instance.ts";

const TOKEN = "123456789:AAF-secret_TOKEN-value";

describe("makeScrubber", () => {
  it("removes the token from a line", () => {
    const scrub = makeScrubber([TOKEN]);
    expect(scrub(`GET https://api.telegram.org/bot${TOKEN}/getUpdates failed`)).toBe("GET https://api.telegram.org/bot[redacted]/getUpdates failed");
  });

  it("removes every occurrence", () => {
    const scrub = makeScrubber([TOKEN]);
    expect(scrub(`${TOKEN}${TOKEN} and ${TOKEN}`)).toBe("[redacted][redacted] and [redacted]");
  });

  it("removes several secrets", () => {
    const scrub = makeScrubber(["alpha-secret", "beta-secret"]);
    expect(scrub("x alpha-secret y beta-secret z")).toBe("x [redacted] y [redacted] z");
  });

  it("treats secrets literally, not as patterns", () => {
    const scrub = makeScrubber(["a.b*c+d(e)[f]$"]);
    expect(scrub("1 a.b*c+d(e)[f]$ 2")).toBe("1 [redacted] 2");
    expect(scrub("aXbbbcdde")).toBe("aXbbbcdde");
  });

  it("leaves lines without secrets untouched", () => {
    const scrub = makeScrubber([TOKEN]);
    const line = '{"level":30,"msg":"hello"}\n';
    expect(scrub(line)).toBe(line);
  });

  it("is the identity without secrets", () => {
    const scrub = makeScrubber([]);
    expect(scrub(`x ${TOKEN}`)).toBe(`x ${TOKEN}`);
  });

  it("ignores empty and very short secrets (they would shred every line)", () => {
    const scrub = makeScrubber(["", "a", "12345"]);
    expect(scrub("a 12345 line")).toBe("a 12345 line");
    expect(makeScrubber(["123456"])("x123456x")).toBe("x[redacted]x");
  });
});

describe("createLogger", () => {
  let dir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-log-"));
  });

  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function readLines(file: string): Record<string, unknown>[] {
    return fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  it("writes JSON lines to the file, creating missing directories", () => {
    const file = path.join(dir, "deep", "er", "hermes.log");
    const logger = createLogger({ file, level: "info" });
    logger.info({ answer: 42 }, "hello");
    const lines = readLines(file);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: "hello", answer: 42, level: 30, pid: process.pid });
  });

  it("honours the level", () => {
    const file = path.join(dir, "hermes.log");
    const logger = createLogger({ file, level: "warn" });
    logger.info("dropped");
    logger.debug("dropped too");
    logger.warn("kept");
    logger.error("kept too");
    expect(readLines(file).map((line) => line.msg)).toEqual(["kept", "kept too"]);
  });

  it("appends to an existing file", () => {
    const file = path.join(dir, "hermes.log");
    fs.writeFileSync(file, '{"msg":"before"}\n');
    createLogger({ file, level: "info" }).info("after");
    expect(readLines(file).map((line) => line.msg)).toEqual(["before", "after"]);
  });

  it("never writes the bot token, wherever it appears", () => {
    const file = path.join(dir, "hermes.log");
    const logger = createLogger({ file, level: "trace" }, [TOKEN]);
    const url = `https://api.telegram.org/bot${TOKEN}/getUpdates`;
    logger.info(`plain message with ${TOKEN}`);
    logger.info({ token: TOKEN }, "token key");
    logger.info({ config: { token: TOKEN, chatId: 1 } }, "config.token");
    logger.info({ telegram: { token: TOKEN } }, "nested token key");
    logger.info({ a: { b: { c: { apiKey: TOKEN } } } }, "deep value");
    logger.info({ url }, "url field");
    logger.error({ err: new Error(`request to ${url} failed, reason: ECONNRESET`) }, "error object");
    const withCause = new Error("outer", { cause: new Error(`inner ${url}`) });
    logger.error({ err: withCause }, "error with cause");
    logger.warn({ list: [TOKEN, { token: TOKEN }] }, "array");
    logger.info("format %s", TOKEN);

    const text = fs.readFileSync(file, "utf8");
    const lines = text.split("\n").filter(Boolean);
    expect(lines).toHaveLength(10);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("AAF-secret_TOKEN-value");
    for (const line of lines) expect(line).toContain("[redacted]");
    // The rest of each line survives: only the secret goes.
    expect(text).toContain("https://api.telegram.org/bot[redacted]/getUpdates");
    expect(text).toContain("ECONNRESET");
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain("plain message with [redacted]");
  });

  it("keeps lines valid JSON after scrubbing", () => {
    const file = path.join(dir, "hermes.log");
    const logger = createLogger({ file, level: "info" }, [TOKEN]);
    logger.info({ token: TOKEN, nested: { url: `x${TOKEN}y` } }, "m");
    const [line] = readLines(file);
    expect(line).toMatchObject({ token: "[redacted]", nested: { url: "x[redacted]y" } });
  });

  it("the plugin's logger scrubs the transcription key from the environment, as it does the bot token", () => {
    const key = "sk-proj-voice-KEY-0123456789";
    const file = path.join(dir, "plugin.log");
    const env = { HERMES_TELEGRAM_TOKEN: TOKEN, HERMES_TELEGRAM_CHAT_ID: "42", HERMES_TRANSCRIBE_URL: "https://api.openai.com/v1", HERMES_TRANSCRIBE_KEY: key };
    const result = readConfig({ ...env, HERMES_LOG_FILE: file });
    if (!result.ok) throw new Error(result.problems.join("; "));
    const { logger } = loggerFor(result.config.log, env);
    logger.warn({ err: `POST failed with Authorization: Bearer ${key}` }, `token ${TOKEN}`);
    const text = fs.readFileSync(file, "utf8");
    expect(text).not.toContain(key);
    expect(text).not.toContain(TOKEN);
    expect(readLines(file)[0]).toMatchObject({ err: "POST failed with Authorization: Bearer [redacted]" });
  });

  it("redacts token keys even without secrets to scrub", () => {
    const file = path.join(dir, "hermes.log");
    const logger = createLogger({ file, level: "info" });
    logger.info({ token: "tok-1", config: { token: "tok-2" } }, "m");
    const text = fs.readFileSync(file, "utf8");
    expect(text).not.toContain("tok-1");
    expect(text).not.toContain("tok-2");
    expect(readLines(file)[0]).toMatchObject({ token: "[redacted]", config: { token: "[redacted]" } });
  });

  it("creates the file 0600 inside a new 0700 directory (it holds chat ids, titles and paths)", () => {
    const previous = process.umask(0o000);
    try {
      const file = path.join(dir, "state", "hermes", "hermes.log");
      createLogger({ file, level: "info" }).info("private");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
      expect(fs.statSync(path.join(dir, "state")).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });

  it("narrows an existing log file that others can read to 0600, keeping its lines", () => {
    const file = path.join(dir, "hermes.log");
    fs.writeFileSync(file, '{"msg":"before"}\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    createLogger({ file, level: "info" }).info("after");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readLines(file).map((line) => line.msg)).toEqual(["before", "after"]);
  });

  it("never follows a symlink at the log's path: the file it points at keeps its text and its mode", () => {
    const target = path.join(dir, "bashrc");
    fs.writeFileSync(target, "export PATH\n", { mode: 0o644 });
    fs.chmodSync(target, 0o644);
    const file = path.join(dir, "hermes.log");
    fs.symlinkSync(target, file);
    const logger = createLogger({ file, level: "info" });
    logger.error("appended?");
    expect(logger.level).toBe("silent");
    expect(fs.readFileSync(target, "utf8")).toBe("export PATH\n");
    expect(fs.statSync(target).mode & 0o777).toBe(0o644);
  });

  it("refuses a log path that is not a regular file, without waiting on a FIFO", () => {
    const file = path.join(dir, "hermes.log");
    fs.mkdirSync(file);
    expect(createLogger({ file, level: "info" }).level).toBe("silent");
    const fifo = path.join(dir, "fifo.log");
    execFileSync("mkfifo", [fifo]);
    expect(createLogger({ file: fifo, level: "info" }).level).toBe("silent");
  });

  it("leaves an existing directory's mode alone (it may be shared, like /tmp)", () => {
    fs.chmodSync(dir, 0o755);
    createLogger({ file: path.join(dir, "hermes.log"), level: "info" }).info("x");
    expect(fs.statSync(dir).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(dir, "hermes.log")).mode & 0o777).toBe(0o600);
  });

  it("returns a silent logger when the file can't be created, and never throws", () => {
    const blocker = path.join(dir, "not-a-dir");
    fs.writeFileSync(blocker, "x");
    const file = path.join(blocker, "sub", "hermes.log");
    const logger = createLogger({ file, level: "info" }, [TOKEN]);
    expect(logger.level).toBe("silent");
    expect(() => logger.error("nothing")).not.toThrow();
    expect(fs.existsSync(file)).toBe(false);
  });
});
