// Every text Hermes sends to Telegram is scrubbed of the bot token, its secret half and the
// transcription key (lib/telegram/wire/scrubbed-api.ts): messages, edits, force-reply placeholders,
// documents, captions, files the agent sends, topic names and callback answers. The escaped HTML
// form of a key is found too; files without a secret go out byte for byte.
import { describe, expect, it } from "vitest";
import { SCRUBBED, scrubbedTelegram } from "../../lib/telegram/wire/scrubbed-api.ts";
import { secretsOf } from "../../lib/system/log.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const TOKEN = "123456:AAHsecretPartOfTheToken_xyz";
const KEY = "sk-<key>&more-998877";
const HALF = TOKEN.split(":")[1]!;

describe("scrubbedTelegram", () => {
  it("scrubs every text that goes out, in plain and escaped form", async () => {
    const memory = new MemoryTelegram();
    const telegram = scrubbedTelegram(memory, secretsOf(TOKEN, KEY));
    const sent = await telegram.sendMessage(1, trustedHtml(`token ${TOKEN} key sk-&lt;key&gt;&amp;more-998877 half ${HALF}`), {
      forceReply: { placeholder: `p ${KEY}` },
    });
    expect(memory.messages[0]!.text).toBe(`token ${SCRUBBED} key ${SCRUBBED} half ${SCRUBBED}`);
    await telegram.editMessage(1, sent.messageId, trustedHtml(`edited ${TOKEN}`), []);
    expect(JSON.stringify(memory.messages)).not.toContain(HALF);
    expect(JSON.stringify(memory.messages)).not.toContain("998877");
    await telegram.sendDocument(1, `f-${HALF}.md`, `# answer\n${TOKEN}\n${KEY}`, { caption: trustedHtml(`c ${KEY}`) });
    expect(memory.documents[0]).toMatchObject({ filename: `f-${SCRUBBED}.md`, content: `# answer\n${SCRUBBED}\n${SCRUBBED}`, caption: `c ${SCRUBBED}` });
    await telegram.sendFile(1, {
      as: "document",
      filename: ".env",
      bytes: new TextEncoder().encode(`A=1\nHERMES_TELEGRAM_TOKEN=${TOKEN}\n`),
      mime: "text/plain",
    });
    expect(new TextDecoder().decode(memory.sentFiles[0]!.file.bytes)).toBe(`A=1\nHERMES_TELEGRAM_TOKEN=${SCRUBBED}\n`);
    const threadId = await telegram.createTopic(1, `topic ${HALF}`);
    await telegram.renameTopic(1, threadId, `renamed ${KEY}`);
    expect(memory.topics.map((topic) => topic.name)).toEqual([`renamed ${SCRUBBED}`]);
    await telegram.answerCallback("q", `alert ${TOKEN}`);
    expect(memory.callbackAnswers[0]!.text).toBe(`alert ${SCRUBBED}`);
  });

  it("what stands in for a short key is no longer than the key, so a text cut to the limit stays within it", async () => {
    const memory = new MemoryTelegram();
    const short = "k3y&<9";
    await scrubbedTelegram(memory, [short]).sendMessage(1, trustedHtml(`a ${"k3y&amp;&lt;9".repeat(3)} b`));
    expect(memory.messages[0]!.text).toBe(`a ${"••••••".repeat(3)} b`);
  });

  it("a file without a secret goes out as the same bytes; without secrets the client is the same", async () => {
    const memory = new MemoryTelegram();
    const bytes = Uint8Array.from([0, 255, 1, 2, 3]);
    await scrubbedTelegram(memory, secretsOf(TOKEN)).sendFile(1, { as: "photo", filename: "a.png", bytes, mime: "image/png" });
    expect(memory.sentFiles[0]!.file.bytes).toBe(bytes);
    expect(scrubbedTelegram(memory, [])).toBe(memory);
  });

  it("a file read in chunks reaches Telegram scrubbed, a secret split between two chunks included", async () => {
    const memory = new MemoryTelegram();
    const text = `KEY=${TOKEN}\nother=${HALF}\n`;
    const cut = text.indexOf(TOKEN) + 10;
    const bytes = {
      size: text.length,
      async *chunks() {
        yield new TextEncoder().encode(text.slice(0, cut));
        yield new TextEncoder().encode(text.slice(cut));
      },
    };
    await scrubbedTelegram(memory, secretsOf(TOKEN)).sendFile(1, { as: "document", filename: ".env", bytes, mime: "text/plain" });
    expect(new TextDecoder().decode(memory.sentFiles[0]!.file.bytes)).toBe(`KEY=${SCRUBBED}\nother=${SCRUBBED}\n`);
  });
});
