// The shape of the strings of the queue from the phone (/queue, the queued notice, Remove and Send
// now, docs/phone.md#the-queue): part of the catalogue (strings.ts' `queue`), filled in by
// queue-en.ts and queue-zh.ts. Parameters typed Html come escaped; plain strings are button labels
// and callback answers.
import type { Html } from "../text/html.ts";

export interface QueueStrings {
  /** The menu's line for /queue (plain), and /help's line. */
  menu: string;
  help: Html;
  /** The notice a message held behind a busy run gets: its place in the line (1: next). */
  queued: (place: number) => Html;
  /** /queue's list: its head, one line per message (its number, first words, who sent it, when, where). */
  head: (count: number) => Html;
  line: (n: number, words: Html, who: Html, ago: Html, where: Html) => Html;
  empty: Html;
  /** Who sent it when the phone knows no name. */
  someone: string;
  /** What became of a message (the notice, or the list's line, edited). */
  confirm: (words: Html) => Html;
  removed: (words: Html) => Html;
  sent: (words: Html) => Html;
  sendingNow: (words: Html) => Html;
  stopFailed: (why: Html) => Html;
  /** Buttons (plain; `n`: the message's number in the list, none on its own notice). */
  removeButton: (n?: number) => string;
  sendNowButton: (n?: number) => string;
  confirmButton: string;
  backButton: string;
  /** Callback answers (plain). */
  removing: string;
  tapConfirm: string;
  stopping: string;
  stale: string;
}
