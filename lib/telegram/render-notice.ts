// Renders the notices that tell the user how a run went: done, failed, or stuck retrying. Pure.
import type { Notice } from "../registry/activity.ts";
import { cutHtml, escapeWithin } from "./html.ts";
import { contextLine, type PromptContext } from "./render-context.ts";

const LAST_TEXT_LIMIT = 1500;
export const REPLY_HINT = "<i>Reply to this message to send the agent your next instruction.</i>";

export function renderNotice(notice: Notice, context: PromptContext): string {
  const lines: string[] = [];
  switch (notice.kind) {
    case "done":
      lines.push(`✅ <b>Done</b> after ${formatDuration(notice.busyMs)}`, contextLine(context));
      if (notice.lastText) lines.push("", escapeWithin(lastLines(notice.lastText), LAST_TEXT_LIMIT));
      break;
    case "failed":
      lines.push(`❌ <b>Failed</b>: ${escapeWithin(notice.name, 100)}`, contextLine(context));
      if (notice.message) lines.push("", `<pre>${escapeWithin(notice.message, LAST_TEXT_LIMIT)}</pre>`);
      break;
    case "retrying": {
      const attempt = notice.attempt !== undefined ? ` (attempt ${notice.attempt})` : "";
      lines.push(`⏳ <b>OpenCode keeps retrying</b>${attempt}: the provider is failing or rate-limiting`, contextLine(context));
      if (notice.message) lines.push("", escapeWithin(notice.message, 500));
      lines.push("", "<i>This is reported once per run; the agent carries on by itself when the provider recovers.</i>");
      break;
    }
  }
  lines.push("", REPLY_HINT);
  return cutHtml(lines.join("\n"));
}

/** The end of a long text is what matters ("…what I did, and what is next"). */
function lastLines(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= LAST_TEXT_LIMIT ? trimmed : `…${trimmed.slice(-(LAST_TEXT_LIMIT - 1))}`;
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
