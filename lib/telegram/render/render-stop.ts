// What Stop looks like: the button on a session's messages, the confirmation, the outcome, and the
// /stop picker. Pure. Titles are the LLM's text: shown through contextLine (marked and escaped).
import type { Strings } from "../../i18n/catalog.ts";
import { encodeCallback } from "../codec.ts";
import { cutText, EMPTY_HTML, escapeHtml, html, type Html } from "../../text/html.ts";
import { contextLine, type PromptContext } from "./render-context.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";
import { reveal } from "../../text/reveal.ts";

/** A picker button's label, in characters the user sees. */
const PICKER_LABEL = 60;
/** Telegram allows 100 buttons; a picker longer than this says how many it left out. */
export const PICKER_ROWS = 20;

export type StopOutcome = "running" | "confirm" | "stopping" | "stopped" | "notRunning";

export function stopButton(key: string, t: Strings): InlineButton {
  return { text: t.button.stop, callback_data: encodeCallback({ key, action: "stop", question: 0, option: 0 }) };
}

/** The confirmation is red: it ends the agent's run. */
function confirmStopButton(key: string, t: Strings): InlineButton {
  return { text: t.button.stopConfirm, callback_data: encodeCallback({ key, action: "halt", question: 0, option: 0 }), style: "danger" };
}

/** One of Stop's messages for a session; only "running" and "confirm" keep a button. */
export function renderStop(outcome: StopOutcome, key: string, session: PromptContext & { t: Strings }): RenderedMessage {
  const { t } = session;
  const title = contextLine(session);
  switch (outcome) {
    case "running":
      return { text: t.stop.running(title), keyboard: [[stopButton(key, t)]] };
    case "confirm":
      return { text: t.stop.confirm(title), keyboard: [[confirmStopButton(key, t)]] };
    case "stopping":
      return { text: t.stop.stopping(title), keyboard: [] };
    case "stopped":
      return { text: t.stop.stopped(title), keyboard: [] };
    case "notRunning":
      return { text: t.stop.notRunning(title), keyboard: [] };
  }
}

/** A stop that OpenCode refused: the reason, and the confirmation again to retry. `error` is escaped by the caller. */
export function renderStopFailed(key: string, session: PromptContext & { t: Strings }, error: Html): RenderedMessage {
  return { text: session.t.stop.failed(contextLine(session), error), keyboard: [[confirmStopButton(key, session.t)]] };
}

/** /stop with several busy sessions: one button each, leading to its confirmation. */
export function renderStopPicker(sessions: ReadonlyArray<{ key: string; project: string; title?: string }>, t: Strings): RenderedMessage {
  const shown = sessions.slice(0, PICKER_ROWS);
  const keyboard = shown.map(({ key, project, title }) => [
    { ...stopButton(key, t), text: `⏹ ${cutText(reveal(title ? `${project} · ${title}` : project, t), PICKER_LABEL)}` },
  ]);
  const rest = sessions.length - shown.length;
  return { text: html`${t.stop.pick}${rest > 0 ? html`\n${escapeHtml(t.status.andMore(rest))}` : EMPTY_HTML}`, keyboard };
}
