// The options next to Hermes in opencode.json (`["opencode-hermes", { "chatId": 123, … }]`, passed by
// OpenCode 1.18 as the plugin function's second argument) turned into the same settings the
// environment gives. Pure: takes the untrusted options object, returns text values per setting.
//
// OpenCode hands a plugin its options merged from the global config and the project's, the
// project's entry winning, and a project's opencode.json may come from any cloned repository. So
// what decides where the token goes and where Hermes writes (`apiRoot`, `logFile`) is never taken
// from options, and who gets the prompts and who may approve them (`chatId`, `allowedUsers`) only
// when it is what the user's own global config says for Hermes. The agent's tool turned off there
// stays off whatever a project's entry says (a project may turn it off, never on).
import { holdsBotToken } from "./bot-token.ts";
import type { GlobalHermesOptions } from "./global-config.ts";
import { isRecord } from "../util/is-record.ts";
import { NOTICE_LEVELS } from "../notices/policy.ts";
import { closestName } from "./unknown-variables.ts";

/** How an on/off setting may be written. */
export const ON = ["1", "true", "on", "yes"];
export const OFF = ["0", "false", "off", "no"];

/** The explicit opt-in that lets every member of a group chat act (a group otherwise needs a list). */
export const ANYONE = "anyone";

/** Each option and the environment variable it stands for (one home for the pairing). */
const OPTION_VARIABLES = {
  chatId: "HERMES_TELEGRAM_CHAT_ID",
  allowedUsers: "HERMES_TELEGRAM_ALLOWED_USERS",
  apiRoot: "HERMES_TELEGRAM_API_ROOT",
  questionTtl: "HERMES_QUESTION_TTL",
  permissionTtl: "HERMES_PERMISSION_TTL",
  notify: "HERMES_NOTIFY",
  doneAfter: "HERMES_DONE_AFTER",
  stallAfter: "HERMES_STALL_AFTER",
  deskDelay: "HERMES_DESK_DELAY",
  language: "HERMES_LANGUAGE",
  topics: "HERMES_TELEGRAM_TOPICS",
  progress: "HERMES_PROGRESS",
  agentTools: "HERMES_AGENT_TOOLS",
  shell: "HERMES_SHELL",
  machineName: "HERMES_MACHINE_NAME",
  transcribeModel: "HERMES_TRANSCRIBE_MODEL",
  transcribeLanguage: "HERMES_TRANSCRIBE_LANGUAGE",
  stream: "HERMES_STREAM",
  rich: "HERMES_RICH",
  speechVoice: "HERMES_SPEECH_VOICE",
  speechModel: "HERMES_SPEECH_MODEL",
  logFile: "HERMES_LOG_FILE",
  logLevel: "HERMES_LOG_LEVEL",
} as const;
type OptionName = keyof typeof OPTION_VARIABLES;

/**
 * Settings that are never options (a cloned repository could send the user's voice elsewhere, or
 * hold a secret): the environment only, with the reason given in the refusal.
 */
const NEVER_OPTIONS = {
  transcribeUrl: "where voice notes are sent is not a project's choice; set HERMES_TRANSCRIBE_URL in the environment",
  transcribeKey: "a secret does not belong in opencode.json; set HERMES_TRANSCRIBE_KEY in the environment",
  speechUrl: "where the agent's answers are sent to be spoken is not a project's choice; set HERMES_SPEECH_URL in the environment",
  speechKey: "a secret does not belong in opencode.json; set HERMES_SPEECH_KEY in the environment",
} as const;
/** Set in the environment only: where the token goes, where Hermes writes. */
const ENVIRONMENT_ONLY: ReadonlySet<OptionName> = new Set(["apiRoot", "logFile"]);
/** Taken from options only when the user's global config says the same: who gets the prompts, who may approve. */
const GLOBAL_ONLY: ReadonlySet<OptionName> = new Set(["chatId", "allowedUsers"]);
export type SettingVariable = (typeof OPTION_VARIABLES)[OptionName];

