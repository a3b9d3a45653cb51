// telegram_send_file past the rules: the bridge's side (agent-files.ts) with an in-memory Telegram
// and a real outbox and registry, and the tool's run (send-project-file.ts) on real files.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AgentFiles } from "../../lib/bridge/agent-tools/agent-files.ts";
import { FileRefused } from "../../lib/bridge/agent-tools/file-rules.ts";
import { sendProjectFile } from "../../lib/bridge/agent-tools/send-project-file.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { TelegramApiError, type OutgoingFile, type UploadOptions } from "../../lib/telegram/wire/api.ts";
import { Outbox } from "../../lib/telegram/wire/outbox.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

const logger = pino({ level: "silent" });
const CHAT = 42;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

let project: string;
beforeAll(() => {
  project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-agent-files-")));
  fs.writeFileSync(path.join(project, "shot.png"), PNG);
  fs.writeFileSync(path.join(project, "report.txt"), "all green\n");
});
afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

const outboxes: Outbox[] = [];
afterEach(async () => {
  await Promise.all(outboxes.splice(0).map((outbox) => outbox.stop()));
});

function rig(telegram = new MemoryTelegram(), threadId?: number) {
  const registry = new Registry();
  registry.sessions.upsert({ id: "ses_1", title: "Fix the cart" });
  const outbox = new Outbox({ logger, limits: false });
  outboxes.push(outbox);
  const topics = { threadOf: async () => threadId };
  const files = new AgentFiles({ telegram, outbox, registry, topics, log: logger, t: CATALOGS.en, chatId: CHAT });
  const sender = { sendAgentFile: files.send.bind(files) };
  const owner = { sessionID: "ses_1", directory: project };
  return { telegram, registry, outbox, sender, owner };
}

describe("the agent's file, sent as a message of its session", () => {
  it("a PNG goes as a photo with its bytes and a caption; a reply to it belongs to the session", async () => {
    const { telegram, registry, sender, owner } = rig();
    const result = await sendProjectFile(sender, { directory: project }, owner, { path: "shot.png", caption: "the **cart**" });
    expect(result).toMatch(/^Sent shot\.png \(15 bytes\) to the user's Telegram chat as a photo\./);
    const [sent] = telegram.sentFiles;
    expect(sent!.file).toMatchObject({ as: "photo", mime: "image/png", filename: "shot.png" });
    expect(Buffer.from(sent!.file.bytes).equals(PNG)).toBe(true);
    expect(sent!.caption).toBe(`📁 <code>${path.basename(project)}</code> · Fix the cart\nthe <b>cart</b>`);
    expect(registry.ownerOf({ chatId: CHAT, messageId: sent!.messageId })).toEqual(owner);
  });

  it("any other file goes as a document, in the session's topic when there is one", async () => {
    const { telegram, sender, owner } = rig(new MemoryTelegram(), 77);
    expect(await sendProjectFile(sender, { directory: project }, owner, { path: "report.txt" })).toContain("as a document");
    expect(telegram.sentFiles[0]).toMatchObject({ file: { as: "document", filename: "report.txt" }, threadId: 77 });
  });

  it("a picture Telegram refuses as a photo goes again as a document", async () => {
    class NoPhotos extends MemoryTelegram {
      override async sendFile(chatId: number, file: OutgoingFile, options?: UploadOptions) {
        if (file.as === "photo") throw new TelegramApiError(400, "Bad Request: PHOTO_INVALID_DIMENSIONS");
        return super.sendFile(chatId, file, options);
      }
    }
    const { telegram, sender, owner } = rig(new NoPhotos());
    expect(await sendProjectFile(sender, { directory: project }, owner, { path: "shot.png" })).toContain("as a document");
    expect(telegram.sentFiles.map((sent) => sent.file.as)).toEqual(["document"]);
  });

  it("a refused path sends nothing and names the rule; Telegram's refusal is said too", async () => {
    const { telegram, sender, owner } = rig();
    const refused = await sendProjectFile(sender, { directory: project }, owner, { path: "../x.png" }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FileRefused);
    expect((refused as Error).message).toContain('rule "outside-project"');
    expect(telegram.sentFiles).toEqual([]);
    class Gone extends MemoryTelegram {
      override async sendFile(): Promise<{ messageId: number }> {
        throw new TelegramApiError(403, "Forbidden: bot was kicked from the group chat");
      }
    }
    const gone = rig(new Gone());
    const error = (await sendProjectFile(gone.sender, { directory: project }, gone.owner, { path: "report.txt" }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe("not sent: Telegram did not take report.txt (Telegram 403: Forbidden: bot was kicked from the group chat)");
  });

  it("a prompt does not wait for an upload still under way", async () => {
    let release!: () => void;
    class SlowUpload extends MemoryTelegram {
      override async sendFile(chatId: number, file: OutgoingFile, options?: UploadOptions) {
        await new Promise<void>((resolve) => (release = resolve));
        return super.sendFile(chatId, file, options);
      }
    }
    const { telegram, outbox, sender, owner } = rig(new SlowUpload());
    const upload = sendProjectFile(sender, { directory: project }, owner, { path: "report.txt" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const prompt = await outbox.send(CHAT, () => () => telegram.sendMessage(CHAT, "Which color?"));
    expect(prompt?.messageId).toBeDefined();
    expect(telegram.sentFiles).toEqual([]);
    release();
    await upload;
    expect(telegram.sentFiles).toHaveLength(1);
  });
});
