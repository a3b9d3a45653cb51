// The messages of walking away (issue 51), pure: a run held by a usage limit (one message, edited
// as the pause changes and when it ends, with Resume now and Cancel while it waits) and a stalled
// run's alert (Stop, Keep waiting). The provider's words and the tool's command are escaped here.
import { formatDuration } from "../../i18n/duration.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Pause } from "../../walkaway/limit-pause.ts";
import type { Stall } from "../../walkaway/stall-detector.ts";
import { encodeCallback } from "../codec.ts";
import { escapeHtml, escapeWithin, type Html, joinHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";

/** The provider's words shown at most (a body may hold a whole JSON document). */
const WORDS_SHOWN = 300;
const DETAIL_SHOWN = 80;

/** "04:11": a time of day on this machine's clock. */
export function clockTime(at: number): string {
  const date = new Date(at);
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/** A pause as it stands (`key` names its buttons while it waits) or as it ended. `context`: the session's title line. */
export function renderPause(pause: Pause<unknown>, view: { now: number; key: string; context: Html; dropped?: number }, t: Strings): RenderedMessage {
  const w = t.walkaway;
  const lines: Html[] = [];
  const end = pause.end;
  if (!end) {
    lines.push(
      pause.resetAt !== undefined
        ? w.pausedUntil(escapeHtml(clockTime(pause.resetAt)), escapeHtml(formatDuration(Math.max(0, pause.resetAt - view.now), t)))
        : w.pausedNoReset,
    );
    lines.push(pause.resumer === "opencode" ? w.resumerOpencode : pause.resumer === "hermes" ? w.resumerHermes : w.resumerNobody);
  } else if (end.kind === "resumed-by-opencode") lines.push(w.resumedByOpencode(escapeHtml(clockTime(end.at))));
  else if (end.kind === "resumed") lines.push(w.resumedAt(escapeHtml(clockTime(end.at))));
  else if (end.kind === "resumed-now") lines.push(w.resumedNow(escapeHtml(clockTime(end.at))));
  else if (end.kind === "cancelled") lines.push(w.cancelled);
  else lines.push(w.endedOtherwise);
  lines.push(view.context);
  if (pause.words.trim()) lines.push(w.providerWords(escapeWithin(reveal(pause.words.trim(), t), WORDS_SHOWN)));
  if (!end && pause.held.length > 0) lines.push(w.held(pause.held.length));
  if (view.dropped) lines.push(w.heldDropped(view.dropped));
  const keyboard: InlineButton[][] = [];
  if (!end) {
    const resume = { text: w.resumeNowButton, callback_data: encodeCallback({ key: view.key, action: "pauseResume", question: 0, option: 0 }) };
    const cancel = { text: w.cancelButton, callback_data: encodeCallback({ key: view.key, action: "pauseCancel", question: 0, option: 0 }) };
    keyboard.push(pause.resumer === "nobody" ? [resume] : [resume, cancel]);
  }
  return { text: joinHtml(lines, "\n"), keyboard };
}

/** How a stall alert stands: up (with Stop and Keep waiting), or how it ended. */
export type StallState =
  | { kind: "up" }
  | { kind: "moving" }
  | { kind: "waiting"; windowMs: number }
  | { kind: "stopped" }
  | { kind: "ended" }
  | { kind: "stop-failed"; error: string };

export function renderStall(stall: Stall, view: { key: string; context: Html; state: StallState }, t: Strings): RenderedMessage {
  const w = t.walkaway;
  const head: Html[] = [w.stallQuiet(escapeHtml(formatDuration(stall.quietMs, t)))];
  if (stall.tool) {
    const detail = stall.tool.detail ? escapeWithin(reveal(stall.tool.detail, t), DETAIL_SHOWN) : undefined;
    head.push(w.stallTool(escapeWithin(reveal(stall.tool.tool, t), 40), detail, escapeHtml(formatDuration(stall.tool.runningMs, t))));
  }
  const lines: Html[] = [joinHtml(head, " · "), view.context];
  const state = view.state;
  if (state.kind === "moving") lines.push(w.stallMoving);
  else if (state.kind === "waiting") lines.push(w.stallKeptWaiting(escapeHtml(formatDuration(state.windowMs, t))));
  else if (state.kind === "stopped") lines.push(w.stallStopped);
  else if (state.kind === "ended") lines.push(w.stallEnded);
  else if (state.kind === "stop-failed") lines.push(w.stallStopFailed(escapeHtml(state.error)));
  const keyboard: InlineButton[][] =
    state.kind === "up" || state.kind === "stop-failed"
      ? [
          [
            { text: w.stopButton, callback_data: encodeCallback({ key: view.key, action: "stallStop", question: 0, option: 0 }) },
            { text: w.keepWaitingButton, callback_data: encodeCallback({ key: view.key, action: "stallKeep", question: 0, option: 0 }) },
          ],
        ]
      : [];
  return { text: joinHtml(lines, "\n"), keyboard };
}
