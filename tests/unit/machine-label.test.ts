// The machine label: when it shows, what it looks like with a hostile name, and that every message
// text, edit and caption gets it while staying within Telegram's limits as HTML.
import { describe, expect, it } from "vitest";
import { LABEL_ROOM, labelLine, labelMessages, machineLabel } from "../../lib/telegram/render/machine-label.ts";
import { CAPTION_LIMIT, MESSAGE_LIMIT, visibleLength } from "../../lib/text/html.ts";
import { parseTelegramHtml } from "../support/fake-telegram.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";
import { trustedHtml } from "../../lib/text/html.ts";

const host = () => "devbox";

describe("machineLabel: when the machine is named on messages", () => {
  it("a name set explicitly always shows, in any chat", () => {
    expect(machineLabel({ machineName: "alpha", chatId: 42 }, host)).toBe("alpha");
    expect(machineLabel({ machineName: "alpha", chatId: -100, topics: true }, host)).toBe("alpha");
  });

  it("otherwise the host name, only in a group without topics", () => {
    expect(machineLabel({ chatId: -100 }, host)).toBe("devbox");
    expect(machineLabel({ chatId: -100, topics: true }, host)).toBeUndefined();
    expect(machineLabel({ chatId: 42 }, host)).toBeUndefined();
    expect(machineLabel({ chatId: undefined }, host)).toBeUndefined(); // setup only: no chat yet
  });
});

describe("labelMessages", () => {
  it("a hostile name is marked and escaped, and cut", () => {
    const line = labelLine(`<b>evil</b>\u202E${"x".repeat(200)}`);
    expect(line).toContain("&lt;b&gt;evil&lt;/b&gt;⟨U+202E⟩");
    expect(parseTelegramHtml(line).ok).toBe(true);
    expect(line.length).toBeLessThan(120);
  });

  it("sends, edits and captions start with the label; a full-length text is cut to fit as HTML", async () => {
    const memory = new MemoryTelegram();
    const api = labelMessages(memory, "alpha");
    const { messageId } = await api.sendMessage(1, trustedHtml("hello <b>there</b>"));
    expect(memory.messages[0]!.text).toBe("🖥 <b>alpha</b>\nhello <b>there</b>");
    await api.editMessage(1, messageId, trustedHtml(`${"&amp;".repeat(1000)}<i>tail</i>`), []);
    const edited = memory.messages[0]!.text;
    const parsed = parseTelegramHtml(edited);
    expect(parsed.ok && parsed.plain.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(edited.startsWith("🖥 <b>alpha</b>\n")).toBe(true);
    await api.sendDocument(1, "x.diff", "+a", { caption: trustedHtml("c".repeat(CAPTION_LIMIT)) });
    const document = memory.documents.at(-1)!;
    expect(document.caption!.startsWith("🖥 <b>alpha</b>\n")).toBe(true);
    const caption = parseTelegramHtml(document.caption!);
    expect(caption.ok && caption.plain.length).toBeLessThanOrEqual(CAPTION_LIMIT);
  });

  it("counts as Telegram counts: a message whose HTML is long but whose text fits keeps its end", async () => {
    const memory = new MemoryTelegram();
    const name = "n".repeat(500);
    const api = labelMessages(memory, name);
    // The longest label leaves LABEL_ROOM free.
    expect(visibleLength(`${labelLine(name)}\n`)).toBeLessThanOrEqual(LABEL_ROOM);
    const html = `${"<b>x</b>".repeat(MESSAGE_LIMIT - LABEL_ROOM - 4)}<i>end</i>`;
    await api.sendMessage(1, trustedHtml(html));
    const sent = memory.messages[0]!.text;
    expect(sent.endsWith("<i>end</i>")).toBe(true);
    expect(visibleLength(sent)).toBeLessThanOrEqual(MESSAGE_LIMIT);
  });
});
