// A process' part of /status and /pending, as it arrives from another process over the relay:
// untrusted until it has exactly the shape render-status.ts expects. Too many entries or too long
// texts are cut here (what the renderer shows is cut further there). Pure.
import { isRecord } from "../is-record.ts";
import type { StatusPart } from "../telegram/render/render-status.ts";

const MAX_ENTRIES = 500;
const MAX_TEXT = 1_000;

export function parseStatusPart(value: unknown): StatusPart | undefined {
  if (!isRecord(value) || !Array.isArray(value.sessions) || !Array.isArray(value.prompts)) return undefined;
  const sessions: StatusPart["sessions"] = [];
  for (const entry of value.sessions.slice(0, MAX_ENTRIES)) {
    if (!isRecord(entry) || typeof entry.busy !== "boolean") return undefined;
    const session: StatusPart["sessions"][number] = { busy: entry.busy };
    if (!optional(entry, "title", isText) || !optional(entry, "project", isText) || !optional(entry, "busyMs", isDuration)) return undefined;
    if (entry.title !== undefined) session.title = cut(entry.title as string);
    if (entry.project !== undefined) session.project = cut(entry.project as string);
    if (entry.busyMs !== undefined) session.busyMs = entry.busyMs as number;
    if (entry.context !== undefined) {
      const context = contextOf(entry.context);
      if (!context) return undefined;
      session.context = context;
    }
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
      return undefined;
    if (!optional(entry, "title", isText) || !optional(entry, "messageId", isMessageId)) return undefined;
    const prompt: StatusPart["prompts"][number] = {
      kind: entry.kind,
      summary: cut(entry.summary),
      project: cut(entry.project),
      chatId: entry.chatId as number,
    };
    if (entry.title !== undefined) prompt.title = cut(entry.title as string);
    if (entry.messageId !== undefined) prompt.messageId = entry.messageId as number;
    prompts.push(prompt);
  }
  return { sessions, prompts };
}

/** `{ tokens, window? }`: counts, or the entry is malformed. */
function contextOf(value: unknown): StatusPart["sessions"][number]["context"] {
  if (!isRecord(value) || !isCount(value.tokens) || (value.window !== undefined && !isCount(value.window))) return undefined;
  return { tokens: value.tokens as number, ...(value.window !== undefined ? { window: value.window as number } : {}) };
}

function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function optional(entry: Record<string, unknown>, key: string, check: (value: unknown) => boolean): boolean {
  return entry[key] === undefined || check(entry[key]);
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
