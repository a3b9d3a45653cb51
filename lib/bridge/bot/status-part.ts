// A process' part of /status and /pending, as it arrives from another process over the relay:
// untrusted until it has exactly the shape lib/telegram/render/render-status.ts expects. A malformed field is dropped,
// a malformed entry too, never the whole part (one huge count cost a process its busy sessions and
// pending prompts); counts past 2^53 − 1 are clamped. Too many entries or too long texts are cut
// here (what the renderer shows is cut further there). Pure.
import { isRecord } from "../../util/is-record.ts";
import type { StatusPart } from "../../telegram/render/render-status.ts";

const MAX_ENTRIES = 500;
const MAX_TEXT = 1_000;

export function parseStatusPart(value: unknown): StatusPart | undefined {
  if (!isRecord(value) || !Array.isArray(value.sessions) || !Array.isArray(value.prompts)) return undefined;
  const sessions: StatusPart["sessions"] = [];
  for (const entry of value.sessions.slice(0, MAX_ENTRIES)) {
    // A malformed entry is dropped, a malformed field of it too: one bad value never costs the whole part.
    if (!isRecord(entry) || typeof entry.busy !== "boolean") continue;
    const session: StatusPart["sessions"][number] = { busy: entry.busy };
    if (isText(entry.title)) session.title = cut(entry.title);
    if (isText(entry.project)) session.project = cut(entry.project);
    if (isDuration(entry.busyMs)) session.busyMs = entry.busyMs as number;
    const context = contextOf(entry.context);
    if (context) session.context = context;
    sessions.push(session);
  }
  const prompts: StatusPart["prompts"] = [];
  for (const entry of value.prompts.slice(0, MAX_ENTRIES)) {
    if (
      !isRecord(entry) ||
      (entry.kind !== "question" && entry.kind !== "permission") ||
      !isText(entry.summary) ||
      !isText(entry.project) ||
      !Number.isSafeInteger(entry.chatId)
    )
      continue;
    const prompt: StatusPart["prompts"][number] = {
      kind: entry.kind,
      summary: cut(entry.summary),
      project: cut(entry.project),
      chatId: entry.chatId as number,
    };
    if (isText(entry.title)) prompt.title = cut(entry.title);
    if (isMessageId(entry.messageId)) prompt.messageId = entry.messageId as number;
    prompts.push(prompt);
  }
  return { sessions, prompts };
}

/** `{ tokens, window? }`: counts (clamped to 2^53 − 1: a provider may report more); undefined without a usable `tokens`. */
function contextOf(value: unknown): StatusPart["sessions"][number]["context"] {
  if (!isRecord(value)) return undefined;
  const tokens = countOf(value.tokens);
  if (tokens === undefined) return undefined;
  const window = countOf(value.window);
  return { tokens, ...(window !== undefined ? { window } : {}) };
}

function countOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.min(Math.floor(value), Number.MAX_SAFE_INTEGER) : undefined;
}

function isText(value: unknown): value is string {
  return typeof value === "string";
}

function isDuration(value: unknown): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function isMessageId(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

/** At most MAX_TEXT code points (never half a surrogate pair). */
function cut(text: string): string {
  if (text.length <= MAX_TEXT) return text;
  let kept = 0;
  let end = 0;
  for (const char of text) {
    if (kept++ === MAX_TEXT) return text.slice(0, end);
    end += char.length;
  }
  return text;
}
