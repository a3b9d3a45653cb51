// Where the processes sharing one bot token meet: a local socket named by a hash of the token and
// the Bot API server it polls (never the token itself). On Linux an abstract socket, which the kernel frees the moment its
// owner dies (even on SIGKILL), so a stale leader can never block an election.
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";

export function relayAddress(token: string, apiRoot: string, platform: NodeJS.Platform = process.platform, env: Record<string, string | undefined> = process.env): string {
  const name = `hermes-${createHash("sha256").update(`${apiRoot}\n${token}`).digest("hex").slice(0, 24)}`;
  if (platform === "linux") return `\0${name}`;
  return path.join(env.XDG_RUNTIME_DIR || os.tmpdir(), `${name}.sock`);
}

/** Abstract sockets have no file to clean up. */
export function isAbstract(address: string): boolean {
  return address.startsWith("\0");
}
