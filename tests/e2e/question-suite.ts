// The question bridge end to end: the real `opencode serve` with Hermes loaded from plugin.ts,
// a scripted LLM, and a fake Telegram Bot API. Run once per supported OpenCode version.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatSetup, type ChatKind } from "../support/chat-kind.ts";
import { startFakeTelegram, type FakeTelegram, type FakeTelegramOptions, type SentMessage } from "../support/fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { isOpencode2, startOpencode, type OpencodeServer, type OpencodeVersion } from "../support/opencode.ts";
import { pollUntil } from "../support/wait.ts";
import type { Cell } from "./matrix.ts";

export const PLUGIN_PATH = path.resolve(import.meta.dirname, "../../plugin.ts");
/** OpenCode 2 loads a local plugin from a folder (its server.ts): the package root. */
export const PACKAGE_ROOT = path.resolve(import.meta.dirname, "../..");
/** OpenCode 2 always has a password; Hermes finds it in OPENCODE_SERVER_PASSWORD (see lib/opencode2/own-server.ts). */
const OPENCODE2_PASSWORD = "hermes-e2e";
const STRANGER = { id: 666, first_name: "Stranger" };

export interface Rig {
  /** Where Hermes posts: the owner's private chat or a supergroup. */
  chatId: number;
  telegram: FakeTelegram;
  llm: MockLlm;
  opencode: OpencodeServer;
  logFile: string;
  stop(): Promise<void>;
}

export async function startRig(
  version: OpencodeVersion,
  env: Record<string, string> = {},
  pluginPath: string = isOpencode2(version) ? PACKAGE_ROOT : PLUGIN_PATH,
  /** `warmup: false`: the project's instance (and Hermes in it) starts on the test's first request. */
  config: {
    permission?: unknown;
    extraConfig?: Record<string, unknown>;
    globalConfig?: Record<string, unknown>;
    mockModel?: Record<string, unknown>;
    projectFiles?: Record<string, string>;
    extraModels?: string[];
    warmup?: boolean;
    chat?: ChatKind;
    telegram?: FakeTelegramOptions;
    password?: string | false;
    service?: boolean;
  } = {},
): Promise<Rig> {
  const { chat: kind = "private", telegram: telegramOptions, password: passwordOption, ...opencodeConfig } = config;
  const chat = chatSetup(kind);
  const telegram = await startFakeTelegram({ ...chat.telegram, ...telegramOptions });
  const llm = await startMockLlm();
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-log-")), "hermes.log");
  const password = passwordOption ?? (isOpencode2(version) && !config.service ? OPENCODE2_PASSWORD : undefined);
  const opencode = await startOpencode({
    version,
    llmBaseURL: llm.baseURL,
    plugins: [pluginPath],
    ...opencodeConfig,
    ...(password ? { password } : {}),
    env: {
      HERMES_TELEGRAM_TOKEN: telegram.token,
      HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
      ...chat.env,
      HERMES_LOG_FILE: logFile,
      HERMES_LOG_LEVEL: "debug",
      ...env,
    },
  });
  return {
    chatId: chat.chatId,
    telegram,
    llm,
    opencode,
    logFile,
    async stop() {
      await opencode.stop();
      await llm.close();
      await telegram.close();
      if (!process.env.KEEP_TMP) fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
    },
  };
}

const color = {
  question: "Which color?",
  header: "Color",
  options: [
    { label: "Red", description: "warm" },
    { label: "Blue", description: "cool" },
  ],
};
const sizes = {
  question: "Which sizes?",
  header: "Sizes",
  multiple: true,
  options: [
    { label: "S", description: "small" },
    { label: "M", description: "medium" },
    { label: "L", description: "large" },
  ],
};