export interface OptionValues {
  /** Settings as text, keyed by their environment variable, for the one parser of both sources. */
  values: Partial<Record<SettingVariable, string>>;
  /** What to call a setting that came from here (valid or not), in a problem. */
  labels: Partial<Record<SettingVariable, string>>;
  /** What turns Hermes off: the token or a secret here, what a project may not decide, a wrong chat or allow-list. */
  problems: string[];
  /** Unknown options and optional ones of the wrong type: ignored (their defaults used), said once. */
  ignored: string[];
}

function optionLabel(name: string): string {
  return `opencode.json option "${name}"`;
}

/** `global`: what the user's global config says for Hermes (global-config.ts). */
export function readOptions(options: unknown, global?: GlobalHermesOptions): OptionValues {
  const result: OptionValues = { values: {}, labels: {}, problems: [], ignored: [] };
  if (options !== undefined && options !== null && !isRecord(options)) {
    result.problems.push(`the opencode.json options for Hermes must be an object like { "chatId": 123456789 } (got ${describeValue(options)})`);
    return result;
  }
  readGiven(isRecord(options) ? options : {}, global, result);
  // A project entry that leaves out the chat or the allow-list (OpenCode then passes only its own
  // options, or none) takes the user's global ones: the user's own file, so trusted as it is.
  for (const key of GLOBAL_ONLY) {
    const variable = OPTION_VARIABLES[key];
    const text = globalText(key, global);
    if (result.labels[variable] !== undefined || text === undefined) continue;
    result.values[variable] = text;
    result.labels[variable] = `${optionLabel(key)} in ${global?.file ?? "the global opencode.json"}`;
  }
  // The agent's tool turned off in the user's global entry stays off: a project may turn it off, never on.
  const tools = globalText("agentTools", global)?.trim().toLowerCase();
  if (tools !== undefined && OFF.includes(tools)) {
    result.values.HERMES_AGENT_TOOLS = tools;
    result.labels.HERMES_AGENT_TOOLS = `${optionLabel("agentTools")} in ${global?.file ?? "the global opencode.json"}`;
  }
  return result;
}

/** The options the entry gives, each checked (the chat and the allow-list against the global config). */
function readGiven(options: Record<string, unknown>, global: GlobalHermesOptions | undefined, result: OptionValues): void {
  for (const [name, value] of Object.entries(options)) {
    if (name === "token" || name === "botToken") {
      result.problems.push(`${optionLabel(name)}: the bot token does not belong in opencode.json; set HERMES_TELEGRAM_TOKEN in the environment`);
      continue;
    }
    if (Object.hasOwn(NEVER_OPTIONS, name)) {
      result.problems.push(`${optionLabel(name)}: ${NEVER_OPTIONS[name as keyof typeof NEVER_OPTIONS]}`);
      continue;
    }
    if (!Object.hasOwn(OPTION_VARIABLES, name)) {
      // A misspelled option is ignored, as a misspelled variable is: named, with the option it is closest to.
      const known = Object.keys(OPTION_VARIABLES);
      const closest = closestName(name, known, Math.max(2, Math.floor(name.length / 3)));
      result.ignored.push(
        closest
          ? `${optionLabel(name)} is not a Hermes option and is ignored: did you mean "${closest}"?`
          : `${optionLabel(name)} is not a Hermes option and is ignored (known: ${known.join(", ")})`,
      );
      continue;
    }
    const key = name as OptionName;
    const variable = OPTION_VARIABLES[key];
    if (ENVIRONMENT_ONLY.has(key)) {
      result.problems.push(
        `${optionLabel(name)} is not taken from opencode.json (a cloned project's file could set it): set ${variable} in the environment instead`,
      );
      continue;
    }
    const text = asText(key, value);
    result.labels[variable] = optionLabel(name);
    if (GLOBAL_ONLY.has(key) && text !== undefined && text !== globalText(key, global)) {
      const where = global?.file ?? "the global opencode.json";
      result.problems.push(
        `${optionLabel(name)} is refused: it is not what ${where} says for Hermes, and a project's opencode.json does not choose ` +
          `who gets the prompts or who may approve them; set it in ${where} or in ${variable}`,
      );
      continue;
    }
    if (text === undefined) {
      // Only the chat and the allow-list turn Hermes off; any other option of the wrong type is ignored for its default.
      if (GLOBAL_ONLY.has(key)) result.problems.push(`${optionLabel(name)} ${EXPECTED[key]} (got ${describeValue(value)})`);
      else result.ignored.push(`${optionLabel(name)} ${EXPECTED[key]} (got ${describeValue(value)}): its default is used`);
      continue;
    }
    result.values[OPTION_VARIABLES[key]] = text;
  }
}

