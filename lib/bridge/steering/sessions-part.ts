// A process' part of /sessions, as it arrives from another process over the relay: its recent root
// sessions. Untrusted until checked: at most MAX_SESSIONS entries, keys as shortKey makes them,
// texts of at most MAX_TEXT characters; anything else drops the whole part. Pure.
import { isRecord } from "../../util/is-record.ts";
import { isShortKey } from "../core/short-key.ts";

const MAX_SESSIONS = 200;
const MAX_TEXT = 1_000;

export interface ListedSession {
  key: string;
  /** The project's name (its folder's base name). */
  project: string;
  title?: string;
  busy: boolean;
  /** When it last changed (epoch ms). */
  updated: number;
}

export function parseSessionsPart(value: unknown): ListedSession[] | undefined {
  if (!isRecord(value) || !Array.isArray(value.sessions) || value.sessions.length > MAX_SESSIONS) return undefined;
  const sessions: ListedSession[] = [];
  for (const entry of value.sessions) {
    if (!isRecord(entry) || !isShortKey(entry.key) || typeof entry.busy !== "boolean") return undefined;
    if (!isText(entry.project) || (entry.title !== undefined && !isText(entry.title))) return undefined;
    if (typeof entry.updated !== "number" || !Number.isFinite(entry.updated) || entry.updated < 0) return undefined;
    sessions.push({
      key: entry.key,
      project: entry.project,
      busy: entry.busy,
      updated: entry.updated,
      ...(entry.title !== undefined ? { title: entry.title as string } : {}),
    });
  }
  return sessions;
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_TEXT;
}
