// Binds the relay's socket file exclusively, also after a leader was killed (kill -9 leaves its
// socket file behind). The socket is bound under a unique temporary name, made 0600, and then
// hard-linked to the shared name: link() fails if the name exists, so two processes can never both
// take it. A file nobody answers on is moved aside atomically (rename) and deleted only if it is
// still the dead one; a live socket moved aside by mistake is put back. So two survivors racing to
// replace a dead leader end with one leader and one follower.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";

export interface BoundSocket {
  server: net.Server;
  /** The socket file's identity, to tell whether the shared name still points at it. */
  identity: string;
}

const PROBE_TIMEOUT_MS = 1_000;
const LINK_ATTEMPTS = 5;

/** The bound server, or undefined when a live process holds the name already. */
export async function bindExclusive(address: string, onConnection: (socket: net.Socket) => void): Promise<BoundSocket | undefined> {
  const temporary = `${address}.${randomBytes(6).toString("hex")}`;
  const server = net.createServer(onConnection);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(temporary, () => {
      server.removeListener("error", reject);
      resolve();
    });
  });
  try {
    fs.chmodSync(temporary, 0o600);
    const identity = identityOf(temporary);
    for (let attempt = 0; attempt < LINK_ATTEMPTS; attempt++) {
      try {
        fs.linkSync(temporary, address);
        return { server, identity };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      if (!(await clearIfDead(address))) break;
    }
    server.close();
    return undefined;
  } catch (error) {
    server.close();
    throw error;
  } finally {
    unlink(temporary);
  }
}

/** Whether the shared name still points at this socket (another process may have replaced it). */
export function holdsName(address: string, bound: BoundSocket): boolean {
  try {
    return identityOf(address) === bound.identity;
  } catch {
    return false;
  }
}

/** Removes the shared name if it is still this socket's. */
export function releaseName(address: string, bound: BoundSocket): void {
  if (holdsName(address, bound)) unlink(address);
}

/** True when the name is free now (it was missing or dead), false when a live socket answers on it. */
async function clearIfDead(address: string): Promise<boolean> {
  let before: string;
  try {
    if (!fs.lstatSync(address).isSocket()) throw new Error(`${address} exists and is not a socket`);
    before = identityOf(address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  if ((await probeSocket(address)) !== "dead") return false; // anything unclear counts as alive
  const aside = `${address}.${randomBytes(6).toString("hex")}.dead`;
  try {
    fs.renameSync(address, aside);
  } catch {
    return true; // gone already: another survivor cleared it
  }
  // Another survivor replaced the dead socket between our probe and the rename: put its socket back.
  // (If a third process took the name meanwhile, the moved one's leader notices it lost the name: holdsName.)
  if (identityOf(aside) !== before) {
    try {
      fs.linkSync(aside, address);
    } catch {
      // taken again meanwhile
    }
  }
  unlink(aside);
  return true;
}

/**
 * Whether a process listens on a socket file: "answers" (it accepted a connection), "dead" (refused,
 * or no such file), "unclear" (another error, or no answer within PROBE_TIMEOUT_MS).
 */
export function probeSocket(address: string): Promise<"answers" | "dead" | "unclear"> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    const done = (verdict: "answers" | "dead" | "unclear") => {
      clearTimeout(timer);
      socket.destroy();
      resolve(verdict);
    };
    const timer = setTimeout(() => done("unclear"), PROBE_TIMEOUT_MS);
    socket.once("connect", () => done("answers"));
    socket.once("error", (error: NodeJS.ErrnoException) => done(error.code === "ECONNREFUSED" || error.code === "ENOENT" ? "dead" : "unclear"));
  });
}

/** Device, inode and birth time: an inode number alone can be reused as soon as a file is deleted. */
function identityOf(file: string): string {
  const stat = fs.lstatSync(file, { bigint: true });
  return `${stat.dev}:${stat.ino}:${stat.birthtimeNs}`;
}

/** unlink(2), not rm: Bun's rmSync leaves socket files in place. */
function unlink(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
