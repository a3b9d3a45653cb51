// Renders the notices that tell the user how a run went: done, failed, or stuck retrying. Pure.
import type { Strings } from "../../i18n/catalog.ts";
import { formatDuration } from "../../i18n/duration.ts";
import type { Notice } from "../../notices/activity.ts";
import { cutText, EMPTY_HTML, escapeHtml, escapeWithin, fitHtml, html, type Html, joinHtml, MESSAGE_LIMIT, visibleLength } from "../../text/html.ts";
import { LABEL_ROOM } from "./machine-label.ts";
import { renderAnswer } from "./render-agent-text.ts";
import { contextLine, stringsOf, type PromptContext } from "./render-context.ts";
import { reveal } from "../../text/reveal.ts";
import { spentLine, type SpentView } from "./render-usage.ts";

const MESSAGE_TEXT_LIMIT = 1500;

/**
 * `changes`: what the run changed, rendered (render-changes.ts), shown in a Done notice. A Done
 * notice shows the agent's last answer in the room the rest leaves; `shortened`: only its end fit,
 * the whole answer goes with the notice as a file (render-agent-text.ts's ANSWER_FILE). `spent`:
 * what the run used, on the Done line (`12.4k tokens · $0.031`), when OpenCode counted anything.
 */
export function renderNotice(notice: Notice, context: PromptContext, changes?: Html, spent?: SpentView): { html: Html; shortened: boolean } {
  const t = stringsOf(context);
  const lines: Html[] = [];
  switch (notice.kind) {
    case "done": {
      const used = spentLine(spent, t);
      const allowed = spent?.autoAllowed ? html`\n${escapeHtml(t.approvals.autoAllowedCount(spent.autoAllowed))}` : EMPTY_HTML;
      const head = html`${t.notice.done(escapeHtml(formatDuration(notice.busyMs, t)))}${used ? html` · ${used}` : EMPTY_HTML}\n${contextLine(context)}${allowed}`;
      const tail = joinHtml([...(changes ? [EMPTY_HTML, changes] : []), EMPTY_HTML, t.notice.replyHint], "\n");
      if (!notice.lastText?.trim()) return { html: fitHtml(html`${head}\n${tail}`), shortened: false };
      // A blank line around the answer: "\n\n" before it, "\n" after it (the tail starts with the second).
      const room = MESSAGE_LIMIT - LABEL_ROOM - visibleLength(head) - visibleLength(tail) - 3;
      const answer = renderAnswer(notice.lastText, context.markdown, room, t);
      return { html: fitHtml(html`${head}\n\n${answer.html}\n${tail}`), shortened: answer.shortened };
    }
    case "failed":
      lines.push(t.notice.failed(escapeWithin(reveal(notice.name, t), 100)), contextLine(context));
      if (notice.message) lines.push(EMPTY_HTML, html`<pre>${escapeWithin(reveal(notice.message, t, false), MESSAGE_TEXT_LIMIT)}</pre>`);
      break;
    case "retrying":
      lines.push(t.notice.retrying(escapeHtml(notice.attempt !== undefined ? t.notice.attempt(notice.attempt) : "")), contextLine(context));
      if (notice.message) lines.push(EMPTY_HTML, escapeWithin(reveal(notice.message, t, false), 500));
      lines.push(EMPTY_HTML, t.notice.retryOnce);
      break;
  }
  lines.push(EMPTY_HTML, t.notice.replyHint);
  return { html: fitHtml(joinHtml(lines, "\n")), shortened: false };
}

/** The user's text as a file, when the notice can't quote all of it. */
export const LOST_MESSAGE_FILE = "message.txt";

/**
 * "Not sent to the agent (why)", quoting as much of the user's text as fits in one message
 * (counted as Telegram counts: visible UTF-16 units). `cut` means the rest must go as a file.
 */
export function renderNotSent(why: string, text: string, t: Strings): { html: Html; cut: boolean } {
  const reason = escapeWithin(reveal(why, t), 300);
  const whole = t.talk.notSent(reason, escapeHtml(text));
  if (visibleLength(whole) <= MESSAGE_LIMIT) return { html: whole, cut: false };
  const quoteCut = t.talk.quoteCut(escapeHtml(LOST_MESSAGE_FILE));
  const room = MESSAGE_LIMIT - visibleLength(t.talk.notSent(reason, EMPTY_HTML) + quoteCut) - 1;
  // The text is longer than room + 1 here (the whole did not fit), so cutText ends it with "…".
  return { html: html`${t.talk.notSent(reason, escapeHtml(cutText(text, room + 1)))}${quoteCut}`, cut: true };
}
