// The secrets Hermes reads from the environment (the bot token, the transcription key), taken out
// of it: OpenCode's tools (the agent's shell, its subprocesses) inherit the process' environment,
// and a run that prints it would otherwise show them to the agent, and through its answer to the
// chat. The first plugin instance of a process moves them into a process-wide store and deletes
// them from process.env; every later instance (another project, a reload, another copy of this
// module) finds them there. (A process' starting environment stays in /proc/<pid>/environ, which
// only its own user and root can read.)
import { processGlobal } from "./process-global.ts";

export type Env = Record<string, string | undefined>;

/** The variables taken out of process.env once read. */
export const SECRET_VARIABLES = ["HERMES_TELEGRAM_TOKEN", "HERMES_TRANSCRIBE_KEY"] as const;

const STORE_KEY = Symbol.for("hermes.secrets");
const store = processGlobal<Map<string, string>>(STORE_KEY, () => new Map());

/**
 * `env` with the secrets it held, or that an earlier instance took: when `env` is process.env, they
 * leave it (kept here). Another environment (a test's, attach mode's own) is read as it is.
 */
export function withProcessSecrets(env: Env, live: Env = process.env): Env {
  if (env !== live) return env;
  for (const name of SECRET_VARIABLES) {
    const value = live[name];
    if (value !== undefined) {
      store.set(name, value);
      delete live[name];
    }
  }
  if (store.size === 0) return env;
  return { ...env, ...Object.fromEntries(store) };
}
