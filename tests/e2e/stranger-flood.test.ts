// Strangers who find the bot can't slow the owner down (issue #10 item 3), against the real
// OpenCode 1.18.33 and a fake Telegram that enforces flood limits. On the previous main, ten
// /start from strangers delayed the owner's tap by seconds (each paced reply was awaited by the
// poll loop); now they get no answer and the tap goes straight through. The delays are printed as
// measurements, not asserted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram, type TgUser } from "../support/fake-telegram.ts";
import { directive, startMockLlm, type MockLlm } from "../support/mock-llm.ts";
import { startOpencode, type OpencodeServer } from "../support/opencode.ts";
import { PLUGIN_PATH } from "./question-suite.ts";

const question = (marker: string) => ({
  question: `Pick one [${marker}]`,
  header: "Pick",
  options: [
    { label: "Left", description: "" },
    { label: "Right", description: "" },
  ],
});
const stranger = (id: number): TgUser => ({ id, is_bot: false, first_name: `Stranger ${id}` });

describe("a /start flood from strangers", () => {
  let telegram: FakeTelegram;
  let llm: MockLlm;
  let server: OpencodeServer;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-flood-"));

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    telegram.setFloodLimits(true);
    llm = await startMockLlm();
    server = await startOpencode({
      version: "1.18.33",
      llmBaseURL: llm.baseURL,
      plugins: [PLUGIN_PATH],
      env: {
        HERMES_TELEGRAM_TOKEN: telegram.token,
        HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
        HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
        HERMES_LOG_FILE: path.join(logDir, "hermes.log"),
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await llm?.close();
    await telegram?.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  /** Asks a question, optionally lets strangers flood first, taps, and returns ms from the tap to the answer at the LLM. */
  async function tapAfter(marker: string, flood: () => void): Promise<number> {
    const session = await server.createSession();
    await server.prompt(session.id, directive({ tool: "question", args: { questions: [question(marker)] } }));
    const message = await telegram.waitForMessage((m) => m.text.includes(`[${marker}]`) && telegram.buttons(m).length > 0, { timeoutMs: 30_000, what: marker });
    flood();
    const tappedAt = Date.now();
    await telegram.tapButton(message, "Right");
    await llm.waitForToolResult((r) => r.content.includes(`[${marker}]`) && r.content.includes('"Right"'), { timeoutMs: 60_000, what: `answer ${marker}` });
    return Date.now() - tappedAt;
  }

  it("the owner's tap goes through at once, and strangers get no answer", async () => {
    const warm = await tapAfter("warm-up", () => undefined);
    const quiet = await tapAfter("quiet", () => undefined);
    const privateFlood = await tapAfter("private-flood", () => {
      for (let i = 0; i < 10; i++) telegram.sendText(5000 + i, "/start", { from: stranger(5000 + i), chatType: "private" });
    });
    const groupFlood = await tapAfter("group-flood", () => {
      for (let i = 0; i < 10; i++) telegram.sendText(-4242, "/start", { from: stranger(6000 + i), chatType: "group" });
    });
    console.info(
      `[stranger flood] tap → answer at OpenCode: ${warm} ms for the first tap, ${quiet} ms quiet, ${privateFlood} ms after ten strangers' /start, ${groupFlood} ms after ten /start in a stranger's group`,
    );
    const toStrangers = telegram.calls.filter((call) => call.method === "sendMessage" && Number(call.payload.chat_id) !== DEFAULT_CHAT_ID);
    expect(toStrangers).toEqual([]);
  }, 180_000);
});
