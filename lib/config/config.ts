// Reads Hermes' settings from environment variables and from the options next to Hermes in
// opencode.json. The environment wins where both set something (it is the more specific of the two:
// one shell, one run). The bot token, the API root and the log file come only from the environment;
// the chat and the allow-list from an opencode.json only as the global one says (config-options.ts).
// A value that looks like a bot token is never quoted back. Pure: returns a verdict.
import os from "node:os";
import path from "node:path";
import { holdsBotToken, looksLikeBotToken } from "./bot-token.ts";
import { ANYONE, OFF, ON, readOptions, type SettingVariable } from "./config-options.ts";
import { parseDuration } from "../i18n/duration.ts";
import { unknownVariables, unknownVariableText } from "./unknown-variables.ts";
import { credentialSecrets } from "./process-secrets.ts";
import { isHttpUrl, readSpeech, type SpeechSettings } from "./speech-settings.ts";
import { readTranscription, type TranscriptionSettings } from "./transcription-settings.ts";
import type { GlobalHermesOptions } from "./global-config.ts";
import { languageOf, type Language } from "../i18n/catalog.ts";
import { DEFAULT_NOTICES, isNoticeLevel, NOTICE_LEVELS, type NoticeLevel, type NoticePolicy } from "../notices/policy.ts";
import { DEFAULT_STALL_AFTER_MS } from "../walkaway/stall-detector.ts";

export const DEFAULT_API_ROOT = "https://api.telegram.org";
export const DEFAULT_QUESTION_TTL_MS = 30 * 60_000;
/** How an on/off setting may be written. */
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
  /**
   * Users who may act. Empty means anyone in `chatId`: for a private chat that is its one user; for a
   * group only with the explicit opt-in `HERMES_TELEGRAM_ALLOWED_USERS=anyone`.
   */
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
  /** One live, silent progress message per run (HERMES_PROGRESS=on, the default; off: none). */
  progress: boolean;
  /** The agent's telegram_send_file tool (HERMES_AGENT_TOOLS=on, the default; off: no tool is registered). */
  agentTools: boolean;
  /** HERMES_SHELL: `!command` from the phone (on unless set off). */
  shell?: boolean;
  /** HERMES_STALL_AFTER: a busy run showing nothing new this long gets an alert (ms; 0: off). */
  stallAfterMs: number;
  /** HERMES_DESK_DELAY: while the person is at the desk, a new prompt waits this long before it reaches the phone (ms; undefined: off). */
  deskDelayMs?: number;
  /** HERMES_RUN_BUDGET: dollars every run may spend before Hermes stops it (undefined: no cap). */
  runBudget?: number;
  /** HERMES_MACHINE_NAME: labels every message (several machines, one bot each, in one group). */
  machineName?: string;
  /** Voice notes become prompts when HERMES_TRANSCRIBE_URL is set; undefined: they are refused, naming it. */
  transcription?: TranscriptionSettings;
  /** HERMES_STREAM: the answer as it is written (drafts, a group's progress); undefined: on in a private chat, off in a group. */
  stream?: boolean;
  /** HERMES_RICH: answers as rich messages where the Bot API has them (docs/phone.md#rich-messages); false: today's HTML everywhere; undefined: on. */
  rich?: boolean;
  /** Answers spoken back when HERMES_SPEECH_URL is set (docs/speech.md). */
  speech?: SpeechSettings;
  log: LogSettings;
  /** Optional settings that were wrong and are replaced by their defaults, and unknown HERMES_* variables: one sentence each, said once. */
  ignored?: string[];
}

export type ConfigResult =
  | { ok: true; config: HermesConfig }
  /** `setupToken` is set when only the chat is missing: Hermes can still answer /start with the chat id. */
  | { ok: false; problems: string[]; ignored: string[]; log: LogSettings; setupToken?: string; apiRoot: string };

type Env = Record<string, string | undefined>;

export function defaultLogFile(env: Env = process.env): string {
  const stateHome = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), ".local", "state");
  return path.join(stateHome, "hermes", "hermes.log");
}

/** One setting's text and what to call it in a problem: the variable, or the opencode.json option. */
interface Setting {
  raw: string | undefined;
  label: string;
}
type Settings = (name: SettingVariable) => Setting;

