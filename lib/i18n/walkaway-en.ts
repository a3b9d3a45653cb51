// The strings of walking away in English: the usage-limit pause, the stall alert, /digest.
import { escapeHtml, html } from "../text/html.ts";
import type { WalkawayStrings } from "./walkaway-strings.ts";

const plural = (count: number, one: string, many: string) => escapeHtml(`${count} ${count === 1 ? one : many}`);

export const walkawayEn: WalkawayStrings = {
  pausedUntil: (at, wait) => html`⏸ <b>Usage limit</b> · resumes at ${at} (in ${wait})`,
  pausedNoReset: html`⏸ <b>Usage limit</b> · no reset time known`,
  resumerOpencode: html`OpenCode retries by itself then.`,
  resumerHermes: html`OpenCode gave up; Hermes sends it <code>continue</code> then.`,
  resumerNobody: html`Nothing resumes it by itself: tap Resume now when the limit is over.`,
  providerWords: (words) => html`<blockquote>${words}</blockquote>`,
  held: (count) => html`${plural(count, "message", "messages")} held, sent after the resume`,
  resumedByOpencode: (at) => html`▶ <b>Resumed at ${at}</b> · OpenCode's retry went through`,
  resumedAt: (at) => html`▶ <b>Resumed at ${at}</b>`,
  resumedNow: (at) => html`▶ <b>Resumed at ${at}</b> · from the phone`,
  cancelled: html`⏹ <b>Usage limit</b> · the wait was cancelled`,
  endedOtherwise: html`⏹ <b>Usage limit</b> · the run went on without this pause`,
  heldDropped: (count) => html`${plural(count, "held message was", "held messages were")} not sent`,
  resumeFailed: (error) => html`⚠️ Could not resume: ${error}`,
  resumeNowButton: "▶ Resume now",
  cancelButton: "✖ Cancel",
  resumeNowNote: "Resuming",
  cancelNote: "Cancelled",
  pauseGone: "This pause is over",
  heldNote: html`⏸ Held: it goes to the session when the run resumes.`,

  stallQuiet: (quiet) => html`⚠️ <b>No progress for ${quiet}</b>`,
  stallTool: (tool, detail, running) =>
    detail === undefined ? html`${tool} running for ${running}` : html`${tool} <code>${detail}</code> running for ${running}`,
  stallMoving: html`▶ <b>Moving again</b>`,
  stallKeptWaiting: (window) => html`⏳ Waiting: no other alert for ${window}`,
  stallStopped: html`⏹ <b>Stopped</b>`,
  stallStopFailed: (error) => html`⚠️ Could not stop: ${error}`,
  stallEnded: html`⏹ The run ended`,
  stopButton: "⏹ Stop",
  keepWaitingButton: "⏳ Keep waiting",
  keepWaitingNote: "No alert for another window",
  stopNote: "Stopping",
  stallGone: "This alert is over",

  digestTitle: (since, span) => html`🗒 <b>Since ${since}</b> (${span})`,
  digestNothing: html`Nothing ran and nothing was decided.`,
  digestUsage: html`<code>/digest</code>, <code>/digest 8h</code>, or as a reply to a session's message for that session.`,
  digestProject: (name) => html`📁 <b>${name}</b>`,
  digestSession: (title) => html`<i>${title}</i>`,
  digestRun: (at, starter, outcome, cost, files) =>
    html`▶ ${at} ${starter} · ${outcome}${cost === undefined ? html`` : html` · ${cost}`}${files > 0 ? html` · ${plural(files, "file", "files")}` : html``}`,
  starters: { phone: "from the phone", terminal: "at the terminal", schedule: "by a schedule" },
  outcomes: { running: "running", done: "done", failed: "failed", stopped: "stopped", paused: "paused by a limit", stalled: "stalled" },
  digestQuestion: (at, asked, answer, source) => html`${at} ❓ ${asked} → ${answer} · ${source}`,
  digestPermission: (at, asked, answer, source) => html`${at} 🔐 ${asked} → ${answer} · ${source}`,
  digestBudget: (at, source) => html`${at} 💰 stopped at its budget · ${source}`,
  answers: { once: "allowed once", always: "always allowed", reject: "rejected", dismissed: "dismissed", stopped: "stopped" },
  sources: {
    phone: (name) => html`${name} on the phone`,
    terminal: html`the terminal`,
    sessionRule: (rule) => html`Allow in this session (${rule})`,
    opencodeAlways: html`OpenCode's Always`,
    budgetStop: html`the run budget`,
    unanswered: html`nobody`,
  },
  digestFileCaption: html`🗒 The whole digest`,
  digestMore: (count) => html`… ${count} more in the file`,
};
