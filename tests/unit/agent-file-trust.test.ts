// telegram_send_file answers to OpenCode's read rules, shows the file's real name, and holds one
// file in memory at a time (the fourth review): real files in a temporary project, a sender that
// records what it was given.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { AgentFiles, type AgentFileSender } from "../../lib/bridge/agent-tools/agent-files.ts";
import { FileRefused } from "../../lib/bridge/agent-tools/file-rules.ts";
import { envFileRule } from "../../lib/bridge/agent-tools/read-permission.ts";
import { MAX_WAITING_SENDS, sendProjectFile, type ReadAsk } from "../../lib/bridge/agent-tools/send-project-file.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { Registry } from "../../lib/registry/registry.ts";
import type { OutgoingFile } from "../../lib/telegram/wire/api.ts";
import { Outbox } from "../../lib/telegram/wire/outbox.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

const logger = pino({ level: "silent" });

let project: string;
const owner = { sessionID: "ses_1", directory: "" };
beforeAll(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-file-trust-")));
  owner.directory = project;
  for (const name of [".env", ".env.local", ".env.example", "prod.env", "report.txt", "invoice\u202Efdp.apk", `report${" ".repeat(40)}.txt`])
    fs.writeFileSync(path.join(project, name), `${name} bytes`);
  fs.mkdirSync(path.join(project, "config"));
  fs.writeFileSync(path.join(project, "config", ".env"), "DEEP=1");
});
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

/** A sender that records each file and answers at once (or when `hold` lets it). */
function recorder(hold?: () => Promise<void>) {
  const files: OutgoingFile[] = [];
  let started = 0;
  const sender: AgentFileSender = {
    async sendAgentFile(_owner, file) {
      started++;
      if (hold) await hold();
      files.push(file);
      return { messageId: files.length, as: "document" };
    },
  };
  return { sender, files, started: () => started };
}

async function refusedRule(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FileRefused);
  return (error as FileRefused).rule;
}

describe("OpenCode's read rule for .env files", () => {
  it("without OpenCode's permission call, *.env and *.env.* are refused naming the rule, .env.example is sent", async () => {
    const { sender, files } = recorder();
    for (const name of [".env", ".env.local", "prod.env", "config/.env"])
      expect(await refusedRule(sendProjectFile(sender, { directory: project }, owner, { path: name }))).toBe("env-file");
    expect(files).toEqual([]);
    expect(await sendProjectFile(sender, { directory: project }, owner, { path: ".env.example" })).toContain("Sent .env.example");
    const error = (await sendProjectFile(sender, { directory: project }, owner, { path: ".env" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain('not sent (rule "env-file")');
    expect(error.message).toContain("*.env");
  });

  it("the rule as OpenCode writes it: the last matching pattern wins", () => {
    expect(envFileRule("/p/.env")).toBe("*.env");
    expect(envFileRule("/p/a/.env.production")).toBe("*.env.*");
    expect(envFileRule("/p/.env.example")).toBeUndefined();
    expect(envFileRule("/p/environment.ts")).toBeUndefined();
    expect(envFileRule("/p/.envrc")).toBeUndefined();
  });

  it("with OpenCode's permission call, every file is asked about as its read tool asks; a refusal is OpenCode's own error and sends nothing", async () => {
    const asked: Parameters<ReadAsk>[0][] = [];
    const rejected = new Error("The user rejected permission to use this specific tool call.");
    const ask: ReadAsk = async (request) => {
      asked.push(request);
      if (request.patterns.some((pattern) => pattern.endsWith(".env"))) throw rejected;
    };
    const { sender, files } = recorder();
    const error = await sendProjectFile(sender, { directory: project, worktree: project }, owner, { path: ".env" }, ask).catch((e: unknown) => e);
    expect(error).toBe(rejected);
    expect(files).toEqual([]);
    expect(asked[0]).toEqual({
      permission: "read",
      patterns: [".env", path.join(project, ".env")],
      always: [".env", path.join(project, ".env")],
      metadata: {},
    });
    // The user's rules decide, not Hermes': an allowed .env.local is sent.
    expect(await sendProjectFile(sender, { directory: project, worktree: project }, owner, { path: ".env.local" }, ask)).toContain("Sent .env.local");
    expect(files.map((file) => file.filename)).toEqual([".env.local"]);
  });
});

describe("the file's name", () => {
  it("a bidi override in the name is shown as a marker, so invoice‮fdp.apk cannot pass for a PDF; blank runs are marked too", async () => {
    const telegram = new MemoryTelegram();
    const outbox = new Outbox({ logger, limits: false });
    const registry = new Registry();
    const files = new AgentFiles({ telegram, outbox, registry, topics: { threadOf: async () => undefined }, log: logger, t: CATALOGS.en, chatId: 42 });
    try {
      const sender = { sendAgentFile: files.send.bind(files) };
      await sendProjectFile(sender, { directory: project }, owner, { path: "invoice\u202Efdp.apk" });
      await sendProjectFile(sender, { directory: project }, owner, { path: `report${" ".repeat(40)}.txt` });
      expect(telegram.sentFiles.map((sent) => sent.file.filename)).toEqual(["invoice⟨U+202E⟩fdp.apk", "report⟨40 spaces⟩.txt"]);
    } finally {
      await outbox.stop();
    }
  });
});

describe("parallel sends", () => {
  it("one file is read and sent at a time; the others wait their turn; past the queue's length a call is refused as busy", async () => {
    const releases: Array<() => void> = [];
    const { sender, files, started } = recorder(() => new Promise<void>((resolve) => releases.push(resolve)));
    const calls = Array.from({ length: MAX_WAITING_SENDS + 1 }, () => sendProjectFile(sender, { directory: project }, owner, { path: "report.txt" }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started()).toBe(1);
    expect(await refusedRule(sendProjectFile(sender, { directory: project }, owner, { path: "report.txt" }))).toBe("busy");
    for (let sent = 1; sent <= calls.length; sent++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(started()).toBe(sent);
      releases.shift()!();
    }
    await Promise.all(calls);
    expect(files).toHaveLength(calls.length);
  });
});
