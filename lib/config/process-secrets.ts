// The secrets Hermes reads from the environment (the bot token, the transcription key), taken out
// of it: OpenCode's tools (the agent's shell, its subprocesses) inherit the process' environment,
// and a run that prints it would otherwise show them to the agent, and through its answer to the
// chat. The first plugin instance of a process moves them into a process-wide store and deletes
// them from process.env; every later instance (another project, a reload, another copy of this
// module) finds them there. (A process' starting environment stays in /proc/<pid>/environ, which
// only its own user and root can read.)
import { processGlobal } from "../util/process-global.ts";

export type Env = Record<string, string | undefined>;

/** User and password written into a URL (`https://user:pass@host/v1`), decoded; undefined when there are none. */
export function urlCredentials(url: string | undefined): { user: string; password: string } | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (!parsed.username && !parsed.password) return undefined;
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return { user: decode(parsed.username), password: decode(parsed.password) };
}

/** The secrets a URL's credentials are: decoded, and as they stand in the URL (percent-encoded). */
export function credentialSecrets(url: string | undefined): string[] {
  const credentials = urlCredentials(url);
  if (!credentials) return [];
  const written = new URL(url!.trim());
  return [...new Set([...basicSecrets(`${credentials.user}:${credentials.password}`), ...basicSecrets(`${written.username}:${written.password}`)])];
}

/** The URL without its user and password (how Hermes calls and shows it; the credentials go as HTTP Basic). */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = "";
  parsed.password = "";
  return parsed.href.replace(/\/+$/, "");
}

/** The `Authorization` header of a URL's user and password, if it has them. */
export function basicAuthorization(url: string): Record<string, string> {
  const credentials = urlCredentials(url);
  return credentials ? { authorization: `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString("base64")}` } : {};
}

/** HTTP Basic credentials (`user:password`) in every form Hermes could write them: the password, the pair, and its Base64. */
export function basicSecrets(pair: string | undefined): string[] {
  if (!pair) return [];
  return [pair.slice(pair.indexOf(":") + 1), pair, Buffer.from(pair).toString("base64")].filter((secret) => secret !== "" && secret !== ":");
}

/** The variables taken out of process.env once read. */
export const SECRET_VARIABLES = ["HERMES_TELEGRAM_TOKEN", "HERMES_TRANSCRIBE_KEY", "HERMES_SPEECH_KEY"] as const;

const STORE_KEY = Symbol.for("hermes.secrets");
const store = processGlobal<Map<string, string>>(STORE_KEY, () => new Map());

/**
 * `env` with the secrets it held, or that an earlier instance took: when `env` is process.env, they
 * leave it (kept here). Another environment (a test's, attach mode's own) is read as it is.
 */
export function withProcessSecrets(env: Env, live: Env = process.env): Env {
  if (env !== live) return env;
  // The transcription URL too, when it holds a user and password.
  const names = urlCredentials(live.HERMES_TRANSCRIBE_URL) ? [...SECRET_VARIABLES, "HERMES_TRANSCRIBE_URL"] : SECRET_VARIABLES;
  for (const name of names) {
    const value = live[name];
    if (value !== undefined) {
      store.set(name, value);
      delete live[name];
    }
  }
  if (store.size === 0) return env;
  return { ...env, ...Object.fromEntries(store) };
}
