// What the queue looks like on the phone (issue 53, docs/phone.md#the-queue): the notice a message
// held behind a busy run gets (its place, ✖ Remove and ⏩ Send now), /queue's list (oldest first,
// each with its first words, who sent it, when and where, and its two buttons), the red
// confirmation of Send now, and what became of a message. Pure. The words are untrusted: revealed,
// escaped, cut.
import type { Strings } from "../../i18n/catalog.ts";
import { formatDuration } from "../../i18n/duration.ts";
import { encodeCallback, type QueueAction } from "../codec.ts";
import { escapeHtml, escapeWithin, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";

/** A message as the list shows it. */
export interface QueuedView {
  key: string;
  text: string;
  /** Who sent it (their Telegram name), when known. */
  who?: string;
  at: number;
  project: string;
  sessionTitle?: string;
}

/** The first words shown (in characters, before escaping). */
export const WORDS_LIMIT = 60;
/** Lines listed at most (the buttons of each take a row; Telegram shows 100 buttons at most). */
export const LISTED_LIMIT = 20;

export const firstWords = (text: string, t: Strings): Html => escapeWithin(reveal(text.replace(/\s+/g, " ").trim(), t), WORDS_LIMIT);

export function queueButton(action: QueueAction, key: string, t: Strings, n?: number): InlineButton {
  const q = t.queue;
  const labels: Record<QueueAction, string> = {
    queueRemove: q.removeButton(n),
    queueSendNow: q.sendNowButton(n),
    queueConfirm: q.confirmButton,
    queueBack: q.backButton,
  };
  return {
    text: labels[action],
    callback_data: encodeCallback({ key, action, question: 0, option: 0 }),
    ...(action === "queueConfirm" ? { style: "danger" as const } : {}),
  };
}

const both = (key: string, t: Strings, n?: number): InlineButton[] => [queueButton("queueRemove", key, t, n), queueButton("queueSendNow", key, t, n)];

/** The notice of a message held behind a busy run: its place (1: next) and its two buttons. */
export function renderQueuedNotice(key: string, place: number, t: Strings): RenderedMessage {
  return { text: t.queue.queued(place), keyboard: [both(key, t)] };
}

/** /queue's list, oldest first; `now` for "when". */
export function renderQueueList(entries: readonly QueuedView[], now: number, t: Strings): RenderedMessage {
  if (entries.length === 0) return { text: t.queue.empty, keyboard: [] };
  const shown = entries.slice(0, LISTED_LIMIT);
  const lines = shown.map((entry, index) => {
    const where = escapeWithin(reveal(entry.sessionTitle ? `${entry.project} · ${entry.sessionTitle}` : entry.project, t), 80);
    const who = escapeWithin(reveal(entry.who ?? t.queue.someone, t), 40);
    return t.queue.line(index + 1, firstWords(entry.text, t), who, escapeHtml(formatDuration(Math.max(0, now - entry.at), t)), where);
  });
  const more = entries.length > shown.length ? [escapeHtml(t.git.andMore(entries.length - shown.length))] : [];
  return {
    text: joinHtml([t.queue.head(entries.length), ...lines, ...more], "\n"),
    keyboard: shown.map((entry, index) => both(entry.key, t, index + 1)),
  };
}

/** Send now's red confirmation, on the notice or the list it was tapped on. */
export function renderSendNowConfirm(key: string, text: string, t: Strings): RenderedMessage {
  return { text: t.queue.confirm(firstWords(text, t)), keyboard: [[queueButton("queueConfirm", key, t), queueButton("queueBack", key, t)]] };
}

export type QueuedOutcome = "removed" | "sent" | "sendingNow";

/** What became of a message: its notice, without buttons. */
export function renderQueuedOutcome(outcome: QueuedOutcome, text: string, t: Strings): RenderedMessage {
  return { text: t.queue[outcome](firstWords(text, t)), keyboard: [] };
}