/** The global config's value for a setting, as text, or undefined when it has none (or a wrong type). */
function globalText(name: OptionName, global: GlobalHermesOptions | undefined): string | undefined {
  const value = global?.options?.[name];
  return value === undefined ? undefined : asText(name, value);
}

const EXPECTED: Record<OptionName, string> = {
  chatId: "must be a numeric chat id",
  allowedUsers: `must be a list of numeric user ids, or "${ANYONE}"`,
  apiRoot: "must be an http(s) URL",
  questionTtl: 'must be milliseconds or a duration like "30m"',
  permissionTtl: 'must be milliseconds or a duration like "30m"',
  notify: `must be ${quotedChoices(NOTICE_LEVELS)}`,
  doneAfter: 'must be milliseconds or a duration like "30s"',
  stallAfter: 'must be milliseconds, a duration like "10m", or "off"',
  deskDelay: 'must be milliseconds, a duration like "30s", or "off"',
  language: 'must be "en" or "zh"',
  topics: "must be true or false",
  progress: 'must be true or false ("on" or "off")',
  agentTools: 'must be true or false ("on" or "off")',
  shell: 'must be true or false ("on" or "off")',
  machineName: "must be a name (text)",
  transcribeModel: 'must be a model name like "whisper-1"',
  transcribeLanguage: 'must be a language code like "zh"',
  stream: 'must be true or false ("on" or "off")',
  rich: 'must be true or false ("on" or "off")',
  speechVoice: 'must be a voice name like "alloy"',
  speechModel: 'must be a model name like "tts-1"',
  logFile: "must be a file path",
  logLevel: "must be a log level name",
};

/** The option as the text its environment variable would hold, or undefined for a wrong type. */
function asText(name: OptionName, value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number")
    return Number.isFinite(value) && ["chatId", "questionTtl", "permissionTtl", "doneAfter", "stallAfter", "deskDelay"].includes(name)
      ? String(value)
      : undefined;
  if (typeof value === "boolean")
    return name === "topics" || name === "progress" || name === "agentTools" || name === "shell" || name === "stream" || name === "rich"
      ? value
        ? "on"
        : "off"
      : undefined;
  if (Array.isArray(value) && name === "allowedUsers") {
    const ids = value.map((item) =>
      typeof item === "number" && Number.isSafeInteger(item) && item > 0 ? String(item) : typeof item === "string" ? item.trim() : undefined,
    );
    // An empty list would silently mean "nobody listed": say so instead of guessing.
    if (ids.length === 0 || ids.some((id) => id === undefined || id === "" || id.includes(","))) return undefined;
    return ids.join(",");
  }
  return undefined;
}

/** `"a", "b" or "c"` */
function quotedChoices(choices: readonly string[]): string {
  const quoted = choices.map((choice) => `"${choice}"`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}` : quoted.join("");
}

function describeValue(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "string" && holdsBotToken(value)) return "what looks like a bot token (not shown)";
  if (typeof value === "string") return JSON.stringify(Array.from(value).length > 40 ? `${Array.from(value).slice(0, 40).join("")}…` : value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return `a${typeof value === "object" ? "n object" : ` ${typeof value}`}`;
}
