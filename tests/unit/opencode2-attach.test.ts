// startAttach2 before it touches a server: a configuration problem ends it, and with only the chat
// id missing it answers /start (setup mode), as the 1.x runner does.
import { randomBytes, randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AttachError } from "../../lib/attach/attach-mode.ts";
import { startAttach2 } from "../../lib/attach/opencode2-runner.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";

describe("startAttach2 without a full configuration", () => {
  let telegram: FakeTelegram;
  let logDir: string;
  beforeAll(async () => {
    telegram = await startFakeTelegram({ token: `${randomInt(100_000, 999_999)}:attach2-unit-${randomBytes(8).toString("hex")}` });
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-attach2-unit-"));
  });
  afterAll(async () => {
    await telegram.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  it("no token: fails with a configuration error, without contacting the server", async () => {
    const handle = startAttach2({ url: "http://127.0.0.1:9", env: { HERMES_LOG_FILE: path.join(logDir, "a.log") } });
    const error = await handle.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AttachError);
    expect((error as AttachError).kind).toBe("config");
  });

  it("only the chat id missing: answers /start with the chat id", async () => {
    const handle = startAttach2({
      url: "http://127.0.0.1:9",
      env: { HERMES_TELEGRAM_TOKEN: telegram.token, HERMES_TELEGRAM_API_ROOT: telegram.apiRoot, HERMES_LOG_FILE: path.join(logDir, "b.log") },
    });
    await handle.ready;
    telegram.sendText(DEFAULT_CHAT_ID, "/start");
    const reply = await telegram.waitForMessage((m) => m.text.includes(String(DEFAULT_CHAT_ID)), { timeoutMs: 15_000, what: "the /start reply" });
    expect(reply.chatId).toBe(DEFAULT_CHAT_ID);
    await handle.stop();
    await handle.done;
  });
});
