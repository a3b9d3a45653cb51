// Where the processes sharing one bot token meet: a socket file named by a hash of the token and
// the Bot API server it polls (never the token itself), in a directory only this user can enter:
// $XDG_RUNTIME_DIR/hermes/ (per login session, 0700 by the XDG spec) when that directory exists,
// else hermes/relay/ in the user's own state directory ($XDG_STATE_HOME, else ~/.local/state: never
// a shared temp directory, where another user could create the name first and so switch the relay
// off); created 0700 and checked before use (lib/system/private-dir.ts), the way ssh-agent and gpg-agent do.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function relayDirectory(env: Record<string, string | undefined> = process.env, home: string = os.homedir()): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && path.isAbsolute(runtime) && isDirectory(runtime)) return path.join(runtime, "hermes");
  const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME || home, ".local", "state");
  return path.join(state, "hermes", "relay");
}

export function relayAddress(token: string, apiRoot: string, env: Record<string, string | undefined> = process.env): string {
  const name = createHash("sha256").update(`${apiRoot}\n${token}`).digest("hex").slice(0, 24);
  return path.join(relayDirectory(env), `${name}.sock`);
}

/** `sudo` and `su` often keep an XDG_RUNTIME_DIR that doesn't exist for the new user. */
function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
