// Every text Hermes sends to Telegram, with the secrets taken out: the bot token (and its secret
// half) and the transcription key. The agent can read its environment or a file and print one; its
// Done notice, its answer.md, the draft of its answer, a permission prompt, a file it sends
// (telegram_send_file; scrubbed a chunk at a time as it is read from disk, byte-scrubber.ts) or a
// caption would then carry it into a chat a group sees. One wrapper around the client, so no
// message, edit, caption, document, topic name or callback answer goes out without passing it.
// HTML texts are scrubbed in their escaped form too (a key may hold `&` or `<`). What stands in for
// a secret is never longer than it, so a text cut to Telegram's limit stays within it. The hub
// wraps every bridge's client in it.
import { escapeHtml, type Html, trustedHtml } from "../../text/html.ts";
import type { TelegramApi } from "./api.ts";
import { type BytePair, scrubChunks, scrubWhole } from "./byte-scrubber.ts";
import type { ChunkedBytes } from "./upload-source.ts";
import { trustedRich } from "../../rich/rich-html.ts";

/** What stands in for a secret in what Telegram is sent (a shorter secret: as many "•"). */
export const SCRUBBED = "[secret removed]";
/** Shorter strings would shred ordinary text (and are not secrets). */
const MIN_SECRET_LENGTH = 6;

export function scrubbedTelegram(api: TelegramApi, secrets: string[]): TelegramApi {
  const plain = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH))];
  // Longest first: the whole token goes before its secret half.
  const all = [
    ...new Map([...plain.map((secret) => [secret, standIn(secret)] as const), ...plain.map((secret) => [escapeHtml(secret), standIn(secret)] as const)]),
  ].sort(([a], [b]) => b.length - a.length);
  if (all.length === 0) return api;
  const scrub = (text: string): string => {
    let out = text;
    for (const [secret, replacement] of all) if (out.includes(secret)) out = out.split(secret).join(replacement);
    return out;
  };
  // What stands in for a secret is plain text without "<", "&" or quotes: HTML stays HTML.
  const scrubHtml = (text: Html): Html => trustedHtml(scrub(text));
  const scrubbed: TelegramApi = {
    getUpdates: (offset, timeout, signal) => api.getUpdates(offset, timeout, signal),
    sendMessage: (chatId, html, options) =>
      api.sendMessage(
        chatId,
        scrubHtml(html),
        options?.forceReply ? { ...options, forceReply: { placeholder: scrub(options.forceReply.placeholder) } } : options,
      ),
    editMessage: (chatId, messageId, html, keyboard) => api.editMessage(chatId, messageId, scrubHtml(html), keyboard),
    removeKeyboard: (chatId, messageId) => api.removeKeyboard(chatId, messageId),
    sendDraft: (chatId, draftId, html, threadId) => api.sendDraft(chatId, draftId, scrubHtml(html), threadId),
    deleteMessage: (chatId, messageId) => api.deleteMessage(chatId, messageId),
    sendFile: (chatId, file, options) =>
      api.sendFile(
        chatId,
        { ...file, filename: scrub(file.filename), bytes: scrubBytes(file.bytes, plain) },
        options?.caption === undefined ? options : { ...options, caption: scrubHtml(options.caption) },
      ),
    // Audio is sent as it is (its words were scrubbed before they were spoken, speech/); its caption is scrubbed.
    sendVoice: (chatId, ogg, options) =>
      api.sendVoice(chatId, ogg, options?.caption === undefined ? options : { ...options, caption: scrubHtml(options.caption) }),
    sendDocument: (chatId, filename, content, options) =>
      api.sendDocument(chatId, scrub(filename), scrub(content), options?.caption === undefined ? options : { ...options, caption: scrubHtml(options.caption) }),
    createTopic: (chatId, name) => api.createTopic(chatId, scrub(name)),
    renameTopic: (chatId, threadId, name) => api.renameTopic(chatId, threadId, scrub(name)),
    answerCallback: (id, text, showAlert) => api.answerCallback(id, text === undefined ? undefined : scrub(text), showAlert),
    react: (chatId, messageId, emoji) => api.react(chatId, messageId, emoji),
    getMe: () => api.getMe(),
    getFile: (fileId) => api.getFile(fileId),
    downloadFile: (filePath, maxBytes) => api.downloadFile(filePath, maxBytes),
    setCommands: (commands) => api.setCommands(commands),
  };
  const { sendRichMessage, editRichMessage, sendRichDraft } = api;
  // Rich HTML escapes text as Telegram HTML does: a secret's two forms are the same in both.
  if (sendRichMessage) scrubbed.sendRichMessage = (chatId, rich, options) => sendRichMessage(chatId, trustedRich(scrub(rich)), options);
  if (editRichMessage) scrubbed.editRichMessage = (chatId, messageId, rich, keyboard) => editRichMessage(chatId, messageId, trustedRich(scrub(rich)), keyboard);
  if (sendRichDraft) scrubbed.sendRichDraft = (chatId, draftId, rich, threadId) => sendRichDraft(chatId, draftId, trustedRich(scrub(rich)), threadId);
  if (api.reachability) Object.defineProperty(scrubbed, "reachability", { get: () => api.reachability, enumerable: true });
  return scrubbed;
}

/** The bytes of a file the agent sends, each secret's UTF-8 replaced (bytes that hold none are sent as they are); chunked bytes are scrubbed as they are read (byte-scrubber.ts). */
function scrubBytes(bytes: Uint8Array | ChunkedBytes, secrets: string[]): Uint8Array | ChunkedBytes {
  const encoder = new TextEncoder();
  const pairs: BytePair[] = secrets.map((secret) => [encoder.encode(secret), encoder.encode(standIn(secret))]);
  if (bytes instanceof Uint8Array) return scrubWhole(bytes, pairs);
  return { size: bytes.size, chunks: () => scrubChunks(bytes.chunks(), pairs) };
}

/** Never longer than the secret (in visible characters too: its escaped form shows as the secret). */
function standIn(secret: string): string {
  return secret.length >= SCRUBBED.length ? SCRUBBED : "•".repeat(secret.length);
}
