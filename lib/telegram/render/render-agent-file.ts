// The caption of a file the agent sends (telegram_send_file): the line that says which project and
// session it comes from, then the agent's caption through the same Markdown and reveal rules as
// every agent text, its start kept, within Telegram's 1024 visible characters (room left for the
// machine label). Pure.
import type { Strings } from "../../i18n/catalog.ts";
import { CAPTION_LIMIT, html, type Html, visibleLength } from "../../text/html.ts";
import type { Markdown } from "../../text/markdown.ts";
import { renderAgentText } from "./render-agent-text.ts";
import { contextLine, type PromptContext } from "./render-context.ts";
import { LABEL_ROOM } from "./machine-label.ts";

export function renderAgentFileCaption(context: PromptContext, caption: string | undefined, markdown: Markdown | undefined, t: Strings): Html {
  const header = contextLine(context);
  if (!caption?.trim()) return header;
  const room = CAPTION_LIMIT - LABEL_ROOM - visibleLength(header) - 1;
  return html`${header}\n${renderAgentText(caption, markdown, room, t).html}`;
}
