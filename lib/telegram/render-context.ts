// The line every prompt message starts its body with: project, session, and sub-agent parentage.
import { cutText, escapeHtml } from "./html.ts";

export interface PromptContext {
  project: string;
  sessionTitle?: string;
  /** Set for sub-agent sessions: the parent's title (or id when the title is unknown). */
  parentTitle?: string;
}

const TITLE_LIMIT = 120;

export function contextLine(context: PromptContext): string {
  const title = context.sessionTitle ? ` · ${escapeHtml(cutText(context.sessionTitle, TITLE_LIMIT))}` : "";
  const parent = context.parentTitle ? `\n🤖 sub-agent of <i>${escapeHtml(cutText(context.parentTitle, TITLE_LIMIT))}</i>` : "";
  return `📁 <code>${escapeHtml(cutText(context.project, TITLE_LIMIT))}</code>${title}${parent}`;
}