/** Starts a session whose LLM calls the question tool with `questions`; resolves with its Telegram message. */
export async function askOnPhone(rig: Rig, questions: unknown[], marker: string, directory?: string): Promise<{ sessionID: string; message: SentMessage }> {
  const session = await rig.opencode.createSession(directory ? { directory } : {});
  const tagged = (questions as Array<{ question: string }>).map((q, index) => (index === 0 ? { ...q, question: `${q.question} [${marker}]` } : q));
  await rig.opencode.prompt(session.id, directive({ tool: "question", args: { questions: tagged } }), directory ? { directory } : {});
  const message = await rig.telegram.waitForMessage((m) => m.text.includes(`[${marker}]`) && rig.telegram.buttons(m).length > 0, {
    timeoutMs: 60_000,
    what: `question ${marker} on the phone`,
  });
  return { sessionID: session.id, message };
}

/** Prompts a session once it is idle: a prompt sent while the turn is still ending can be dropped. */
export async function promptWhenIdle(rig: Rig, sessionID: string, text: string): Promise<void> {
  await pollUntil(async () => !(await rig.opencode.isBusy(sessionID)), { what: `session ${sessionID} idle`, intervalMs: 50 });
  await rig.opencode.prompt(sessionID, text);
}

function current(rig: Rig, message: SentMessage): SentMessage {
  return rig.telegram.messages().find((m) => m.messageId === message.messageId && m.chatId === message.chatId)!;
}

async function waitForButton(rig: Rig, message: SentMessage, text: string): Promise<void> {
  await rig.telegram.waitFor(() => rig.telegram.buttons(current(rig, message)).some((b) => b.text === text), { what: `button "${text}"` });
}

async function settledAs(rig: Rig, message: SentMessage, status: string): Promise<SentMessage> {
  return rig.telegram.waitFor(
    () => {
      const now = current(rig, message);
      return now.text.includes(status) && rig.telegram.buttons(now).length === 0 ? now : undefined;
    },
    { timeoutMs: 30_000, what: `message settled as "${status}"` },
  );
}

/**
 * In a private chat every scenario; in a supergroup the main ones, which together stay within a
 * group's budget of twenty messages a minute (more would make the suite wait for Telegram's limit).
 */
/**
 * What a suite's whole run sent: at least one message, no request body compressed, no edit that
 * Telegram would refuse as changing nothing (the strict setup checks each test; this names it).
 */
export function expectCleanWire(telegram: FakeTelegram): void {
  const posted = telegram.calls.filter((call) => call.method !== "file download");
  expect(posted.filter((call) => call.method === "sendMessage").length).toBeGreaterThan(0);
  expect(
    telegram.compressedCalls.map((call) => `${call.method}: ${call.contentEncoding}`),
    "requests with a Content-Encoding",
  ).toEqual([]);
  expect(telegram.takeRefusedEdits().map((call) => call.method)).toEqual([]);
}

