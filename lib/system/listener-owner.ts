// Whether a loopback listener is this user's. Attach mode sends OpenCode's password (HTTP Basic) to
// the server it is pointed at, and the transcriber sends voice notes and their key to a service that
// may be a local one (127.0.0.1:8080). On loopback any local user may listen on a port (while the
// server restarts, or before it starts), so before credentials or audio go to a loopback address the
// listening socket must belong to this user. Linux says who owns it: /proc/net/tcp and tcp6 list
// each socket's local address and port, its state (0A: LISTEN) and its owner's uid. Without /proc
// (another system) nothing can be checked, and nothing is refused. A host name is resolved first
// and each of its addresses checked; a host that does not resolve is refused (it cannot be placed).
import dns from "node:dns/promises";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";

/** Reads /proc/net/tcp or /proc/net/tcp6; undefined when there is none. Injectable for tests. */
export type ProcNetReader = (file: "tcp" | "tcp6") => string | undefined;

export interface OwnerCheck {
  uid: number;
  read: ProcNetReader;
  /** A host name's addresses, as fetch would connect (default: dns.lookup, all of them). */
  resolve?: (host: string) => Promise<string[]>;
  /** This machine's own addresses (default: every network interface's). */
  localAddresses?: () => string[];
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

/** Why a request was not sent: a local listener of another user, or a host Hermes could not place. */
export type ListenerProblem = { listener: Listener } | { unclassified: string };

/**
 * What stands in the way of sending to `url`: a socket that belongs to another user listening where
 * a connection to it would land, or a host that does not resolve (what cannot be placed is not
 * trusted). The host is resolved as fetch would (`localhost.`, `0.0.0.0`, `[::ffff:127.0.0.1]` and
 * a name for one of this machine's own addresses are all local), and every address it has is
 * checked. Undefined when no address is local, when every listener there is this user's, when none
 * listens yet, or when /proc cannot tell.
 */
export async function listenerProblem(url: string, check: OwnerCheck): Promise<ListenerProblem | undefined> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  const host = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  let addresses: string[];
  try {
    addresses = net.isIP(host) ? [host] : await (check.resolve ?? resolveAll)(host.replace(/\.$/, ""));
  } catch {
    return { unclassified: host };
  }
  const targets = addresses.map(canonical);
  if (targets.length === 0 || targets.includes(undefined)) return { unclassified: host };
  const own = new Set((check.localAddresses ?? interfaceAddresses)().map(canonical));
  const local = (targets as string[]).filter((address) => isLoopbackOrAny(address) || own.has(address));
  if (local.length === 0) return undefined;
  const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
  const listeners = (["tcp", "tcp6"] as const).flatMap((file) => parseListeners(check.read(file) ?? ""));
  for (const address of local) {
    const found = listeners.find((listener) => listener.port === port && listener.uid !== check.uid && accepts(canonical(listener.address), address));
    if (found) return { listener: found };
  }
  return undefined;
}

/** Whether a socket bound to `bound` takes a connection to `target` (both canonical); unsure counts as yes. */
function accepts(bound: string | undefined, target: string): boolean {
  if (bound === undefined || bound === target || bound === ANY6) return true;
  // A connection to the unspecified address lands on this machine: any local listener may take it.
  if (target === ANY4 || target === ANY6) return true;
  return bound === ANY4 && !target.includes(":");
}

const ANY4 = "0.0.0.0";
const ANY6 = "0:0:0:0:0:0:0:0";
const LOOPBACK6 = "0:0:0:0:0:0:0:1";

function isLoopbackOrAny(address: string): boolean {
  return address.startsWith("127.") || address === ANY4 || address === ANY6 || address === LOOPBACK6;
}

/**
 * One spelling per address: IPv4 dotted, IPv6 as eight hex groups without leading zeros or `::`,
 * an IPv4-mapped IPv6 address as its IPv4 (a connection to it is an IPv4 one). Undefined when not an IP.
 */
export function canonical(address: string): string | undefined {
  const bare = address.replace(/%.*$/, "").toLowerCase();
  const kind = net.isIP(bare);
  if (kind === 4) return bare.split(".").map(Number).join(".");
  if (kind !== 6) return undefined;
  const [head, tail] = bare.includes("::") ? bare.split("::") : [bare, undefined];
  const words = (part: string | undefined) => (part ? part.split(":").flatMap(groupsOf) : []);
  const left = words(head);
  const right = words(tail);
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join(".");
  }
  return groups.map((group) => group.toString(16)).join(":");
}

/** A hex group, or the two groups an embedded IPv4 address is. */
function groupsOf(word: string): number[] {
  if (!word.includes(".")) return [Number.parseInt(word, 16)];
  const [a, b, c, d] = word.split(".").map(Number);
  return [(a! << 8) | b!, (c! << 8) | d!];
}

async function resolveAll(host: string): Promise<string[]> {
  return (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

function interfaceAddresses(): string[] {
  return Object.values(os.networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));
}

/** Why nothing was sent: `withheld` names what (OpenCode's password, a voice note and its key). */
export function listenerRefusal(url: string, problem: ListenerProblem, withheld = "OpenCode's password"): string {
  if ("unclassified" in problem) {
    return `Hermes: cannot tell where ${url} leads (${problem.unclassified} does not resolve to an address), so Hermes does not send it ${withheld}.`;
  }
  const { listener } = problem;
  return (
    `Hermes: the program listening on ${url} (${listener.address}:${listener.port}) belongs to another user (uid ${listener.uid}), ` +
    `not to you: Hermes does not send it ${withheld}. Loopback ports are shared between the users of this machine.`
  );
}

/** A fetch that refuses, before sending anything, a request to a local listener owned by another user, or to a host it cannot place. */
export function ownListenerFetch(inner: typeof fetch, check: OwnerCheck): typeof fetch {
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const problem = await listenerProblem(url, check);
    if (problem) throw new Error(listenerRefusal(url, problem));
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