function settingsOf(env: Env, options: unknown, problems: string[], ignored: string[], global?: GlobalHermesOptions): Settings {
  const fromOptions = readOptions(options, global);
  problems.push(...fromOptions.problems);
  ignored.push(...fromOptions.ignored);
  const token = env.HERMES_TELEGRAM_TOKEN?.trim();
  const voiceSecrets = [env.HERMES_TRANSCRIBE_KEY?.trim() ?? "", env.HERMES_SPEECH_KEY?.trim() ?? "", ...credentialSecrets(env.HERMES_TRANSCRIBE_URL)].filter(
    (secret) => secret.length >= 6,
  );
  const reported = new Set<string>();
  return (name) => {
    const fromEnv = env[name];
    const setting =
      fromEnv !== undefined && fromEnv.trim() !== ""
        ? { raw: fromEnv, label: name }
        : { raw: fromOptions.values[name] ?? fromEnv, label: fromOptions.labels[name] ?? name };
    // A token pasted into the wrong setting: said once, never quoted, and the value not used.
    if (setting.raw !== undefined && (holdsBotToken(setting.raw) || (token && token.length >= 6 && setting.raw.includes(token)))) {
      if (!reported.has(name))
        problems.push(`${setting.label} holds what looks like the bot token (not shown); the token belongs in HERMES_TELEGRAM_TOKEN only`);
      reported.add(name);
      return { raw: undefined, label: setting.label };
    }
    // The same for the transcription and speech keys and the URL's password (a project's `{env:HERMES_TRANSCRIBE_KEY}`, which OpenCode expands).
    if (setting.raw !== undefined && voiceSecrets.some((secret) => setting.raw!.includes(secret))) {
      if (!reported.has(name)) problems.push(`${setting.label} holds the transcription key or password (not shown); it belongs in the environment only`);
      reported.add(name);
      return { raw: undefined, label: setting.label };
    }
    return setting;
  };
}

export function readLogSettings(env: Env, problems: string[] = [], settings: Settings = settingsOf(env, undefined, [], [])): LogSettings {
  const fileSetting = settings("HERMES_LOG_FILE");
  const rawFile = fileSetting.raw?.trim();
  // A relative path would land wherever OpenCode was started.
  if (rawFile && !path.isAbsolute(rawFile)) problems.push(`${fileSetting.label} must be an absolute path (got "${rawFile}"): the default log file is used`);
  const file = rawFile && path.isAbsolute(rawFile) ? rawFile : defaultLogFile(env);
  const levelSetting = settings("HERMES_LOG_LEVEL");
  const rawLevel = levelSetting.raw?.trim().toLowerCase() || "info";
  const level = (LOG_LEVELS as readonly string[]).includes(rawLevel) ? (rawLevel as LogLevel) : "info";
  if (level !== rawLevel) problems.push(`${levelSetting.label} must be one of ${LOG_LEVELS.join(", ")} (got "${levelSetting.raw}"): info is used`);
  return { file, level };
}

/**
 * `options`: what OpenCode passed next to Hermes in opencode.json (untrusted; undefined when none);
 * `global`: what the user's own global config says for Hermes (global-config.ts), which the chat
 * and allow-list among the options must match.
 */
