// What /model and /agent look like: the list OpenCode reports, a page at a time, the one in use
// marked, and OpenCode's own default as the last button. Pure. Labels are OpenCode's ids (a project's
// opencode.json names them, so untrusted): revealed, cut on graphemes in buttons, escaped in text.
import type { Strings } from "../../i18n/catalog.ts";
import { encodeCallback, type ChoiceAction } from "../codec.ts";
import { cutText, escapeHtml, html, type Html } from "../../text/html.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";
import { reveal } from "../../text/reveal.ts";

/** The key of the "OpenCode's default" button (never a shortKey: those are hex). */
export const DEFAULT_KEY = "default";
/** The key of the page buttons. */
const PAGE_KEY = "page";
export const CHOICES_PER_PAGE = 8;
const LABEL_LIMIT = 60;
const TITLE_LIMIT = 120;

export type ChoiceKind = "model" | "agent";

export interface ChoiceList {
  items: ReadonlyArray<{ key: string; label: string }>;
  current?: string;
}

export function renderChoicePicker(kind: ChoiceKind, list: ChoiceList, page: number, t: Strings): RenderedMessage {
  const pages = Math.max(1, Math.ceil(list.items.length / CHOICES_PER_PAGE));
  const shown = Math.min(Math.max(0, page), pages - 1);
  const pick = (key: string): string => encodeCallback({ key, action: kind, question: 0, option: 0 });
  const turn = (text: string, to: number): InlineButton => ({ text, callback_data: pageData(kind, to) });
  const keyboard: InlineButton[][] = list.items
    .slice(shown * CHOICES_PER_PAGE, (shown + 1) * CHOICES_PER_PAGE)
    .map((item) => [{ text: `${item.key === list.current ? "✅ " : ""}${cutText(reveal(item.label, t), LABEL_LIMIT)}`, callback_data: pick(item.key) }]);
  const nav: InlineButton[] = [];
  if (shown > 0) nav.push(turn(t.button.previous, shown - 1));
  if (shown < pages - 1) nav.push(turn(t.button.next, shown + 1));
  if (nav.length > 0) keyboard.push(nav);
  keyboard.push([{ text: `${list.current === undefined ? "✅ " : ""}${t.steer.defaultButton}`, callback_data: pick(DEFAULT_KEY) }]);
  const title = (kind === "model" ? t.steer.modelTitle : t.steer.agentTitle)(currentText(list, t));
  return { text: list.items.length === 0 ? html`${title}\n${t.steer.noneReported}` : title, keyboard };
}

/** What is in use, as escaped HTML. */
export function currentText(list: ChoiceList, t: Strings): Html {
  const label = list.items.find((item) => item.key === list.current)?.label;
  return label === undefined ? escapeHtml(t.steer.openCodeDefault) : html`<code>${escapeHtml(cutText(reveal(label, t), TITLE_LIMIT))}</code>`;
}

function pageData(kind: ChoiceKind, page: number): string {
  const action: ChoiceAction = kind === "model" ? "modelPage" : "agentPage";
  return encodeCallback({ key: PAGE_KEY, action, question: Math.min(page, 999), option: 0 });
}
