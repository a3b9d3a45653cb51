// The answer as it is written, pure: a run's text events in, the text part being written out, and
// when its next draft is due. The answer shown is the latest text part of an assistant message of
// the run's root session (the Done notice shows the last one): 1.18 and 2.x send it in pieces
// (`message.delta`), 1.1.53 as the whole text so far (`message.text`), which also settles a part at
// its end. No I/O, no clock: time is passed in.
import type { HermesEvent } from "../hermes-events.ts";

export type AnswerEvent = Extract<HermesEvent, { type: "message.role" | "message.text" | "message.delta" }>;

export interface AnswerText {
  /** Assistant messages of the run: a user's own text part is never the answer. */
  assistant: readonly string[];
  partID?: string;
  text: string;
}

/** Longest text kept (UTF-16 units): a draft shows at most Telegram's 4,096 of its end. */
const TEXT_KEPT = 64_000;
/** Assistant messages remembered per run. */
const MESSAGES_KEPT = 20;

export const NO_ANSWER: AnswerText = { assistant: [], text: "" };

export function reduceAnswer(state: AnswerText, event: AnswerEvent): AnswerText {
  switch (event.type) {
    case "message.role":
      if (event.role !== "assistant" || state.assistant.includes(event.messageID)) return state;
      return { ...state, assistant: [...state.assistant, event.messageID].slice(-MESSAGES_KEPT) };
    case "message.delta": {
      // Only an assistant's text streams: a delta names its message as one.
      if (event.delta === "") return state;
      const text = event.partID === state.partID ? state.text + event.delta : event.delta;
      const assistant = state.assistant.includes(event.messageID) ? state.assistant : [...state.assistant, event.messageID].slice(-MESSAGES_KEPT);
      return { assistant, partID: event.partID, text: kept(text) };
    }
    case "message.text":
      if (!state.assistant.includes(event.messageID) || event.text === "") return state;
      if (event.partID === state.partID && event.text === state.text) return state;
      return { ...state, partID: event.partID, text: kept(event.text) };
  }
}

/**
 * What a draft may show of `text`: a link or image still being written (`[label](http://exa`) is
 * held back until its `)` arrives, so the phone never shows a half-written target. An unclosed code
 * block needs nothing: the Markdown parser ends it with the text.
 */
export function draftSource(text: string): string {
  const open = /!?\[[^\]\n]*(?:\]\([^)\s]*)?$/.exec(text);
  return (open ? text.slice(0, open.index) : text).trimEnd();
}

/** The last `lines` non-empty lines of `text` (a group's progress message shows the answer's tail). */
export function lastLines(text: string, lines: number): string {
  const all = text.trimEnd().split("\n");
  let start = all.length;
  for (let kept = 0; start > 0 && kept < lines; ) if (all[--start]!.trim() !== "") kept++;
  return all.slice(start).join("\n").trim();
}

export interface DraftPace {
  /** When the last draft went out, and what it showed. */
  sentAt?: number;
  sent?: string;
  /** Telegram asked to wait (429) until then. */
  blockedUntil?: number;
}

/** Whether `text` goes out now: it changed, and the last draft is at least `everyMs` old. Else how long to wait (undefined: nothing to send). */
export function draftDue(pace: DraftPace, text: string, now: number, everyMs: number): { now: true } | { waitMs: number } | undefined {
  if (text === "" || text === pace.sent) return undefined;
  const readyAt = Math.max(pace.sentAt === undefined ? now : pace.sentAt + everyMs, pace.blockedUntil ?? now);
  return readyAt <= now ? { now: true } : { waitMs: readyAt - now };
}

function kept(text: string): string {
  if (text.length <= TEXT_KEPT) return text;
  const start = /[\uDC00-\uDFFF]/.test(text[text.length - TEXT_KEPT]!) ? text.length - TEXT_KEPT + 1 : text.length - TEXT_KEPT;
  return text.slice(start);
}
