// The line every prompt message starts its body with: project, session, and sub-agent parentage.
import { CATALOGS, type Strings } from "../i18n/catalog.ts";
import { escapeWithin } from "./html.ts";

export interface PromptContext {
  project: string;
  /** The chat's language (English when not given). */
  t?: Strings;
  sessionTitle?: string;
  /** Set for sub-agent sessions: the parent's title (or id when the title is unknown). */
  parentTitle?: string;
}

/** Escaped length. */
const TITLE_LIMIT = 160;

export function contextLine(context: PromptContext): string {
  const title = context.sessionTitle ? ` · ${escapeWithin(context.sessionTitle, TITLE_LIMIT)}` : "";
  const t = stringsOf(context);
  const parent = context.parentTitle ? `\n${t.context.subagentOf} <i>${escapeWithin(context.parentTitle, TITLE_LIMIT)}</i>` : "";
  return `📁 <code>${escapeWithin(context.project, TITLE_LIMIT)}</code>${title}${parent}`;
}

export function stringsOf(context: { t?: Strings }): Strings {
  return context.t ?? CATALOGS.en;
}
