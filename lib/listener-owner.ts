// Whether a loopback listener is this user's. Attach mode sends OpenCode's password (HTTP Basic) to
// the server it is pointed at, and the transcriber sends voice notes and their key to a service that
// may be a local one (127.0.0.1:8080). On loopback any local user may listen on a port (while the
// server restarts, or before it starts), so before credentials or audio go to a loopback address the
// listening socket must belong to this user. Linux says who owns it: /proc/net/tcp and tcp6 list
// each socket's local address and port, its state (0A: LISTEN) and its owner's uid. Without /proc
// (another system) nothing can be checked, and nothing is refused.
import fs from "node:fs";
import os from "node:os";

/** Reads /proc/net/tcp or /proc/net/tcp6; undefined when there is none. Injectable for tests. */
export type ProcNetReader = (file: "tcp" | "tcp6") => string | undefined;

export interface OwnerCheck {
  uid: number;
  read: ProcNetReader;
}

export interface Listener {
  /** The local address, as Node writes it: "127.0.0.1", "0.0.0.0", "::1", "::", "::ffff:127.0.0.1". */
  address: string;
  port: number;
  uid: number;
}

const LISTEN = "0A";

/** The sockets in LISTEN state in one /proc/net/tcp{,6} text. */
export function parseListeners(text: string, littleEndian = os.endianness() === "LE"): Listener[] {
  const listeners: Listener[] = [];
  for (const line of text.split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
    const [local, state, uid] = [fields[1], fields[3], fields[7]];
    if (!local || state !== LISTEN || uid === undefined || !/^\d+$/.test(uid)) continue;
    const [hex, portHex] = local.split(":");
    if (!hex || !portHex || !/^[0-9A-Fa-f]+$/.test(hex) || (hex.length !== 8 && hex.length !== 32)) continue;
    listeners.push({ address: addressOf(hex, littleEndian), port: Number.parseInt(portHex, 16), uid: Number(uid) });
  }
  return listeners;
}

/** /proc writes each 32-bit word of the address in host byte order. */
function addressOf(hex: string, littleEndian: boolean): string {
  const bytes: number[] = [];
  for (let word = 0; word < hex.length; word += 8) {
    const chunk = [0, 2, 4, 6].map((at) => Number.parseInt(hex.slice(word + at, word + at + 2), 16));
    bytes.push(...(littleEndian ? chunk.reverse() : chunk));
  }
  if (bytes.length === 4) return bytes.join(".");
  const groups = [];
  for (let at = 0; at < 16; at += 2) groups.push(((bytes[at]! << 8) | bytes[at + 1]!).toString(16));
  const text = groups.join(":");
  if (text === "0:0:0:0:0:0:0:0") return "::";
  if (text === "0:0:0:0:0:0:0:1") return "::1";
  if (text.startsWith("0:0:0:0:0:ffff:")) return `::ffff:${bytes.slice(12).join(".")}`;
  return text;
}

/** The local addresses a listener may have to take a connection to `host` (a loopback host), per table. */
function acceptingAddresses(host: string): { tcp: string[]; tcp6: string[] } | undefined {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (bare === "localhost") {
    return { tcp: ["127.0.0.1", "0.0.0.0"], tcp6: ["::1", "::", "::ffff:127.0.0.1"] };
  }
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare)) return { tcp: [bare, "0.0.0.0"], tcp6: ["::", `::ffff:${bare}`] };
  if (bare === "::1") return { tcp: [], tcp6: ["::1", "::"] };
  return undefined;
}

/**
 * A socket listening where a connection to `url` would land that belongs to another user, if there
 * is one; undefined when the URL is not a loopback one, when every such listener is this user's,
 * when none listens yet, or when /proc cannot tell.
 */
export function foreignListener(url: string, check: OwnerCheck): Listener | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const addresses = acceptingAddresses(target.hostname);
  if (!addresses) return undefined;
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  for (const file of ["tcp", "tcp6"] as const) {
    const text = check.read(file);
    if (text === undefined) continue;
    const found = parseListeners(text).find((listener) => listener.port === port && addresses[file].includes(listener.address) && listener.uid !== check.uid);
    if (found) return found;
  }
  return undefined;
}

/** Why nothing was sent: `withheld` names what (OpenCode's password, a voice note and its key). */
export function listenerRefusal(url: string, listener: Listener, withheld = "OpenCode's password"): string {
  return (
    `Hermes: the program listening on ${url} (${listener.address}:${listener.port}) belongs to another user (uid ${listener.uid}), ` +
    `not to you: Hermes does not send it ${withheld}. Loopback ports are shared between the users of this machine.`
  );
}

/** A fetch that refuses, before sending anything, a request to a loopback listener owned by another user. */
export function ownListenerFetch(inner: typeof fetch, check: OwnerCheck): typeof fetch {
  return (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const foreign = foreignListener(url, check);
    if (foreign) return Promise.reject(new Error(listenerRefusal(url, foreign)));
    return inner(input, init);
  };
}

/** This process' uid and the real /proc (nothing to check where there is no getuid, as on Windows). */
export function systemOwnerCheck(): OwnerCheck | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  return {
    uid,
    read: (file) => {
      try {
        return fs.readFileSync(`/proc/net/${file}`, "utf8");
      } catch {
        return undefined;
      }
    },
  };
}
