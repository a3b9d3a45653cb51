// The fake Telegram's conversation as a chat page: one HTML document with a phone-sized column per
// snapshot, the bot's messages as bubbles with their formatting (Telegram HTML parsed into text and
// entities by html.ts, then written back as the page's own markup), edits applied (the message as it
// stands, marked "edited"), inline keyboards with their colours, files as file bubbles, replies with
// the message they answer, and the human's messages on the right. A rich message (sendRichMessage)
// is drawn from the tree the fake read (telegram/rich.ts): headings, paragraphs, code with its
// language, lists, quotes, real tables with their alignment, collapsible blocks (closed, or open
// when the snapshot says so), every text escaped. Pure: values in, a string out.
// `npm run screenshots` (scripts/screenshots.ts) photographs it; tests can write it out to look at.
import { parseTelegramHtml, type MessageEntity } from "./html.ts";
import type { RichNode } from "./rich.ts";
import type { SentMessage } from "./types.ts";

export interface ChatButton {
  text: string;
  /** The Bot API's button style: "success" (green), "danger" (red), "primary". */
  style?: string;
}

export interface ChatEntry {
  from: "bot" | "human";
  messageId: number;
  /** Bot messages: Telegram HTML (parse_mode HTML); human messages: plain text. */
  text: string;
  html: boolean;
  keyboard?: ChatButton[][];
  document?: { filename: string; bytes: number };
  replyTo?: number;
  edited?: boolean;
  /** A rich message's blocks (then `text` is its visible text). */
  rich?: RichNode[];
}

export interface ChatSnapshot {
  title: string;
  entries: ChatEntry[];
  /** Rich messages' collapsible blocks drawn open (as after a tap on them). */
  openDetails?: boolean;
}

/** Bot messages as they stand now (deleted ones left out), with the human's messages, in the chat's order. */
export function chatEntries(
  bot: readonly SentMessage[],
  humans: ReadonlyArray<{ messageId: number; text: string; deleted?: boolean; replyTo?: number }> = [],
): ChatEntry[] {
  const entries: ChatEntry[] = [
    ...bot
      .filter((message) => !message.deleted)
      .map(
        (message): ChatEntry => ({
          from: "bot",
          messageId: message.messageId,
          text: message.text,
          html: message.parseMode?.toUpperCase() === "HTML",
          ...(keyboardOf(message.replyMarkup) ? { keyboard: keyboardOf(message.replyMarkup)! } : {}),
          ...(message.document ? { document: { filename: message.document.filename, bytes: message.document.bytes } } : {}),
          ...(message.replyToMessageId !== undefined ? { replyTo: message.replyToMessageId } : {}),
          ...(message.history.length > 1 ? { edited: true } : {}),
          ...(message.rich ? { rich: message.rich.blocks } : {}),
        }),
      ),
    ...humans
      .filter((message) => !message.deleted)
      .map(
        (message): ChatEntry => ({
          from: "human",
          messageId: message.messageId,
          text: message.text,
          html: false,
          ...(message.replyTo !== undefined ? { replyTo: message.replyTo } : {}),
        }),
      ),
  ];
  return entries.sort((a, b) => a.messageId - b.messageId);
}

function keyboardOf(markup: unknown): ChatButton[][] | undefined {
  const rows = (markup as { inline_keyboard?: unknown } | undefined)?.inline_keyboard;
  if (!Array.isArray(rows) || rows.length === 0) return undefined;
  return rows.map((row: unknown) =>
    (Array.isArray(row) ? row : []).map((button: { text?: unknown; style?: unknown }) => ({
      text: String(button.text ?? ""),
      ...(typeof button.style === "string" ? { style: button.style } : {}),
    })),
  );
}

const escapeText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

const TAGS: Record<string, [string, string]> = {
  bold: ["<b>", "</b>"],
  italic: ["<i>", "</i>"],
  underline: ["<u>", "</u>"],
  strikethrough: ["<s>", "</s>"],
  spoiler: ['<span class="spoiler">', "</span>"],
  code: ["<code>", "</code>"],
  blockquote: ["<blockquote>", "</blockquote>"],
  expandable_blockquote: ['<blockquote class="expandable">', "</blockquote>"],
};

function openTag(entity: MessageEntity): string {
  if (entity.type === "pre") return `<pre${entity.language ? ` data-language="${escapeText(entity.language)}"` : ""}>`;
  if (entity.type === "text_link") return `<a href="${escapeText(entity.url ?? "")}">`;
  return TAGS[entity.type]?.[0] ?? "<span>";
}

function closeTag(entity: MessageEntity): string {
  if (entity.type === "pre") return "</pre>";
  if (entity.type === "text_link") return "</a>";
  return TAGS[entity.type]?.[1] ?? "</span>";
}

