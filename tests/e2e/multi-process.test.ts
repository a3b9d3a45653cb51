// Several OpenCode processes share one bot token: exactly one polls Telegram, every process's
// prompts are answerable, and when the polling process is killed another takes over.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { startOpencode, type OpencodeServer } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { PLUGIN_PATH } from "./question-suite.ts";

const bash = (command: string) => ({ tool: "bash", args: { command, description: `run ${command}` } });
const question = (marker: string) => ({ question: `Pick one [${marker}]`, header: "Pick", options: [{ label: "Left", description: "" }, { label: "Right", description: "" }] });

interface Member {
  name: string;
  server: OpencodeServer;
  logFile: string;
  alive: boolean;
}

describe("several OpenCode processes, one bot token", () => {
  let telegram: FakeTelegram;
  let llm: MockLlm;
  const members: Member[] = [];
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-multi-"));

  async function addMember(name: string): Promise<Member> {
    const logFile = path.join(logDir, `${name}.log`);
    const server = await startOpencode({
      version: "1.18.33",
      llmBaseURL: llm.baseURL,
      plugins: [PLUGIN_PATH],
      permission: { bash: "ask" },
      env: {
        HERMES_TELEGRAM_TOKEN: telegram.token,
        HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
        HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
        HERMES_LOG_FILE: logFile,
      },
    });
    const member = { name, server, logFile, alive: true };
    members.push(member);
    return member;
  }

  const log = (member: Member) => (fs.existsSync(member.logFile) ? fs.readFileSync(member.logFile, "utf8") : "");
  const isLeader = (member: Member) => /relay leader/.test(log(member).split("\n").filter((line) => /relay (leader|follower)/.test(line)).at(-1) ?? "");

  /** Raises a question and a permission in one member and answers both from the phone. */
  async function answerBoth(member: Member, marker: string): Promise<void> {
    const ask = await member.server.createSession();
    await member.server.prompt(ask.id, directive({ tool: "question", args: { questions: [question(marker)] } }));
    const allow = await member.server.createSession();
    await member.server.prompt(allow.id, directive(bash(`echo permitted-${marker}`)));

    const questionMessage = await telegram.waitForMessage((m) => m.text.includes(`[${marker}]`) && telegram.buttons(m).length > 0, { timeoutMs: 30_000, what: `question ${marker}` });
    expect(questionMessage.text).toContain(`<code>${path.basename(member.server.directory)}</code>`);
    const permissionMessage = await telegram.waitForMessage((m) => m.text.includes(`permitted-${marker}`) && telegram.buttons(m).length > 0, { timeoutMs: 30_000, what: `permission ${marker}` });
    await telegram.tapButton(questionMessage, "Right");
    await telegram.tapButton(permissionMessage, "Allow once");
    await llm.waitForToolResult((r) => r.content.includes(`[${marker}]`) && r.content.includes('"Right"'), { timeoutMs: 30_000, what: `answer ${marker}` });
    await llm.waitForToolResult((r) => r.content.includes(`permitted-${marker}`), { timeoutMs: 30_000, what: `bash output ${marker}` });
  }

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    llm = await startMockLlm();
    await addMember("alpha");
    await addMember("beta");
  }, 180_000);

  afterAll(async () => {
    await Promise.all(members.map((member) => member.server.stop()));
    await llm?.close();
    await telegram?.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  it("two processes: each one's question and permission are answered from the phone", async () => {
    await pollUntil(() => members.filter(isLeader).length === 1, { timeoutMs: 15_000, what: "one leader" });
    await answerBoth(members[0]!, "alpha-1");
    await answerBoth(members[1]!, "beta-1");
  });

  it("three processes: still one poller, every prompt answered", async () => {
    await addMember("gamma");
    await answerBoth(members[2]!, "gamma-1");
    await answerBoth(members[0]!, "alpha-2");
    expect(members.filter(isLeader)).toHaveLength(1);
  });

  it("kill -9 the leader: a survivor takes over, and its next prompts are delivered and answered", async () => {
    const leader = members.find(isLeader)!;
    process.kill(leader.server.pid, "SIGKILL");
    leader.alive = false;
    const survivors = members.filter((member) => member.alive);
    await pollUntil(() => survivors.filter(isLeader).length === 1, { timeoutMs: 15_000, what: "a new leader among the survivors" });
    for (const [index, member] of survivors.entries()) await answerBoth(member, `after-kill-${index}`);
  });

  it("Telegram never saw two concurrent getUpdates, and nothing was answered twice", () => {
    expect(telegram.maxConcurrentGetUpdates).toBe(1);
    const answered = telegram.calls.filter((call) => call.method === "answerCallbackQuery");
    expect(answered.every((call) => call.status === 200)).toBe(true);
    const ids = answered.map((call) => call.payload.callback_query_id);
    expect(new Set(ids).size).toBe(ids.length);
    const results = llm.toolResults.map((result) => result.content);
    for (const marker of ["alpha-1", "beta-1", "gamma-1", "alpha-2", "after-kill-0", "after-kill-1"]) {
      expect(results.filter((content) => content.includes(`[${marker}]`))).toHaveLength(1);
    }
  });
});