export function questionSuite(cell: Cell): void {
  const { version, chat } = cell;
  const privateOnly = chat === "private" ? it : it.skip;
  describe(`questions over Telegram on OpenCode ${version} in a ${chat} chat`, () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, {}, undefined, { chat });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    it("single choice: a tap answers, the LLM receives the label", async () => {
      const { message } = await askOnPhone(rig, [color], "single");
      expect(message.text).toContain("Which color?");
      expect(message.text).toContain("warm");
      expect(rig.telegram.buttons(message).map((b) => b.text)).toEqual(["Red", "Blue", "Type an answer", "Dismiss", "⏹ Stop"]);
      expect(rig.telegram.buttons(message).every((b) => Buffer.byteLength(b.callback_data ?? "") <= 64)).toBe(true);
      await rig.telegram.tapButton(message, "Blue");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("single"), { what: "tool result" });
      expect(result.content).toContain('"Blue"');
      const final = await settledAs(rig, message, "Answered from Telegram");
      expect(final.text).toContain("→ Blue");
    });

    privateOnly("multiple choice: taps toggle and Done sends every ticked option", async () => {
      const { message } = await askOnPhone(rig, [sizes], "multi");
      await rig.telegram.tapButton(message, "S");
      await waitForButton(rig, message, "✅ S");
      await rig.telegram.tapButton(current(rig, message), "L");
      await waitForButton(rig, message, "✅ L");
      await rig.telegram.tapButton(current(rig, message), "Done");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("multi"), { what: "tool result" });
      expect(result.content).toMatch(/"S, L"|S, L/);
      await settledAs(rig, message, "Answered from Telegram");
    });

    privateOnly("two questions in one call: nothing is sent until both are answered", async () => {
      const { message } = await askOnPhone(rig, [color, sizes], "two");
      await rig.telegram.tapButton(message, "Red");
      await waitForButton(rig, message, "Done");
      expect(await rig.opencode.pendingQuestions()).toHaveLength(1);
      await rig.telegram.tapButton(current(rig, message), "M");
      await waitForButton(rig, message, "✅ M");
      await rig.telegram.tapButton(current(rig, message), "Done");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("two"), { what: "tool result" });
      expect(result.content).toContain('"Red"');
      expect(result.content).toContain('"M"');
    });

    it("free text: the reply to the force-reply prompt becomes the answer", async () => {
      const { message } = await askOnPhone(rig, [color], "free");
      await rig.telegram.tapButton(message, "Type an answer");
      const ask = await rig.telegram.waitForMessage((m) => m.replyMarkup?.force_reply === true, { what: "force reply prompt" });
      rig.telegram.sendText(rig.chatId, "teal, like <the sea> & sky", { replyTo: ask.messageId });
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("free"), { what: "tool result" });
      expect(result.content).toContain("teal, like <the sea> & sky");
      const final = await settledAs(rig, message, "Answered from Telegram");
      expect(final.text).toContain("teal, like &lt;the sea&gt; &amp; sky");
    });

    it("answered in the TUI: the phone's message is edited and loses its buttons", async () => {
      const { message } = await askOnPhone(rig, [color], "tui");
      const [pending] = await rig.opencode.pendingQuestions();
      expect(await rig.opencode.answerQuestion(pending, [["Red"]])).toBeLessThan(300);
      const final = await settledAs(rig, message, "Answered in the terminal");
      expect(final.text).toContain("→ Red");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("tui"), { what: "tool result" });
      expect(result.content).toContain('"Red"');
    });

    privateOnly("dismiss asks for confirmation, then the LLM receives the dismissal", async () => {
      const { message, sessionID } = await askOnPhone(rig, [color], "dismiss");
      await rig.telegram.tapButton(message, "Dismiss");
      await waitForButton(rig, message, "Confirm");
      expect(rig.telegram.buttons(current(rig, message)).find((b) => b.text === "Confirm")?.style).toBe("danger");
      expect(rig.telegram.buttons(message).find((b) => b.text === "Dismiss")?.style).toBeUndefined();
      expect(await rig.opencode.pendingQuestions()).toHaveLength(1);
      await rig.telegram.tapButton(current(rig, message), "Confirm");
      await settledAs(rig, message, "Dismissed from Telegram");
      // A dismissal ends the agent's turn; the LLM sees it in the history of the next turn.
      await promptWhenIdle(rig, sessionID, "what happened?");
      const result = await rig.llm.waitForToolResult((r) => /dismissed this question/i.test(r.content), { what: "dismissal" });
      expect(result.content).toMatch(/dismissed this question/i);
      expect(await rig.opencode.pendingQuestions()).toHaveLength(0);
    });

    it("a tap from an unauthorized user is refused and changes nothing", async () => {
      const { message } = await askOnPhone(rig, [color], "stranger");
      const callback = await rig.telegram.tapButton(message, "Red", STRANGER);
      const answer = await rig.telegram.waitForCallbackAnswer(callback);
      expect(answer.text).toBe("Not authorized");
      expect(await rig.opencode.pendingQuestions()).toHaveLength(1);
      expect(rig.telegram.buttons(current(rig, message)).length).toBeGreaterThan(0);
      await rig.telegram.tapButton(current(rig, message), "Red");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("stranger"), { what: "tool result" });
      expect(result.content).toContain('"Red"');
    });

    it("instance dispose while pending: the message loses its buttons, and the recreated instance answers the next question", async () => {
      const { message } = await askOnPhone(rig, [color], "dispose");
      expect(await rig.opencode.dispose()).toBeLessThan(300);
      // OpenCode 2 cancels the location's forms when it removes the location (form.cancelled, the
      // same event as a dismissal in the terminal); 1.x just drops them with the instance.
      await settledAs(rig, message, isOpencode2(version) ? "Dismissed in the terminal" : "No longer pending");
      const next = await askOnPhone(rig, [color], "after-dispose");
      await rig.telegram.tapButton(next.message, "Red");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("after-dispose"), { what: "tool result after dispose" });
      expect(result.content).toContain('"Red"');
      await settledAs(rig, next.message, "Answered from Telegram");
    }, 90_000);

    privateOnly("50 options with long labels in any script stay usable", async () => {
      const scripts = ["Ελληνικά", "中文选项", "עברית", "emoji 🚀🎉", "<b>&amp;</b>"];
      const options = Array.from({ length: 50 }, (_, index) => ({
        label: `${index} ${scripts[index % scripts.length]!.repeat(20)}`,
        description: "why ".repeat(40),
      }));
      const { message } = await askOnPhone(rig, [{ question: "Pick one of many", header: "Many", options }], "many");
      expect(message.text.length).toBeLessThanOrEqual(4096);
      expect(rig.telegram.buttons(message)).toHaveLength(53); // 50 options, Type an answer, Dismiss, Stop
      const target = rig.telegram.buttons(message).find((button) => button.text.startsWith("38. 37 "))!;
      await rig.telegram.tapButton(message, target.text);
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("[many]"), { what: "tool result" });
      expect(result.content).toContain(options[37]!.label);
    });

    privateOnly("150 options: pages of 50 keep the keyboard within Telegram's limits, and option 137 is answerable", async () => {
      const options = Array.from({ length: 150 }, (_, index) => ({ label: `opt ${index + 1}`, description: "" }));
      const { message } = await askOnPhone(rig, [{ question: "Pick one of 150", header: "Paged", options }], "paged");
      expect(rig.telegram.buttons(message).length).toBeLessThanOrEqual(100);
      expect(message.text).toContain("Options 1–50 of 150");
      await rig.telegram.tapButton(message, "More options ▶");
      await waitForButton(rig, message, "◀ Previous options");
      await rig.telegram.tapButton(current(rig, message), "More options ▶");
      await waitForButton(rig, message, "137. opt 137");
      expect(current(rig, message).text).toContain("Options 101–150 of 150");
      await rig.telegram.tapButton(current(rig, message), "137. opt 137");
      const result = await rig.llm.waitForToolResult((r) => r.content.includes("[paged]"), { what: "tool result" });
      expect(result.content).toContain('"opt 137"');
    });

    it("the bot token never reaches the log file", async () => {
      const log = fs.readFileSync(rig.logFile, "utf8");
      expect(log).toContain("prompt delivered");
      expect(log).not.toContain(rig.telegram.token);
      expect(log).not.toContain(rig.telegram.token.split(":")[1]);
    });

    it("Telegram never had to refuse a message for flood control", () => {
      expect(rig.telegram.flood.rejected).toBe(0);
      expect(rig.telegram.retryAfterViolations).toBe(0);
    });

    it("every Bot API request went out uncompressed, and no edit was refused as changing nothing", () => {
      expectCleanWire(rig.telegram);
    });
  });

  if (chat !== "private") return;
  describe(`question expiry on OpenCode ${version}`, () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig(version, { HERMES_QUESTION_TTL: "3s" });
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    it("an unanswered question expires: rejected in OpenCode, marked expired on the phone", async () => {
      const { message, sessionID } = await askOnPhone(rig, [color], "expire");
      await settledAs(rig, message, "Expired");
      await promptWhenIdle(rig, sessionID, "what happened?");
      const result = await rig.llm.waitForToolResult((r) => /dismissed this question/i.test(r.content), { what: "dismissal by expiry" });
      expect(result.content).toMatch(/dismissed/i);
      expect(await rig.opencode.pendingQuestions()).toHaveLength(0);
    });
  });
}
