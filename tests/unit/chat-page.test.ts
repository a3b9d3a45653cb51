// The chat page (tests/support/telegram/chat-page.ts) shows the fake Telegram's conversation as a
// phone would: Hermes' real Bot API client sends HTML with a keyboard, edits it, sends a file in
// reply, and a human writes; the page has the formatting from the entities, the keyboard with its
// colours, the edit applied (and marked), the file, the reply's quote, and the human on the right.
import { afterEach, describe, expect, it } from "vitest";
import { createTelegramApi } from "../../lib/telegram/wire/api.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { chatEntries, entitiesToHtml, renderChatPage } from "../support/telegram/chat-page.ts";
import { trustedHtml } from "../../lib/text/html.ts";
import { trustedRich } from "../../lib/rich/rich-html.ts";

let fake: FakeTelegram | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe("entitiesToHtml", () => {
  it("nests entities as Telegram stores them, escapes the text, keeps line breaks and the code block's language", () => {
    const plain = "Done: <x> & y\nlink code";
    const html = entitiesToHtml(plain, [
      { type: "bold", offset: 0, length: 13 },
      { type: "italic", offset: 6, length: 3 },
      { type: "text_link", offset: 14, length: 4, url: "https://example.com/?a=1&b=2" },
      { type: "pre", offset: 19, length: 4, language: "ts" },
    ]);
    expect(html).toBe('<b>Done: <i>&lt;x&gt;</i> &amp; y</b><br><a href="https://example.com/?a=1&amp;b=2">link</a> <pre data-language="ts">code</pre>');
  });
});

describe("renderChatPage on the fake Telegram's conversation", () => {
  it("bubbles with formatting, the keyboard with colours, the edit applied, a file in reply, the human's message", async () => {
    fake = await startFakeTelegram();
    const api = createTelegramApi(fake.token, fake.apiRoot);
    const chat = DEFAULT_CHAT_ID;
    const { messageId } = await api.sendMessage(chat, trustedHtml("🔐 <b>Permission</b>: edit <code>src/api.ts</code>"), {
      keyboard: [
        [
          { text: "Allow once", callback_data: "a", style: "success" },
          { text: "Reject", callback_data: "r", style: "danger" },
        ],
        [{ text: "Reject with feedback", callback_data: "f" }],
      ],
    });
    const first = renderChatPage([{ title: "Hermes", entries: chatEntries(fake.messages(chat)) }]);
    expect(first).toContain('<span class="button success">Allow once</span><span class="button danger">Reject</span>');
    expect(first).not.toContain("edited");

    await api.editMessage(chat, messageId, trustedHtml("🔐 <b>Permission</b>: edit <code>src/api.ts</code>\n✅ <b>Allowed once</b> from Telegram"), []);
    const { messageId: fileId } = await api.sendDocument(chat, "changes.diff", "+a\n-b\n", { caption: trustedHtml("the whole diff"), replyTo: messageId });
    fake.sendText(chat, "thanks <3", { replyTo: fileId });
    await fake.waitFor(() => fake!.humanMessages(chat).length === 1);

    const page = renderChatPage([{ title: "Hermes", entries: chatEntries(fake.messages(chat), fake.humanMessages(chat)) }], "bot · private chat");
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain("🔐 <b>Permission</b>: edit <code>src/api.ts</code><br>✅ <b>Allowed once</b> from Telegram");
    expect(page).not.toContain('class="keyboard"');
    expect(page).toContain('<div class="meta">edited</div>');
    expect(page).toContain(
      '<div class="reply">🔐 Permission: edit src/api.ts</div><div class="file"><span class="file-icon">📄</span><span><b>changes.diff</b>',
    );
    expect(page).toContain('<div class="message human"><div class="bubble"><div class="reply">📄 changes.diff</div><div class="text">thanks &lt;3</div>');
    expect(page.indexOf("Allowed once")).toBeLessThan(page.indexOf("changes.diff"));
    expect(page).toContain("<small>bot · private chat</small>");
  });
});

describe("renderChatPage: rich messages", () => {
  it("draws a rich message from the fake's tree: heading, table with alignment, code with its language, a collapsible block closed or open, text escaped", async () => {
    fake = await startFakeTelegram({ richMessages: "supported" });
    const api = createTelegramApi(fake.token, fake.apiRoot);
    const chat = DEFAULT_CHAT_ID;
    await api.sendRichMessage!(
      chat,
      trustedRich(
        '<h2>Done &lt;x&gt;</h2><table bordered><tr><th>file</th><th align="center">change</th></tr><tr><td>a &amp; b.ts</td><td align="center">+1</td></tr></table>' +
          '<pre><code class="language-ts">a &lt; b</code></pre><details><summary>📄 diff</summary><pre><code class="language-diff">+&lt;b&gt;</code></pre></details>',
      ),
      { keyboard: [[{ text: "⑂ Fork", callback_data: "f" }]] },
    );
    const entries = chatEntries(fake.messages(chat));
    const closed = renderChatPage([{ title: "Hermes", entries }]);
    expect(closed).toContain("<h2>Done &lt;x&gt;</h2>");
    expect(closed).toContain('<table class="rich"><tr><th>file</th><th style="text-align:center">change</th></tr><tr><td>a &amp; b.ts</td>');
    expect(closed).toContain('<pre><code data-language="ts">a &lt; b</code></pre>');
    expect(closed).toContain('<details><summary>📄 diff</summary><pre><code data-language="diff">+&lt;b&gt;</code></pre></details>');
    expect(closed).toContain('<span class="button">⑂ Fork</span>');
    expect(renderChatPage([{ title: "Hermes", entries, openDetails: true }])).toContain("<details open><summary>");
  });
});
