// Callback data for inline buttons. Telegram allows 64 bytes; ours stay near 20 and never carry
// labels or request ids: a prompt key or a session's stop key (random), an action and small indexes.

export type CallbackAction =
  | "option" // tap an option of question q: o
  | "done" // confirm the ticked options of question q
  | "type" // answer question q with typed text
  | "dismiss" // first tap of Dismiss: asks for confirmation
  | "confirm" // second tap: reject the question
  | "once" // allow a permission this time
  | "always" // allow it and what its `always` patterns cover
  | "reject" // reject a permission (the agent stops)
  | "feedback" // reject with typed feedback (the agent continues with it)
  | "page" // show page o of question q's options
  | "stop" // first tap of Stop on a session's message: asks for confirmation (the key names a session)
  | "halt"; // second tap: abort the session's run

export interface CallbackData {
  key: string;
  action: CallbackAction;
  question: number;
  option: number;
}

const ACTION_CODES: Record<CallbackAction, string> = { option: "o", done: "d", type: "t", dismiss: "x", confirm: "c", once: "a", always: "w", reject: "r", feedback: "f", page: "p", stop: "s", halt: "h" };
const CODE_ACTIONS = new Map(Object.entries(ACTION_CODES).map(([action, code]) => [code, action as CallbackAction]));
const PREFIX = "h1";
export const CALLBACK_DATA_LIMIT = 64;
const INDEX = "(0|[1-9]\\d{0,2})";
const PATTERN = new RegExp(`^h1:([A-Za-z0-9]{4,16}):([a-z])(?::${INDEX})?(?::${INDEX})?$`);
/** How many indexes each action carries: anything else is malformed. */
const INDEX_COUNT: Record<CallbackAction, number> = { option: 2, done: 1, type: 1, dismiss: 0, confirm: 0, once: 0, always: 0, reject: 0, feedback: 0, page: 2, stop: 0, halt: 0 };

export function encodeCallback(data: CallbackData): string {
  if (![data.question, data.option].every((index) => Number.isInteger(index) && index >= 0 && index < 1000)) throw new Error("callback index out of range");
  const parts = [PREFIX, data.key, ACTION_CODES[data.action]];
  if (data.action === "option" || data.action === "page") parts.push(String(data.question), String(data.option));
  else if (data.action === "done" || data.action === "type") parts.push(String(data.question));
  const encoded = parts.join(":");
  if (Buffer.byteLength(encoded) > CALLBACK_DATA_LIMIT) throw new Error(`callback data over ${CALLBACK_DATA_LIMIT} bytes`);
  return encoded;
}

/** Undefined for anything that isn't ours or is malformed (callback data is untrusted input). */
export function decodeCallback(text: unknown): CallbackData | undefined {
  if (typeof text !== "string") return undefined;
  const match = PATTERN.exec(text);
  if (!match) return undefined;
  const action = CODE_ACTIONS.get(match[2]!);
  if (!action) return undefined;
  const indexes = [match[3], match[4]].filter((value) => value !== undefined).length;
  if (indexes !== INDEX_COUNT[action]) return undefined;
  return { key: match[1]!, action, question: Number(match[3] ?? 0), option: Number(match[4] ?? 0) };
}
