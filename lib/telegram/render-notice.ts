// Renders the notices that tell the user how a run went: done, failed, or stuck retrying. Pure.
import type { Strings } from "../i18n/catalog.ts";
import { formatDuration } from "../duration.ts";
import type { Notice } from "../notices/activity.ts";
import { cutHtml, cutText, cutTextStart, escapeHtml, escapeWithin, MESSAGE_LIMIT, visibleLength } from "./html.ts";
import { contextLine, stringsOf, type PromptContext } from "./render-context.ts";
import { reveal } from "./reveal.ts";

const LAST_TEXT_LIMIT = 1500;

/** `changes`: what the run changed, rendered (render-changes.ts), shown in a Done notice. */
export function renderNotice(notice: Notice, context: PromptContext, changes?: string): string {
  const t = stringsOf(context);
  const lines: string[] = [];
  switch (notice.kind) {
    case "done":
      lines.push(t.notice.done(formatDuration(notice.busyMs, t)), contextLine(context));
      if (notice.lastText) lines.push("", escapeWithin(reveal(lastLines(notice.lastText), t, false), LAST_TEXT_LIMIT));
      if (changes) lines.push("", changes);
      break;
    case "failed":
      lines.push(t.notice.failed(escapeWithin(reveal(notice.name, t), 100)), contextLine(context));
      if (notice.message) lines.push("", `<pre>${escapeWithin(reveal(notice.message, t, false), LAST_TEXT_LIMIT)}</pre>`);
      break;
    case "retrying":
      lines.push(t.notice.retrying(notice.attempt !== undefined ? t.notice.attempt(notice.attempt) : ""), contextLine(context));
      if (notice.message) lines.push("", escapeWithin(reveal(notice.message, t, false), 500));
      lines.push("", t.notice.retryOnce);
      break;
  }
  lines.push("", t.notice.replyHint);
  return cutHtml(lines.join("\n"));
}

/** The user's text as a file, when the notice can't quote all of it. */
export const LOST_MESSAGE_FILE = "message.txt";

/**
 * "Not sent to the agent (why)", quoting as much of the user's text as fits in one message
 * (counted as Telegram counts: visible UTF-16 units). `cut` means the rest must go as a file.
 */
export function renderNotSent(why: string, text: string, t: Strings): { html: string; cut: boolean } {
  const reason = escapeWithin(reveal(why, t), 300);
  const whole = t.talk.notSent(reason, escapeHtml(text));
  if (visibleLength(whole) <= MESSAGE_LIMIT) return { html: whole, cut: false };
  const room = MESSAGE_LIMIT - visibleLength(t.talk.notSent(reason, "") + t.talk.quoteCut(LOST_MESSAGE_FILE)) - 1;
  // The text is longer than room + 1 here (the whole did not fit), so cutText ends it with "…".
  return { html: t.talk.notSent(reason, escapeHtml(cutText(text, room + 1))) + t.talk.quoteCut(LOST_MESSAGE_FILE), cut: true };
}

/** The end of a long text is what matters ("…what I did, and what is next"). */
function lastLines(text: string): string {
  const trimmed = text.trim();
  return cutTextStart(trimmed, LAST_TEXT_LIMIT);
}
