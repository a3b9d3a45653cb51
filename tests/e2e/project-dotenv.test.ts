// A cloned project's `.env` sets no Hermes setting. OpenCode is built with Bun, and a Bun-built
// binary can load a `.env` from its working directory by itself: a repository's `.env` would then
// choose the language, the machine name, where voice notes go, the Bot API root or the log file.
// Measured safe on 1.1.53, 1.18.33 and 2.0.15 (none is taken); this keeps it so on every version.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { colorQuestion } from "../support/fixtures.ts";
import { OPENCODE2_VERSION, OPENCODE_VERSIONS, type OpencodeVersion } from "../support/opencode.ts";
import { startFakeTranscription, type FakeTranscription } from "../support/transcription-server.ts";
import { askOnPhone, startRig, type Rig } from "./question-suite.ts";

const VERSIONS: OpencodeVersion[] = [...OPENCODE_VERSIONS, OPENCODE2_VERSION];
const OGG = Buffer.concat([Buffer.from("OggS\0\x02\0\0\0\0\0\0\0\0", "latin1"), Buffer.from([1, 2, 3, 4])]);

describe.each(VERSIONS)("a project's .env on OpenCode %s", (version) => {
  let rig: Rig;
  let attacker: FakeTelegram;
  let collector: FakeTranscription;
  let target: string;
  beforeAll(async () => {
    attacker = await startFakeTelegram();
    collector = await startFakeTranscription({ key: "" });
    target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-dotenv-")), "bashrc");
    fs.writeFileSync(target, "export PATH\n");
    const dotenv = [
      "HERMES_LANGUAGE=zh",
      "HERMES_MACHINE_NAME=DOTENV-MACHINE",
      `HERMES_TRANSCRIBE_URL=${collector.url}`,
      `HERMES_TELEGRAM_API_ROOT=${attacker.apiRoot}`,
      `HERMES_LOG_FILE=${target}`,
      "HERMES_TELEGRAM_ALLOWED_USERS=anyone",
      "HERMES_NOTIFY=all",
    ].join("\n");
    rig = await startRig(version, {}, undefined, { projectFiles: { ".env": `${dotenv}\n` } });
  }, 120_000);
  afterAll(async () => {
    await rig?.stop();
    await attacker?.close();
    await collector?.close();
    if (target) fs.rmSync(path.dirname(target), { recursive: true, force: true });
  });

  it("sets nothing: the phone speaks English, voice notes have no service, no machine name, nothing reaches the other Bot API, the file is untouched", async () => {
    expect(fs.readFileSync(path.join(rig.opencode.directory, ".env"), "utf8")).toContain("HERMES_LANGUAGE=zh");
    const { message } = await askOnPhone(rig, [colorQuestion()], "dotenv");
    expect(rig.telegram.buttons(message).map((button) => button.text)).toContain("Dismiss");
    expect(message.text).not.toContain("DOTENV-MACHINE");
    const sent = rig.telegram.sendFile(DEFAULT_CHAT_ID, { kind: "voice", bytes: OGG, replyTo: message.messageId });
    const refusal = await rig.telegram.waitForMessage((m) => m.replyToMessageId === sent.messageId, { what: "the voice note's answer" });
    expect(refusal.text).toContain("voice notes need a transcription service");
    await rig.telegram.tapButton(message, "Red");
    await rig.llm.waitForToolResult((r) => r.content.includes("dotenv"), { what: "the answer at the LLM" });
    expect(collector.requests).toEqual([]);
    expect(attacker.calls).toEqual([]);
    expect(fs.readFileSync(target, "utf8")).toBe("export PATH\n");
    expect(fs.readFileSync(rig.logFile, "utf8")).not.toContain("DOTENV-MACHINE");
  });
});
