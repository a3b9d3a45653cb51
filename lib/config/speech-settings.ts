// The speech service's settings (HERMES_SPEECH_*), read beside the rest of the configuration
// (config.ts): where the answer's words go and the key are taken from the environment only (as the
// transcription service's are: a cloned project's opencode.json never sends them elsewhere); the
// voice and the model from either source. Pure: returns the settings and adds problems.
import type { SettingVariable } from "./config-options.ts";

/** An OpenAI-compatible speech service (`POST {url}/audio/speech`), for answers spoken back (docs/speech.md). */
export interface SpeechSettings {
  /** HERMES_SPEECH_URL, environment only, without a trailing slash. */
  url: string;
  /** HERMES_SPEECH_KEY, environment only (a secret, like the bot token); optional for a local server. */
  key?: string;
  model: string;
  voice: string;
  /** Secrets never read aloud (the bot token, the keys: the agent can print them), set by the hub. */
  withheld?: string[];
}

export const DEFAULT_SPEECH_MODEL = "tts-1";
export const DEFAULT_SPEECH_VOICE = "alloy";

type Env = Record<string, string | undefined>;
type SettingOf = (name: SettingVariable) => { raw: string | undefined; label: string };

export function readSpeech(env: Env, settings: SettingOf, problems: string[]): SpeechSettings | undefined {
  const url = env.HERMES_SPEECH_URL?.trim().replace(/\/+$/, "") ?? "";
  const key = env.HERMES_SPEECH_KEY?.trim() ?? "";
  const model = settings("HERMES_SPEECH_MODEL").raw?.trim() || DEFAULT_SPEECH_MODEL;
  const voice = settings("HERMES_SPEECH_VOICE").raw?.trim() || DEFAULT_SPEECH_VOICE;
  if (!url) return undefined;
  // Never quote the URL: it may carry credentials.
  if (!isHttpUrl(url)) problems.push("HERMES_SPEECH_URL must be an http(s) URL such as https://api.openai.com/v1");
  else if (new URL(url).username || new URL(url).password)
    problems.push("HERMES_SPEECH_URL holds a user and password: put the service's key in HERMES_SPEECH_KEY instead (it is sent as a header)");
  return { url, model, voice, ...(key ? { key } : {}) };
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
