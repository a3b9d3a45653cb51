// Undo with several OpenCode processes on one bot: the process that polls Telegram is not the one
// whose session ran, yet the Undo tap, its Confirm and /undo reach the process serving the session
// (its key is that process' own, claimed through the relay), which reverts through its OpenCode.
// Two 1.18.33 processes, each with its own git project, in a private chat.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatSetup } from "../support/chat-kind.ts";
import { startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { startOpencode, type OpencodeServer } from "../support/opencode.ts";
import { gitProject } from "../support/git-project.ts";
import { pollUntil } from "../support/wait.ts";
import { PLUGIN_PATH } from "./question-suite.ts";

const ORIGINAL = "one\ntwo\nthree\n";

interface Member {
  server: OpencodeServer;
  logFile: string;
}

describe("undo with two OpenCode processes on one bot", { timeout: 180_000 }, () => {
  const chat = chatSetup("private");
  let telegram: FakeTelegram;
  let llm: MockLlm;
  const members: Member[] = [];
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-undo-multi-"));
  // The relay's socket lives in $XDG_RUNTIME_DIR/hermes/, shared as in one login session.
  const runtimeDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-run-"));
  const log = (member: Member) => (fs.existsSync(member.logFile) ? fs.readFileSync(member.logFile, "utf8") : "");
  const role = (member: Member) =>
    /relay (leader|follower)/.exec(
      log(member)
        .split("\n")
        .filter((line) => /relay (leader|follower)/.test(line))
        .at(-1) ?? "",
    )?.[1];

  beforeAll(async () => {
    telegram = await startFakeTelegram(chat.telegram);
    llm = await startMockLlm();
    for (const name of ["alpha", "beta"]) {
      const logFile = path.join(logDir, `${name}.log`);
      const server = await startOpencode({
        version: "1.18.33",
        llmBaseURL: llm.baseURL,
        plugins: [PLUGIN_PATH],
        permission: { edit: "allow", bash: "allow" },
        warmup: false,
        env: {
          HERMES_TELEGRAM_TOKEN: telegram.token,
          HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
          HERMES_LOG_FILE: logFile,
          HERMES_LOG_LEVEL: "debug",
          HERMES_DONE_AFTER: "1s",
          XDG_RUNTIME_DIR: runtimeDir,
          ...chat.env,
        },
      });
      // A git project before its instance (and Hermes in it) starts: OpenCode snapshots only there.
      const directory = server.directory;
      gitProject(directory, { "existing.txt": ORIGINAL });
      await server.request("GET", "/config", { directory });
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

  it("the follower's run: Undo and Confirm from the phone revert it in the follower's project", async () => {
    await pollUntil(() => members.filter((member) => role(member) === "leader").length === 1 && members.every((member) => role(member)), {
      timeoutMs: 20_000,
      what: "one leader, one follower",
    });
    const follower = members.find((member) => role(member) === "follower")!;
    const leader = members.find((member) => role(member) === "leader")!;
    const file = path.join(follower.server.directory, "existing.txt");
    const session = await follower.server.createSession();
    await follower.server.prompt(
      session.id,
      directive({
        tool: "read",
        args: { filePath: file },
        then: [
          { tool: "edit", args: { filePath: file, oldString: "two", newString: "TWO" } },
          { tool: "bash", args: { command: "sleep 2", description: "wait" } },
          { text: "follower run done" },
        ],
      }),
    );
    const notice = await telegram.waitForMessage((m) => m.text.includes("<b>Done</b>") && m.text.includes("follower run done"), {
      timeoutMs: 60_000,
      what: "Done",
    });
    expect(fs.readFileSync(file, "utf8")).toBe("one\nTWO\nthree\n");
    await telegram.waitForCallbackAnswer(await telegram.tapButton(notice, "⏪ Undo"));
    const confirm = await telegram.waitForMessage((m) => m.replyToMessageId === notice.messageId && m.text.includes("Undo this run?"), {
      what: "the confirmation",
    });
    await telegram.waitForCallbackAnswer(await telegram.tapButton(confirm, "⏪ Confirm undo"));
    await telegram.waitFor(
      () =>
        telegram
          .messages()
          .find((m) => m.messageId === confirm.messageId)
          ?.text.includes("Undone: 1 file restored")
          ? true
          : undefined,
      {
        timeoutMs: 30_000,
        what: "Undone",
      },
    );
    expect(fs.readFileSync(file, "utf8")).toBe(ORIGINAL);
    // The follower did the work; the leader only passed the taps on.
    expect(log(follower)).toContain("run undone from the phone");
    expect(log(leader)).not.toContain("run undone from the phone");
  });
});
