// The transcription service for voice notes, as the settings give it: its URL and key from the
// environment only (where the user's voice goes is not a project's choice), model and language from
// either source. A bad value is reported and leaves voice notes refused; it never turns Hermes off.
import type { SettingVariable } from "./config-options.ts";
import { urlCredentials, withoutCredentials } from "./process-secrets.ts";
import { isHttpUrl } from "./speech-settings.ts";

type Env = Record<string, string | undefined>;
type SettingOf = (name: SettingVariable) => { raw: string | undefined; label: string };

/** An OpenAI-compatible transcription service for voice notes (README "Voice notes"). */
export interface TranscriptionSettings {
  /** HERMES_TRANSCRIBE_URL, environment only: where the user's voice goes is not a project's choice. */
  url: string;
  /** HERMES_TRANSCRIBE_KEY, environment only (a secret, like the bot token); optional for a local server. */
  key?: string;
  /** `user:password` taken out of HERMES_TRANSCRIBE_URL (sent as HTTP Basic, scrubbed like the key); `url` no longer holds it. */
  basic?: string;
  model: string;
  /** An ISO-639-1 code such as "zh"; unset: the service detects the language. */
  language?: string;
}

export const DEFAULT_TRANSCRIBE_MODEL = "whisper-1";

/** The transcription service: its URL and key from the environment only; model and language from either source. */
export function readTranscription(env: Env, settings: SettingOf, problems: string[]): TranscriptionSettings | undefined {
  const url = env.HERMES_TRANSCRIBE_URL?.trim().replace(/\/+$/, "") ?? "";
  const key = env.HERMES_TRANSCRIBE_KEY?.trim() ?? "";
  const model = settings("HERMES_TRANSCRIBE_MODEL").raw?.trim() || DEFAULT_TRANSCRIBE_MODEL;
  const languageSetting = settings("HERMES_TRANSCRIBE_LANGUAGE");
  const language = languageSetting.raw?.trim() ?? "";
  const goodLanguage = !language || /^[a-z]{2,3}$/i.test(language);
  if (!goodLanguage)
    problems.push(`${languageSetting.label} must be a language code like "en" or "zh" (got ${JSON.stringify(language.slice(0, 40))}): the service detects it`);
  if (!url) return undefined;
  // Never quote the URL: it may carry credentials (https://user:pass@host).
  if (!isHttpUrl(url)) {
    problems.push("HERMES_TRANSCRIBE_URL must be an http(s) URL such as https://api.openai.com/v1: voice notes are refused");
    return undefined;
  }
  // Credentials in the URL become the Authorization header here: fetch would drop them (Bun) or fail quoting them (Node).
  const credentials = urlCredentials(url);
  if (credentials && key) {
    problems.push(
      "HERMES_TRANSCRIBE_URL holds a user and password and HERMES_TRANSCRIBE_KEY is set too: the service takes one of them, so voice notes are refused",
    );
    return undefined;
  }
  const bare = credentials ? withoutCredentials(url) : url;
  return {
    url: bare,
    model,
    ...(key ? { key } : {}),
    ...(credentials ? { basic: `${credentials.user}:${credentials.password}` } : {}),
    ...(language && goodLanguage ? { language: language.toLowerCase() } : {}),
  };
}