export function readConfig(env: Env = process.env, options?: unknown, global?: GlobalHermesOptions): ConfigResult {
  // Only what Hermes cannot work without turns it off (the token, the chat, who may act, where
  // Telegram is, and what a project's opencode.json may not decide); a bad optional value is
  // ignored for its default, and said once (log, toast, phone, doctor).
  const problems: string[] = [];
  const ignored: string[] = unknownVariables(env).map(unknownVariableText);
  const settings = settingsOf(env, options, problems, ignored, global);
  const log = readLogSettings(env, ignored, settings);

  const token = env.HERMES_TELEGRAM_TOKEN?.trim() ?? "";
  if (!token) problems.push("HERMES_TELEGRAM_TOKEN is not set (create a bot with @BotFather and copy its token)");
  else if (!looksLikeBotToken(token)) problems.push("HERMES_TELEGRAM_TOKEN does not look like a bot token (expected 123456:ABC…)");

  const chatSetting = settings("HERMES_TELEGRAM_CHAT_ID");
  const rawChat = chatSetting.raw?.trim() ?? "";
  const chatId = Number(rawChat);
  const chatMissing = !rawChat;
  // (An opencode.json chatId of the wrong type was reported already.)
  if (chatMissing) {
    if (chatSetting.label === "HERMES_TELEGRAM_CHAT_ID" && !problems.some((problem) => problem.startsWith(chatSetting.label)))
      problems.push("HERMES_TELEGRAM_CHAT_ID is not set (send /start to your bot: it replies with the chat id)");
  } else if (!/^-?\d+$/.test(rawChat) || !Number.isSafeInteger(chatId)) problems.push(`${chatSetting.label} must be a numeric chat id (got "${rawChat}")`);

  const allowedSetting = settings("HERMES_TELEGRAM_ALLOWED_USERS");
  const allowedUsers: number[] = [];
  const rawAllowed = allowedSetting.raw?.trim() ?? "";
  const anyone = rawAllowed.toLowerCase() === ANYONE;
  for (const part of anyone ? [] : rawAllowed.split(",")) {
    const item = part.trim();
    if (!item) continue;
    if (/^\d+$/.test(item) && Number.isSafeInteger(Number(item))) allowedUsers.push(Number(item));
    else problems.push(`${allowedSetting.label} must be comma-separated numeric user ids, or "${ANYONE}" (bad entry "${item}")`);
  }
  // In a group every member could tap Allow: that takes a list of who may, or the explicit opt-in.
  if (chatId < 0 && allowedUsers.length === 0 && !anyone && !problems.some((problem) => problem.startsWith(allowedSetting.label))) {
    problems.push(
      `HERMES_TELEGRAM_ALLOWED_USERS is required for a group chat (or "allowedUsers" in opencode.json): ` +
        `list the user ids who may answer (comma-separated), or set it to "${ANYONE}" to let every member of the group answer`,
    );
  }

  const rootSetting = settings("HERMES_TELEGRAM_API_ROOT");
  const apiRoot = (rootSetting.raw?.trim() || DEFAULT_API_ROOT).replace(/\/+$/, "");
  if (!isHttpUrl(apiRoot)) problems.push(`${rootSetting.label} must be an http(s) URL (got "${apiRoot}")`);

  const questionTtlMs = readDuration(settings("HERMES_QUESTION_TTL"), DEFAULT_QUESTION_TTL_MS, ignored);
  const permissionTtlMs = readDuration(settings("HERMES_PERMISSION_TTL"), 0, ignored);
  const doneAfterMs = readDuration(settings("HERMES_DONE_AFTER"), DEFAULT_NOTICES.doneAfterMs, ignored);
  const stallSetting = settings("HERMES_STALL_AFTER");
  const stallAfterMs = OFF.includes(stallSetting.raw?.trim().toLowerCase() ?? "") ? 0 : readDuration(stallSetting, DEFAULT_STALL_AFTER_MS, ignored);
  const deskSetting = settings("HERMES_DESK_DELAY");
  const deskDelayMs = OFF.includes(deskSetting.raw?.trim().toLowerCase() ?? "") ? 0 : readDuration(deskSetting, 0, ignored);
  const languageSetting = settings("HERMES_LANGUAGE");
  const language = languageOf(languageSetting.raw) ?? "en";
  if (!languageOf(languageSetting.raw)) ignored.push(`${languageSetting.label} must be en or zh (zh-CN) (got "${languageSetting.raw}"): en is used`);
  const topicsSetting = settings("HERMES_TELEGRAM_TOPICS");
  const rawTopics = topicsSetting.raw?.trim().toLowerCase() || "off";
  const privateChat = rawChat !== "" && Number(rawChat) > 0;
  const topics = ON.includes(rawTopics) && !privateChat;
  if (!ON.includes(rawTopics) && !OFF.includes(rawTopics)) ignored.push(`${topicsSetting.label} must be on or off (got "${topicsSetting.raw}"): off is used`);
  else if (ON.includes(rawTopics) && privateChat)
    ignored.push(`${topicsSetting.label} needs a supergroup with topics: ${chatSetting.label} is a private chat, so topics stay off`);
  const progress = readSwitch(settings("HERMES_PROGRESS"), true, ignored);
  const agentTools = readSwitch(settings("HERMES_AGENT_TOOLS"), true, ignored);
  const shell = readSwitch(settings("HERMES_SHELL"), true, ignored);
  const notifySetting = settings("HERMES_NOTIFY");
  const rawNotify = notifySetting.raw?.trim().toLowerCase() || DEFAULT_NOTICES.level;
  const notify: NoticeLevel = isNoticeLevel(rawNotify) ? rawNotify : DEFAULT_NOTICES.level;
  if (notify !== rawNotify)
    ignored.push(`${notifySetting.label} must be one of ${NOTICE_LEVELS.join(", ")} (got "${notifySetting.raw}"): ${DEFAULT_NOTICES.level} is used`);

  const transcription = readTranscription(env, settings, ignored);
  const machineName = settings("HERMES_MACHINE_NAME").raw?.trim();
  // A bad HERMES_STREAM means its default, which depends on the chat: as if unset.
  const streamSetting = settings("HERMES_STREAM");
  const rawStream = streamSetting.raw?.trim().toLowerCase() ?? "";
  const stream = ON.includes(rawStream) ? true : OFF.includes(rawStream) ? false : undefined;
  if (rawStream !== "" && stream === undefined) ignored.push(`${streamSetting.label} must be on or off (got "${streamSetting.raw}"): its default is used`);
  const rich = settings("HERMES_RICH").raw?.trim() ? readSwitch(settings("HERMES_RICH"), true, ignored) : undefined;
  const speechProblems: string[] = [];
  const readSpeechSettings = readSpeech(env, settings, speechProblems);
  ignored.push(...speechProblems.map((text) => `${text}: answers are not spoken`));
  const speech = speechProblems.length === 0 ? readSpeechSettings : undefined;
  const runBudget = readBudget(env.HERMES_RUN_BUDGET, ignored);

  if (problems.length > 0) {
    const onlyChatMissing = chatMissing && problems.length === 1 && token !== "";
    return { ok: false, problems, ignored, log, apiRoot, ...(onlyChatMissing ? { setupToken: token } : {}) };
  }
  return {
    ok: true,
    config: {
      token,
      chatId,
      allowedUsers,
      apiRoot,
      questionTtlMs,
      permissionTtlMs,
      notify,
      doneAfterMs,
      stallAfterMs,
      ...(deskDelayMs > 0 ? { deskDelayMs } : {}),
      language,
      topics,
      progress,
      agentTools,
      ...(shell ? {} : { shell }),
      ...(rich !== undefined ? { rich } : {}),
      ...(machineName ? { machineName } : {}),
      ...(runBudget !== undefined ? { runBudget } : {}),
      ...(transcription ? { transcription } : {}),
      ...(stream !== undefined ? { stream } : {}),
      ...(speech ? { speech } : {}),
      log,
      ...(ignored.length > 0 ? { ignored } : {}),
    },
  };
}