/** Plain text and its entities (UTF-16 offsets, properly nested as Telegram's HTML makes them) as page markup. */
export function entitiesToHtml(plain: string, entities: readonly MessageEntity[]): string {
  const sorted = [...entities].sort((a, b) => a.offset - b.offset || b.length - a.length);
  const open: MessageEntity[] = [];
  let out = "";
  let next = 0;
  for (let i = 0; i <= plain.length; i++) {
    while (open.length > 0 && open[open.length - 1]!.offset + open[open.length - 1]!.length === i) out += closeTag(open.pop()!);
    while (next < sorted.length && sorted[next]!.offset === i) {
      const entity = sorted[next++]!;
      if (entity.length === 0) continue;
      out += openTag(entity);
      open.push(entity);
    }
    if (i < plain.length) out += plain[i] === "\n" ? "<br>" : escapeText(plain[i]!);
  }
  return out;
}

/** Rich tags drawn as the same page tag. */
const RICH_SAME = new Set([
  ..."p h1 h2 h3 h4 h5 h6 b strong i em u ins s strike del mark sub sup ul ol li blockquote table tr th td summary footer aside figure figcaption".split(" "),
]);

/** A rich message's tree as page markup: the tags it has a look for, their text escaped; `open`: collapsible blocks drawn open. */
export function richToHtml(nodes: ReadonlyArray<RichNode | string>, open = false): string {
  return nodes
    .map((node) => {
      if (typeof node === "string") return escapeText(node);
      const inner = () => richToHtml(node.children, open);
      switch (node.tag) {
        case "br":
          return "<br>";
        case "hr":
          return "<hr>";
        case "input":
          return node.attrs.checked !== undefined ? "☑ " : "☐ ";
        case "a":
          return `<a href="${escapeText(node.attrs.href ?? "")}">${inner()}</a>`;
        case "tg-spoiler":
          return `<span class="spoiler">${inner()}</span>`;
        case "code":
          return node.attrs.class
            ? `<code data-language="${escapeText(node.attrs.class.replace(/^language-/, ""))}">${inner()}</code>`
            : `<code>${inner()}</code>`;
        case "pre":
          return `<pre>${inner()}</pre>`;
        case "details":
          return `<details${open || node.attrs.open !== undefined ? " open" : ""}>${inner()}</details>`;
        case "table":
          return `<table class="rich">${inner()}</table>`;
        case "th":
        case "td": {
          const align = node.attrs.align && /^(left|center|right)$/.test(node.attrs.align) ? ` style="text-align:${node.attrs.align}"` : "";
          return `<${node.tag}${align}>${inner()}</${node.tag}>`;
        }
        default:
          return RICH_SAME.has(node.tag) ? `<${node.tag}>${inner()}</${node.tag}>` : `<span>${inner()}</span>`;
      }
    })
    .join("");
}

function bodyOf(entry: ChatEntry, open = false): string {
  if (entry.rich) return `<div class="rich">${richToHtml(entry.rich, open)}</div>`;
  if (!entry.html) return escapeText(entry.text).replace(/\n/g, "<br>");
  const parsed = parseTelegramHtml(entry.text);
  return parsed.ok ? entitiesToHtml(parsed.plain, parsed.entities) : escapeText(entry.text).replace(/\n/g, "<br>");
}

