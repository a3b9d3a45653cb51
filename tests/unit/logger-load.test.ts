// pino is loaded when Hermes first writes a line, or when a run starts (its prompts may follow, prepareLoggerSoon):
// a healthy start writes nothing at the default level, so an idle OpenCode never pays for the
// logger (about 1 MB, docs/performance.md), and a prompt's own line never waits for it to load.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, prepareLoggerSoon } from "../../lib/system/log.ts";
import { request, setup } from "../support/bridge-rig.ts";

let dir: string;
let file: string;
let loads: number;
const loadPino = () => {
  loads++;
  return pino;
};

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-log-load-"));
  file = path.join(dir, "state", "hermes.log");
  loads = 0;
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Past any timer the logger scheduled. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

const lines = () =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; level: number });

describe("createLogger", () => {
  it("creates the private file at once, and loads pino only for a line its level lets through", () => {
    const logger = createLogger({ file, level: "info" }, [], loadPino);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    logger.debug({ directory: "/p" }, "plugin instance started");
    logger.trace("finer still");
    expect(loads).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe("");

    logger.info({ requestID: "que_1" }, "prompt asked");
    logger.warn("then a warning");
    expect(loads).toBe(1);
    expect(lines()).toMatchObject([
      { msg: "prompt asked", level: 30 },
      { msg: "then a warning", level: 40 },
    ]);
  });

  it("prepareLoggerSoon loads pino before the first line, once; a silent logger never loads it", async () => {
    const logger = createLogger({ file, level: "info" }, [], loadPino);
    prepareLoggerSoon(logger);
    await vi.waitFor(() => expect(loads).toBe(1));
    prepareLoggerSoon(logger);
    logger.info("first line");
    await tick();
    expect(loads).toBe(1);
    expect(lines().map((line) => line.msg)).toEqual(["first line"]);

    const silent = createLogger({ file: path.join(dir, "silent.log"), level: "silent" }, [], loadPino);
    prepareLoggerSoon(silent);
    silent.fatal("never written");
    await tick();
    expect(loads).toBe(1);
    expect(fs.readFileSync(path.join(dir, "silent.log"), "utf8")).toBe("");
  });

  it("a log file that can't be opened loads nothing and writes nothing", async () => {
    fs.mkdirSync(file, { recursive: true });
    const logger = createLogger({ file, level: "trace" }, [], loadPino);
    logger.error("lost");
    prepareLoggerSoon(logger);
    await tick();
    expect(logger.level).toBe("silent");
    expect(loads).toBe(0);
  });

  it("the secrets are scrubbed from lines written once pino is loaded", () => {
    const token = "123456789:AAF-lazy_TOKEN-value";
    const logger = createLogger({ file, level: "info" }, [token], loadPino);
    logger.error({ err: `GET https://api.telegram.org/bot${token}/getMe failed` }, "call failed");
    expect(fs.readFileSync(file, "utf8")).not.toContain(token);
    expect(lines()[0]).toMatchObject({ err: "GET https://api.telegram.org/bot[redacted]/getMe failed" });
  });
});

describe("the bridge", () => {
  it("loads the logger when a run starts, on a timer after that event, before the run's first prompt", async () => {
    const logger = createLogger({ file, level: "info" }, [], loadPino);
    const { bridge, ask } = setup({ logger });
    bridge.handleEvent("/home/dev/project", { type: "session.status", sessionID: "ses_1", status: "idle" });
    await tick();
    expect(loads).toBe(0);

    bridge.handleEvent("/home/dev/project", { type: "session.status", sessionID: "ses_1", status: "busy" });
    // Not inside the event's own handling: OpenCode's event hook returns first.
    expect(loads).toBe(0);
    await vi.waitFor(() => expect(loads).toBe(1));
    expect(fs.readFileSync(file, "utf8")).toBe("");

    await ask(request());
    bridge.handleEvent("/home/dev/project", { type: "session.status", sessionID: "ses_2", status: "busy" });
    await tick();
    expect(loads).toBe(1);
    expect(lines().map((line) => line.msg)).toContain("prompt asked");
    await bridge.stop();
  });
});