/** The notice policy these settings ask for: what is not set takes the default (notices/policy.ts). */
export function noticePolicyOf(config: Partial<Pick<HermesConfig, "notify" | "doneAfterMs">>): NoticePolicy {
  return { level: config.notify ?? DEFAULT_NOTICES.level, doneAfterMs: config.doneAfterMs ?? DEFAULT_NOTICES.doneAfterMs };
}

/** HERMES_RUN_BUDGET (the environment only): dollars, or off/unset for none. */
function readBudget(raw: string | undefined, problems: string[]): number | undefined {
  const value = raw?.trim().toLowerCase().replace(/^\$/, "");
  if (!value || OFF.includes(value) || value === "0") return undefined;
  const amount = Number(value);
  if (Number.isFinite(amount) && amount > 0) return amount;
  problems.push(`HERMES_RUN_BUDGET must be an amount in dollars, such as 2.50, or off (got "${raw}"): no budget is set`);
  return undefined;
}

function readSwitch(setting: Setting, fallback: boolean, problems: string[]): boolean {
  const raw = setting.raw?.trim().toLowerCase();
  if (!raw) return fallback;
  if (ON.includes(raw)) return true;
  if (!OFF.includes(raw)) problems.push(`${setting.label} must be on or off (got "${setting.raw}"): its default is used`);
  return OFF.includes(raw) ? false : fallback;
}

function readDuration(setting: Setting, fallback: number, problems: string[]): number {
  const raw = setting.raw?.trim();
  if (!raw) return fallback;
  const parsed = parseDuration(raw);
  if (parsed === undefined)
    problems.push(`${setting.label} must be milliseconds or a duration like 90s, 30m, 2h; 0 = never (got "${raw}"): its default is used`);
  return parsed ?? fallback;
}

export { isHttpUrl };
export { DEFAULT_TRANSCRIBE_MODEL, type TranscriptionSettings } from "./transcription-settings.ts";
