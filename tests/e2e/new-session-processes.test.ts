// /new across processes, end to end: two OpenCode processes of one version share the bot, each
// serving its own project. /new shows a picker naming both (their base names collide, so each
// label adds its parent), and the project of the process that does not poll gets the session: the
// tap crossed the relay to the process that serves it, which created the session there.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatSetup } from "../support/chat-kind.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { isTitleRequest } from "../support/llm/chat-request.ts";
import { startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { isOpencode2, OPENCODE2_VERSION, OPENCODE_VERSIONS, startOpencode, type OpencodeServer, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import { PACKAGE_ROOT, PLUGIN_PATH } from "./question-suite.ts";

describe.each<OpencodeVersion>([...OPENCODE_VERSIONS, OPENCODE2_VERSION])("/new across two processes on OpenCode %s", (version) => {
  const chat = chatSetup("private");
  let telegram: FakeTelegram;
  let llm: MockLlm;
  const members: Array<{ server: OpencodeServer; logFile: string }> = [];
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-new-"));
  const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-run-"));

  beforeAll(async () => {
    telegram = await startFakeTelegram(chat.telegram);
    llm = await startMockLlm();
    for (const name of ["alpha", "beta"]) {
      const logFile = path.join(logDir, `${name}.log`);
      const server = await startOpencode({
        version,
        llmBaseURL: llm.baseURL,
        plugins: [isOpencode2(version) ? PACKAGE_ROOT : PLUGIN_PATH],
        ...(isOpencode2(version) ? { password: "hermes-e2e" } : {}),
        env: {
          HERMES_TELEGRAM_TOKEN: telegram.token,
          HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
          HERMES_LOG_FILE: logFile,
          // The relay lines it reads the roles from are debug.
          HERMES_LOG_LEVEL: "debug",
          XDG_RUNTIME_DIR: runtimeDir,
          ...chat.env,
        },
      });
      members.push({ server, logFile });
    }
  }, 180_000);
  afterAll(async () => {
    await Promise.all(members.map((member) => member.server.stop()));
    await llm?.close();
    await telegram?.close();
    fs.rmSync(logDir, { recursive: true, force: true });
    fs.rmSync(runtimeDir, { recursive: true, force: true });
  });

  const log = (logFile: string) => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "");
  const roleOf = (logFile: string) =>
    /relay (leader|follower)/.exec(
      log(logFile)
        .split("\n")
        .filter((line) => /relay (leader|follower)/.test(line))
        .at(-1) ?? "",
    )?.[1];

  it("a picker names both projects, and the one served by the process that does not poll gets the session", async () => {
    await pollUntil(() => members.every((member) => roleOf(member.logFile) !== undefined), { timeoutMs: 30_000, what: "a leader and a follower" });
    const follower = members.find((member) => roleOf(member.logFile) === "follower")!;
    expect(follower).toBeDefined();
    const command = telegram.sendText(DEFAULT_CHAT_ID, "/new cross-process-instruction-P1");
    const picker = await telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && telegram.buttons(m).length === 4, {
      // Two projects, each with 📁 and 🌿 (a new worktree of it, docs/git.md).
      timeoutMs: 20_000,
      what: "the project picker",
    });
    const labels = telegram.buttons(picker).map((button) => button.text);
    for (const member of members) {
      const parent = path.basename(path.dirname(member.server.directory));
      expect(labels.filter((label) => label.includes(parent))).toHaveLength(1);
    }
    const label = labels.find((text) => text.includes(path.basename(path.dirname(follower.server.directory))))!;
    await telegram.waitForCallbackAnswer(await telegram.tapButton(picker, label));
    const request = await pollUntil(
      () => llm.requests.find((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes("cross-process-instruction-P1")),
      { timeoutMs: 30_000, what: "the instruction at the LLM" },
    );
    expect(JSON.stringify(request)).toContain(follower.server.directory);
    await pollUntil(() => log(follower.logFile).includes("new session from the phone"), { what: "the follower created it" });
    const leader = members.find((member) => member !== follower)!;
    expect(log(leader.logFile)).not.toContain("new session from the phone");
    await telegram.waitForMessage((m) => m.messageId > command.messageId && /Running|<b>Done<\/b>/.test(m.text), {
      timeoutMs: 20_000,
      what: "the run's progress message or Done notice",
    });
  });
});
