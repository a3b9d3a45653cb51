// What /sessions looks like: the recent sessions of every served project, newest first, a page at a
// time, each a button (busy or idle, project, title, age); and the header of a picked session's last
// answer (the answer itself is rendered as every answer is: render-agent-text.ts). Pure. Titles are
// the LLM's text: revealed, cut on graphemes, escaped.
import type { Strings } from "../../i18n/catalog.ts";
import { formatDuration } from "../../i18n/duration.ts";
import { encodeCallback } from "../codec.ts";
import { cutText, escapeHtml, type Html } from "../../text/html.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";
import { reveal } from "../../text/reveal.ts";

export const SESSIONS_PER_PAGE = 8;
const LABEL_LIMIT = 60;
const TITLE_LIMIT = 120;

export interface SessionEntry {
  key: string;
  project: string;
  title?: string;
  busy: boolean;
  updated: number;
}

export function renderSessionPicker(sessions: readonly SessionEntry[], page: number, now: number, t: Strings): RenderedMessage {
  if (sessions.length === 0) return { text: escapeHtml(t.steer.noSessions), keyboard: [] };
  const pages = Math.ceil(sessions.length / SESSIONS_PER_PAGE);
  const shown = Math.min(Math.max(0, page), pages - 1);
  const keyboard: InlineButton[][] = sessions.slice(shown * SESSIONS_PER_PAGE, (shown + 1) * SESSIONS_PER_PAGE).map((session) => {
    const age = t.steer.ago(formatDuration(Math.max(0, now - session.updated), t));
    const label = `${session.busy ? "🟢" : "⚪"} ${session.project} · ${session.title ?? t.status.untitled} · ${age}`;
    return [
      { text: cutText(reveal(label, t), LABEL_LIMIT), callback_data: encodeCallback({ key: session.key, action: "sessionPick", question: 0, option: 0 }) },
    ];
  });
  const turn = (text: string, to: number): InlineButton => ({
    text,
    callback_data: encodeCallback({ key: "page", action: "sessionPage", question: Math.min(to, 999), option: 0 }),
  });
  const nav: InlineButton[] = [];
  if (shown > 0) nav.push(turn(t.button.previous, shown - 1));
  if (shown < pages - 1) nav.push(turn(t.button.next, shown + 1));
  if (nav.length > 0) keyboard.push(nav);
  return { text: t.steer.sessionsTitle(sessions.length), keyboard };
}

/** The header above a session's last answer (HTML). */
export function renderAnswerHeader(project: string, title: string | undefined, t: Strings): Html {
  const shown = (text: string) => escapeHtml(cutText(reveal(text, t), TITLE_LIMIT));
  return t.steer.answerHeader(shown(project), shown(title ?? t.status.untitled));
}
