// The answer while it is written, as the phone shows it: in a private chat a draft (the whole
// answer so far, its end when longer than a message), in a group the last lines on the run's
// progress message. The same rules as the Done notice's answer (render-agent-text.ts): Markdown
// rendered, hidden characters marked, cut on graphemes by what Telegram counts; a link still being
// written is held back (lib/progress/answer-text.ts). Pure.
import type { Strings } from "../../i18n/catalog.ts";
import { lastLines, draftSource } from "../../progress/answer-text.ts";
import { EMPTY_HTML, type Html, MESSAGE_LIMIT } from "../../text/html.ts";
import type { Markdown } from "../../text/markdown.ts";
import { richHtml, richTail } from "../../text/rich-text.ts";
import { agentRich } from "./render-agent-text.ts";
import { LABEL_ROOM } from "./machine-label.ts";

/** Lines of the answer a group's progress message shows, and their most visible units. */
export const TAIL_LINES = 4;
const TAIL_LIMIT = 500;

/** The draft's HTML: the answer so far, its last 4,096 visible units (less the machine label's room) when longer; "" while nothing shows yet. */
export function renderDraft(text: string, markdown: Markdown | undefined, t: Strings): Html {
  const rich = agentRich(draftSource(text), markdown, t);
  return rich.text === "" ? EMPTY_HTML : richHtml(richTail(rich, MESSAGE_LIMIT - LABEL_ROOM));
}

/** The answer's last lines for a progress message (HTML), "" while nothing shows yet. */
export function renderAnswerTail(text: string, markdown: Markdown | undefined, t: Strings): Html {
  const rich = agentRich(lastLines(draftSource(text), TAIL_LINES), markdown, t);
  return rich.text === "" ? EMPTY_HTML : richHtml(richTail(rich, TAIL_LIMIT));
}
