// The line every prompt message starts its body with: project, session, and sub-agent parentage.
import path from "node:path";
import { CATALOGS, type Strings } from "../../i18n/catalog.ts";
import { EMPTY_HTML, escapeHtml, escapeWithin, html, type Html } from "../../text/html.ts";
import type { Markdown } from "../../text/markdown.ts";
import { reveal } from "../../text/reveal.ts";
import type { InlineButton } from "../wire/rendered-message.ts";

export interface PromptContext {
  project: string;
  /** The chat's language (English when not given). */
  t?: Strings;
  sessionTitle?: string;
  /** Set for sub-agent sessions: the parent's title (or id when the title is unknown). */
  parentTitle?: string;
  /** The session's Stop button, under a pending prompt's own buttons. */
  stop?: InlineButton;
  /** Renders what the agent wrote (markdown.ts, loaded on first use); without it, that text is shown as it is. */
  markdown?: Markdown;
}

/** How a project is named on the phone: its directory's last part (the whole path for "/"). */
export function projectName(directory: string): string {
  return path.basename(directory) || directory;
}

/** Escaped length. */
const TITLE_LIMIT = 160;

/** Titles are written by the LLM: shown with their invisible characters marked. */
export function contextLine(context: PromptContext): Html {
  const t = stringsOf(context);
  const show = (text: string) => escapeWithin(reveal(text, t), TITLE_LIMIT);
  const title = context.sessionTitle ? html` · ${show(context.sessionTitle)}` : EMPTY_HTML;
  const parent = context.parentTitle ? html`\n${escapeHtml(t.context.subagentOf)} <i>${show(context.parentTitle)}</i>` : EMPTY_HTML;
  return html`📁 <code>${show(context.project)}</code>${title}${parent}`;
}

export function stringsOf(context: { t?: Strings }): Strings {
  return context.t ?? CATALOGS.en;
}
