// Scheduled runs with two OpenCode processes serving the same project and sharing the bot (and,
// as on one machine for one user, the schedules file): every tick runs once, in one of them,
// and still once a tick after the process that polls Telegram is killed (the other takes over
// the poll, and the claims in the file go on as before). On the real clock with a test minute of a
// few seconds (schedule-minute.ts).
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
import { TEST_MINUTE_ENV, TEST_MINUTE_MS } from "./schedule-minute.ts";

/** A minute's tick, and room for a loaded machine on top. */
const TICK_WAIT_MS = TEST_MINUTE_MS + 30_000;

const VERSIONS: OpencodeVersion[] = [...OPENCODE_VERSIONS].sort((a, b) => (a === "1.18.33" ? -1 : b === "1.18.33" ? 1 : 0));

describe.each<OpencodeVersion>([...VERSIONS, OPENCODE2_VERSION])("scheduled runs across two processes on OpenCode %s", (version) => {
  const chat = chatSetup("private");
  let telegram: FakeTelegram;
  let llm: MockLlm;
  const members: Array<{ server: OpencodeServer; logFile: string }> = [];
  let shared = "";

  beforeAll(async () => {
    // Made here, not when the suite is collected: a version filtered out leaves nothing behind.
    shared = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-sched-"));
    const runtimeDir = path.join(shared, "run");
    const stateDir = path.join(shared, "state");
    fs.mkdirSync(runtimeDir, { mode: 0o700 });
    fs.mkdirSync(stateDir, { mode: 0o700 });
    telegram = await startFakeTelegram(chat.telegram);
    llm = await startMockLlm();
    for (const name of ["alpha", "beta"]) {
      const logFile = path.join(shared, `${name}.log`);
      const server = await startOpencode({
        version,
        llmBaseURL: llm.baseURL,
        plugins: [isOpencode2(version) ? PACKAGE_ROOT : PLUGIN_PATH],
        ...(isOpencode2(version) ? { password: "hermes-e2e" } : {}),
        // The second serves only the first one's project (its own is never opened).
        ...(name === "beta" ? { warmup: false } : {}),
        env: {
          HERMES_TELEGRAM_TOKEN: telegram.token,
          HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
          HERMES_LOG_FILE: logFile,
          HERMES_LOG_LEVEL: "debug",
          XDG_RUNTIME_DIR: runtimeDir,
          XDG_STATE_HOME: stateDir,
          ...TEST_MINUTE_ENV,
          ...chat.env,
        },
      });
      members.push({ server, logFile });
    }
    const [alpha, beta] = members as [(typeof members)[0], (typeof members)[0]];
    const project = alpha.server.directory;
    if (isOpencode2(version)) await beta.server.request("GET", `/api/plugin?location%5Bdirectory%5D=${encodeURIComponent(project)}`);
    else await beta.server.createSession({ directory: project });
    await pollUntil(() => log(beta.logFile).includes(JSON.stringify(project)), { timeoutMs: 30_000, what: "Hermes of the second process in the project" });
  }, 240_000);
  afterAll(async () => {
    await Promise.all(members.map((member) => member.server.stop()));
    await llm?.close();
    await telegram?.close();
    if (!process.env.KEEP_TMP && shared) fs.rmSync(shared, { recursive: true, force: true });
  });

  const log = (logFile: string) => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "");
  const roleOf = (logFile: string) =>
    /relay (leader|follower)/.exec(
      log(logFile)
        .split("\n")
        .filter((line) => /relay (leader|follower)/.test(line))
        .at(-1) ?? "",
    )?.[1];
  /** The due time of every run started, in every process' log. */
  const startedDues = () =>
    members.flatMap((member) =>
      log(member.logFile)
        .split("\n")
        .filter((line) => line.includes("a scheduled run starts"))
        .map((line) => JSON.parse(line).due as number),
    );
  const requestsWith = (needle: string) => llm.requests.filter((r) => !isTitleRequest(r) && JSON.stringify(r.messages ?? []).includes(needle));
  const runMessages = (needle: string) => telegram.messages().filter((m) => m.text.includes("Scheduled run") && m.text.includes(needle));

  it(
    "one run per tick, in one process, also after the process that polls is killed",
    async () => {
      await pollUntil(() => members.every((member) => roleOf(member.logFile) !== undefined), { timeoutMs: 30_000, what: "a leader and a follower" });
      const needle = `shared-tick-${version.replaceAll(".", "-")}`;
      const command = telegram.sendText(DEFAULT_CHAT_ID, `/every 1m ${needle}`);
      await telegram.waitForMessage((m) => m.replyToMessageId === command.messageId && m.text.includes("Scheduled"), { timeoutMs: 30_000, what: "the answer" });
      // Three ticks, each at the LLM: a second process' run of the first two would have started by the third.
      await pollUntil(() => runMessages(needle).length >= 3 || undefined, { timeoutMs: 3 * TICK_WAIT_MS, what: "three ticks" });
      // Every run so far reached the LLM (so none is still in flight in the process killed below; the next tick is a minute away).
      await pollUntil(() => requestsWith(needle).length >= runMessages(needle).length || undefined, { timeoutMs: 30_000, what: "the runs at the LLM" });
      const sameRuns = () => (runMessages(needle).length === startedDues().length && requestsWith(needle).length === startedDues().length) || undefined;
      await pollUntil(sameRuns, { timeoutMs: 30_000, what: "every run started once, sent once, at the LLM once" });
      expect(new Set(startedDues()).size).toBe(startedDues().length);

      // The process that polls dies: the other goes on, one run per tick.
      const leader = members.find((member) => roleOf(member.logFile) === "leader")!;
      const survivor = members.find((member) => member !== leader)!;
      const before = runMessages(needle).length;
      await leader.server.kill();
      await pollUntil(() => runMessages(needle).length > before || undefined, { timeoutMs: TICK_WAIT_MS, what: "a tick after the failover" });
      await pollUntil(() => runMessages(needle).length > before + 1 || undefined, { timeoutMs: TICK_WAIT_MS, what: "a second tick after the failover" });
      await pollUntil(sameRuns, { timeoutMs: 30_000, what: "every run started once, sent once, at the LLM once" });
      const dues = startedDues();
      expect(new Set(dues).size).toBe(dues.length);
      expect(log(survivor.logFile)).toContain("a scheduled run starts");
    },
    6 * TICK_WAIT_MS + 60_000,
  );
});