/** The first line of a message, as the quote above a reply shows it. */
function quoteOf(entry: ChatEntry): string {
  if (entry.document) return `📄 ${entry.document.filename}`;
  const plain = entry.html ? ((parseTelegramHtml(entry.text) as { plain?: string }).plain ?? entry.text) : entry.text;
  const line = plain.split("\n").find((text) => text.trim() !== "") ?? "";
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function sizeOf(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function entryHtml(entry: ChatEntry, byId: Map<number, ChatEntry>, open = false): string {
  const target = entry.replyTo !== undefined ? byId.get(entry.replyTo) : undefined;
  const reply = target ? `<div class="reply">${escapeText(quoteOf(target))}</div>` : "";
  const file = entry.document
    ? `<div class="file"><span class="file-icon">📄</span><span><b>${escapeText(entry.document.filename)}</b><br><small>${sizeOf(entry.document.bytes)}</small></span></div>`
    : "";
  const text = entry.text !== "" ? `<div class="text">${bodyOf(entry, open)}</div>` : "";
  const meta = `<div class="meta">${entry.edited ? "edited" : ""}</div>`;
  const keyboard = entry.keyboard
    ? `<div class="keyboard">${entry.keyboard
        .map(
          (row) =>
            `<div class="row">${row.map((button) => `<span class="button${button.style ? ` ${escapeText(button.style)}` : ""}">${escapeText(button.text)}</span>`).join("")}</div>`,
        )
        .join("")}</div>`
    : "";
  return `<div class="message ${entry.from}"><div class="bubble">${reply}${file}${text}${meta}</div>${keyboard}</div>`;
}

const STYLE = `
* { box-sizing: border-box; }
body { margin: 0; background: #e6ebee; font: 14px/1.38 "Noto Sans", "DejaVu Sans", sans-serif; color: #000; }
.phones { display: flex; gap: 20px; padding: 20px; align-items: flex-start; }
.phone { width: 400px; border-radius: 22px; overflow: hidden; background: #b7c9a6; box-shadow: 0 2px 10px rgba(0,0,0,.25); }
.phone > header { background: #517da2; color: #fff; padding: 12px 16px; font-weight: 600; }
.phone > header small { display: block; font-weight: 400; opacity: .8; }
.chat { padding: 10px 10px 14px; display: flex; flex-direction: column; gap: 6px; }
.message { display: flex; flex-direction: column; max-width: 92%; }
.message.bot { align-self: flex-start; }
.message.human { align-self: flex-end; }
.bubble { background: #fff; border-radius: 12px; padding: 6px 10px 4px; box-shadow: 0 1px 1px rgba(0,0,0,.15); overflow-wrap: anywhere; }
.human .bubble { background: #effdde; }
.meta { font-size: 11px; color: #8c9aa5; text-align: right; min-height: 4px; }
.reply { border-left: 3px solid #3a8fd6; padding: 1px 6px; margin: 2px 0 4px; color: #3a8fd6; font-size: 13px; background: #eef5fb; border-radius: 3px; }
code, pre { font-family: "Noto Sans Mono", "DejaVu Sans Mono", monospace; font-size: 12.5px; }
code { color: #c0392b; }
pre { background: #f1f3f5; padding: 6px 8px; border-radius: 6px; margin: 4px 0; white-space: pre-wrap; }
pre code { color: inherit; }
blockquote { margin: 4px 0; padding: 2px 8px; border-left: 3px solid #3a8fd6; background: #eef5fb; border-radius: 3px; }
blockquote.expandable { max-height: 4.2em; overflow: hidden; }
a { color: #2481cc; text-decoration: none; }
.spoiler { background: #c9ced3; color: transparent; border-radius: 3px; }
.file { display: flex; gap: 8px; align-items: center; padding: 2px 0 4px; }
.file-icon { font-size: 26px; }
.keyboard { margin-top: 3px; display: flex; flex-direction: column; gap: 3px; }
.keyboard .row { display: flex; gap: 3px; }
.button { flex: 1; text-align: center; background: rgba(70, 95, 60, .55); color: #fff; border-radius: 8px; padding: 7px 6px; font-size: 13px; font-weight: 500; }
.button.success { background: #3fa34d; }
.button.danger { background: #d9453b; }
.button.primary { background: #3a8fd6; }
.rich h1, .rich h2, .rich h3, .rich h4, .rich h5, .rich h6 { margin: 6px 0 4px; line-height: 1.25; }
.rich h1 { font-size: 19px; } .rich h2 { font-size: 17px; } .rich h3, .rich h4, .rich h5, .rich h6 { font-size: 15px; }
.rich p { margin: 3px 0; }
.rich ul, .rich ol { margin: 3px 0; padding-left: 22px; }
.rich table.rich { border-collapse: collapse; margin: 5px 0; font-size: 13px; }
.rich table.rich th, .rich table.rich td { border: 1px solid #d5dbe0; padding: 3px 7px; }
.rich table.rich th { background: #f1f3f5; }
.rich details { margin: 5px 0; border: 1px solid #d5dbe0; border-radius: 8px; padding: 4px 8px; background: #fafbfc; }
.rich summary { cursor: pointer; color: #2481cc; }
.rich details pre { max-height: 320px; overflow: hidden; }
.rich hr { border: 0; border-top: 1px solid #d5dbe0; }
`;

/** The whole page: one phone column per snapshot. */
export function renderChatPage(snapshots: readonly ChatSnapshot[], subtitle = "bot"): string {
  const phones = snapshots.map((snapshot) => {
    const byId = new Map(snapshot.entries.map((entry) => [entry.messageId, entry]));
    return `<section class="phone"><header>${escapeText(snapshot.title)}<small>${escapeText(subtitle)}</small></header><div class="chat">${snapshot.entries
      .map((entry) => entryHtml(entry, byId, snapshot.openDetails === true))
      .join("\n")}</div></section>`;
  });
  return `<!doctype html><html><head><meta charset="utf-8"><title>Hermes on the phone</title><style>${STYLE}</style></head><body><div class="phones">${phones.join("\n")}</div></body></html>\n`;
}
