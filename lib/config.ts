// Reads Hermes' settings from environment variables. Pure: takes the env, returns a verdict.
import os from "node:os";
import path from "node:path";
import { parseDuration } from "./duration.ts";
import { languageOf, type Language } from "./i18n/catalog.ts";
import type { NoticeLevel } from "./registry/activity.ts";

export const DEFAULT_API_ROOT = "https://api.telegram.org";
export const DEFAULT_QUESTION_TTL_MS = 30 * 60_000;
export const DEFAULT_DONE_AFTER_MS = 30_000;
const NOTICE_LEVELS = ["all", "errors", "off"] as const;
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogSettings {
  file: string;
  level: LogLevel;
}

export interface HermesConfig {
  token: string;
  /** The chat prompts go to: a private chat (the user's id) or a group (negative id). */
  chatId: number;
  /** Users who may act. Empty means anyone in `chatId`. */
  allowedUsers: number[];
  apiRoot: string;
  /** 0 means questions never expire. */
  questionTtlMs: number;
  /** 0 (the default) means permission requests never expire. */
  permissionTtlMs: number;
  /** Which run endings get a message: `all` (done and failed), `errors`, or `off`. */
  notify: NoticeLevel;
  /** How long a run must have worked before "Done" is worth a message. */
  doneAfterMs: number;
  /** The language of everything Hermes writes to Telegram. */
  language: Language;
  /** One forum topic per session (HERMES_TELEGRAM_TOPICS=1; the chat must be a supergroup with topics). */
  topics: boolean;
  /** HERMES_MACHINE_NAME: labels every message (several machines, one bot each, in one group). */
  machineName?: string;
  log: LogSettings;
}

export type ConfigResult =
  | { ok: true; config: HermesConfig }
  /** `setupToken` is set when only the chat is missing: Hermes can still answer /start with the chat id. */
  | { ok: false; problems: string[]; log: LogSettings; setupToken?: string; apiRoot: string };

type Env = Record<string, string | undefined>;

export function defaultLogFile(env: Env = process.env): string {
  const stateHome = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), ".local", "state");
  return path.join(stateHome, "hermes", "hermes.log");
}

export function readLogSettings(env: Env, problems: string[] = []): LogSettings {
  const file = env.HERMES_LOG_FILE?.trim() || defaultLogFile(env);
  const rawLevel = env.HERMES_LOG_LEVEL?.trim().toLowerCase() || "info";
  const level = (LOG_LEVELS as readonly string[]).includes(rawLevel) ? (rawLevel as LogLevel) : "info";
  if (level !== rawLevel) problems.push(`HERMES_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${env.HERMES_LOG_LEVEL}")`);
  return { file, level };
}

export function readConfig(env: Env = process.env): ConfigResult {
  const problems: string[] = [];
  const log = readLogSettings(env, problems);

  const token = env.HERMES_TELEGRAM_TOKEN?.trim() ?? "";
  if (!token) problems.push("HERMES_TELEGRAM_TOKEN is not set (create a bot with @BotFather and copy its token)");
  else if (!/^\d+:[A-Za-z0-9_-]+$/.test(token)) problems.push("HERMES_TELEGRAM_TOKEN does not look like a bot token (expected 123456:ABC…)");

  const rawChat = env.HERMES_TELEGRAM_CHAT_ID?.trim() ?? "";
  const chatId = Number(rawChat);
  const chatMissing = !rawChat;
  if (chatMissing) problems.push("HERMES_TELEGRAM_CHAT_ID is not set (send /start to your bot: it replies with the chat id)");
  else if (!/^-?\d+$/.test(rawChat) || !Number.isSafeInteger(chatId)) problems.push(`HERMES_TELEGRAM_CHAT_ID must be a numeric chat id (got "${rawChat}")`);

  const allowedUsers: number[] = [];
  for (const part of (env.HERMES_TELEGRAM_ALLOWED_USERS ?? "").split(",")) {
    const item = part.trim();
    if (!item) continue;
    if (/^\d+$/.test(item) && Number.isSafeInteger(Number(item))) allowedUsers.push(Number(item));
    else problems.push(`HERMES_TELEGRAM_ALLOWED_USERS must be comma-separated numeric user ids (bad entry "${item}")`);
  }

  const apiRoot = (env.HERMES_TELEGRAM_API_ROOT?.trim() || DEFAULT_API_ROOT).replace(/\/+$/, "");
  if (!isHttpUrl(apiRoot)) problems.push(`HERMES_TELEGRAM_API_ROOT must be an http(s) URL (got "${apiRoot}")`);

  const questionTtlMs = readDuration(env, "HERMES_QUESTION_TTL", DEFAULT_QUESTION_TTL_MS, problems);
  const permissionTtlMs = readDuration(env, "HERMES_PERMISSION_TTL", 0, problems);
  const doneAfterMs = readDuration(env, "HERMES_DONE_AFTER", DEFAULT_DONE_AFTER_MS, problems);
  const language = languageOf(env.HERMES_LANGUAGE) ?? "en";
  if (!languageOf(env.HERMES_LANGUAGE)) problems.push(`HERMES_LANGUAGE must be en or zh (zh-CN) (got "${env.HERMES_LANGUAGE}")`);
  const rawTopics = env.HERMES_TELEGRAM_TOPICS?.trim().toLowerCase() || "off";
  const topics = ["1", "true", "on", "yes"].includes(rawTopics);
  if (!topics && !["0", "false", "off", "no"].includes(rawTopics)) problems.push(`HERMES_TELEGRAM_TOPICS must be on or off (got "${env.HERMES_TELEGRAM_TOPICS}")`);
  else if (topics && rawChat && Number(rawChat) > 0) problems.push("HERMES_TELEGRAM_TOPICS needs a supergroup with topics: HERMES_TELEGRAM_CHAT_ID is a private chat");
  const rawNotify = env.HERMES_NOTIFY?.trim().toLowerCase() || "all";
  const notify = (NOTICE_LEVELS as readonly string[]).includes(rawNotify) ? (rawNotify as NoticeLevel) : "all";
  if (notify !== rawNotify) problems.push(`HERMES_NOTIFY must be one of ${NOTICE_LEVELS.join(", ")} (got "${env.HERMES_NOTIFY}")`);

  if (problems.length > 0) {
    const onlyChatMissing = chatMissing && problems.length === 1 && token !== "";
    return { ok: false, problems, log, apiRoot, ...(onlyChatMissing ? { setupToken: token } : {}) };
  }
  const machineName = env.HERMES_MACHINE_NAME?.trim();
  return { ok: true, config: { token, chatId, allowedUsers, apiRoot, questionTtlMs, permissionTtlMs, notify, doneAfterMs, language, topics, ...(machineName ? { machineName } : {}), log } };
}

function readDuration(env: Env, name: string, fallback: number, problems: string[]): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const parsed = parseDuration(raw);
  if (parsed === undefined) problems.push(`${name} must be milliseconds or a duration like 90s, 30m, 2h; 0 = never (got "${raw}")`);
  return parsed ?? fallback;
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
