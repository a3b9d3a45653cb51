// The strings of the queue from the phone in English.
import { html } from "../text/html.ts";
import type { QueueStrings } from "./queue-strings.ts";

export const queueEn: QueueStrings = {
  menu: "Messages waiting for busy sessions: remove or send now",
  help: html`• /queue lists the messages waiting for busy sessions (as a reply to a session's message, or in its topic: that session's), with ✖ Remove (never sent) and ⏩ Send now (stops the run and sends it next).`,
  queued: (place) =>
    html`⏳ The agent is busy: your message waits, <b>#${place}</b> in the queue, and is sent when the current run ends. ✖ Remove takes it back; ⏩ Send now stops the run and sends it.`,
  head: (count) => html`⏳ <b>${count} waiting</b> (oldest first)`,
  line: (n, words, who, ago, where) => html`${n}. «${words}» · ${who}, ${ago} ago · ${where}`,
  empty: html`Nothing is waiting: no message is queued for a busy session.`,
  someone: "someone",
  confirm: (words) => html`⏩ <b>Stop the current run and send this now?</b>\n«${words}»`,
  removed: (words) => html`✖ Removed, never sent: «${words}»`,
  sent: (words) => html`▶ Sent to the agent: «${words}»`,
  sendingNow: (words) => html`⏩ Stopping the run; this goes next: «${words}»`,
  stopFailed: (why) => html`⚠️ The run could not be stopped: ${why}\nThe message still waits.`,
  removeButton: (n) => (n === undefined ? "✖ Remove" : `✖ Remove ${n}`),
  sendNowButton: (n) => (n === undefined ? "⏩ Send now" : `⏩ Send ${n} now`),
  confirmButton: "⏩ Stop the run and send",
  backButton: "↩ Back",
  removing: "Removed: it is never sent",
  tapConfirm: "Confirm to stop the run",
  stopping: "Stopping the run…",
  stale: "This message is no longer waiting.",
};
