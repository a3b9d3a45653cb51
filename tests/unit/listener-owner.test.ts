// Attach mode never sends OpenCode's password to a loopback port another local user listens on
// (lib/system/listener-owner.ts): the owner comes from /proc/net/tcp{,6}, read through an injectable
// reader here, and from the real /proc for a listener of this process.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { AttachError } from "../../lib/attach/attach-mode.ts";
import { startAttachFor } from "../../lib/attach/dispatch.ts";
import { foreignListenerSkip, startForeignListener } from "../support/foreign-listener.ts";
import {
  canonical,
  listenerProblem,
  ownListenerFetch,
  parseListeners,
  systemOwnerCheck,
  type Listener,
  type OwnerCheck,
} from "../../lib/system/listener-owner.ts";

const HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
const HEADER6 =
  "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";

/** One /proc/net/tcp line (x86, little-endian words): `address` as /proc writes it. */
function line(address: string, port: number, uid: number, state = "0A"): string {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  return `   0: ${address}:${hexPort} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000 ${String(uid).padStart(5)}        0 4242 1 0000000000000000 100 0 0 10 0\n`;
}
const LOOPBACK = "0100007F";
const ANY = "00000000";
const LOOPBACK6 = "00000000000000000000000001000000";
const ANY6 = "00000000000000000000000000000000";

/** Names resolve as a typical /etc/hosts has them; this machine's own address is 192.0.2.10. */
const HOSTS: Record<string, string[]> = { localhost: ["::1", "127.0.0.1"], "box.example": ["192.0.2.10"], "remote.example": ["198.51.100.7"] };
const resolve = async (host: string) => {
  const found = HOSTS[host];
  if (!found) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return found;
};

function fixture(tcp: string, tcp6 = ""): OwnerCheck {
  return { uid: 1000, read: (file) => (file === "tcp" ? HEADER + tcp : HEADER6 + tcp6), resolve, localAddresses: () => ["127.0.0.1", "::1", "192.0.2.10"] };
}

/** The listener of another user in the way of `url`, or what could not be placed, or undefined. */
async function foreignListener(url: string, check: OwnerCheck): Promise<Listener | string | undefined> {
  const problem = await listenerProblem(url, check);
  return problem && ("listener" in problem ? problem.listener : `unclassified: ${problem.unclassified}`);
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A real server on loopback that records every request's Authorization header. */
async function recordingServer(host = "127.0.0.1"): Promise<{ port: number; seen: Array<string | undefined> }> {
  const seen: Array<string | undefined> = [];
  const server = http.createServer((request, response) => {
    seen.push(request.headers.authorization);
    response.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

describe("parseListeners", () => {
  it("reads LISTEN sockets with their address, port and owner; other states are left out", async () => {
    expect(parseListeners(HEADER + line(LOOPBACK, 4096, 1000) + line(ANY, 22, 0) + line(LOOPBACK, 5000, 7, "01"), true)).toEqual([
      { address: "127.0.0.1", port: 4096, uid: 1000 },
      { address: "0.0.0.0", port: 22, uid: 0 },
    ]);
    expect(parseListeners(HEADER6 + line(LOOPBACK6, 4096, 1001) + line(ANY6, 80, 0) + line("0000000000000000FFFF00000100007F", 81, 5), true)).toEqual([
      { address: "::1", port: 4096, uid: 1001 },
      { address: "::", port: 80, uid: 0 },
      { address: "::ffff:127.0.0.1", port: 81, uid: 5 },
    ]);
  });
});

describe("foreignListener", () => {
  it("names a loopback listener of another uid, on 127.0.0.1 or any address, for 127.0.0.1, localhost and [::1]", async () => {
    expect(await foreignListener("http://127.0.0.1:4096", fixture(line(LOOPBACK, 4096, 4242)))).toEqual({ address: "127.0.0.1", port: 4096, uid: 4242 });
    expect(((await foreignListener("http://127.0.0.1:4096", fixture(line(ANY, 4096, 4242)))) as Listener | undefined)?.uid).toBe(4242);
    expect(((await foreignListener("http://localhost:4096", fixture("", line(LOOPBACK6, 4096, 4242)))) as Listener | undefined)?.uid).toBe(4242);
    expect(((await foreignListener("http://[::1]:4096", fixture("", line(ANY6, 4096, 4242)))) as Listener | undefined)?.uid).toBe(4242);
  });

  it("every spelling of this machine is local: 0.0.0.0, [::], [::ffff:127.0.0.1] (and in hex), localhost., 127.1, a name for one of its own addresses", async () => {
    const any = fixture(line(ANY, 4096, 4242));
    for (const host of [
      "0.0.0.0",
      "[::]",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "localhost.",
      "LOCALHOST",
      "127.1",
      "127.0.0.2",
      "box.example",
      "192.0.2.10",
      "[0:0:0:0:0:0:0:1]",
    ]) {
      expect(
        await foreignListener(
          `http://${host}:4096`,
          host.startsWith("[") && host !== "[::ffff:127.0.0.1]" && host !== "[::ffff:7f00:1]" ? fixture("", line(ANY6, 4096, 4242)) : any,
        ),
        host,
      ).toMatchObject({ uid: 4242 });
    }
    // A dual-stack listener on [::] takes IPv4 connections too.
    expect(await foreignListener("http://127.0.0.1:4096", fixture("", line(ANY6, 4096, 4242)))).toMatchObject({ uid: 4242 });
    // 0.0.0.0 as the target lands on any local listener of the port.
    expect(await foreignListener("http://0.0.0.0:4096", fixture(line(LOOPBACK, 4096, 4242)))).toMatchObject({ uid: 4242 });
  });

  it("a host that does not resolve cannot be placed, and is refused; a remote one is not checked", async () => {
    expect(await foreignListener("http://nowhere.invalid:4096", fixture(""))).toBe("unclassified: nowhere.invalid");
    expect(await foreignListener("http://remote.example:4096", fixture(line(ANY, 4096, 4242)))).toBeUndefined();
  });

  it("canonical spells each address one way", () => {
    expect(canonical("::ffff:7f00:1")).toBe("127.0.0.1");
    expect(canonical("::FFFF:127.0.0.1")).toBe("127.0.0.1");
    expect(canonical("::1")).toBe("0:0:0:0:0:0:0:1");
    expect(canonical("fe80::1%eth0")).toBe("fe80:0:0:0:0:0:0:1");
    expect(canonical("127.000.0.1")).toBeUndefined();
    expect(canonical("host")).toBeUndefined();
  });

  it("is quiet for this user's listener, another port, a non-loopback host, or no /proc", async () => {
    expect(await foreignListener("http://127.0.0.1:4096", fixture(line(LOOPBACK, 4096, 1000)))).toBeUndefined();
    expect(await foreignListener("http://127.0.0.1:4096", fixture(line(LOOPBACK, 4097, 4242)))).toBeUndefined();
    expect(await foreignListener("http://192.0.2.7:4096", fixture(line(ANY, 4096, 4242)))).toBeUndefined();
    expect(await foreignListener("http://127.0.0.1:4096", { uid: 1000, read: () => undefined })).toBeUndefined();
  });

  it("the real /proc: this process' own listener on 127.0.0.1 is found as its own, and passes", async () => {
    const check = systemOwnerCheck()!;
    const { port } = await recordingServer();
    const own = parseListeners(check.read("tcp")!).find((listener) => listener.port === port && listener.address === "127.0.0.1");
    expect(own).toEqual({ address: "127.0.0.1", port, uid: process.getuid!() });
    expect(await foreignListener(`http://127.0.0.1:${port}`, check)).toBeUndefined();
    // The same listener, seen as someone else's, is refused: the check reads the real table.
    expect(await foreignListener(`http://127.0.0.1:${port}`, { ...check, uid: process.getuid!() + 1 })).toEqual(own);
  });
});

describe("credentials and a listener owned by another uid", () => {
  it("ownListenerFetch refuses before the request is made; this user's listener gets it", async () => {
    const { port, seen } = await recordingServer();
    const foreign = ownListenerFetch(fetch, fixture(line(LOOPBACK, port, 4242)));
    await expect(foreign(`http://127.0.0.1:${port}/api/info`, { headers: { authorization: "Basic c2VjcmV0" } })).rejects.toThrow(
      /belongs to another user \(uid 4242\)/,
    );
    expect(seen).toEqual([]);
    const own = ownListenerFetch(fetch, fixture(line(LOOPBACK, port, 1000)));
    expect((await own(`http://127.0.0.1:${port}/api/info`, { headers: { authorization: "Basic c2VjcmV0" } })).status).toBe(404);
    expect(seen).toEqual(["Basic c2VjcmV0"]);
  });

  it("attach mode with a password fails at once, and not one request (not one credential) reaches the listener", async () => {
    const { port, seen } = await recordingServer();
    const report: string[] = [];
    const handle = startAttachFor({
      url: `http://127.0.0.1:${port}`,
      auth: { username: "opencode", password: "secret" },
      env: { HERMES_TELEGRAM_TOKEN: "123456:TEST-token-abcdefghijklmnopqrstuv", HERMES_TELEGRAM_CHAT_ID: "42", HERMES_LOG_LEVEL: "silent" },
      report: (text) => report.push(text),
      ownerCheck: fixture(line(LOOPBACK, port, 4242)),
    });
    const error = await handle.done.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AttachError);
    expect((error as AttachError).kind).toBe("auth");
    expect(report.join("\n")).toContain("belongs to another user (uid 4242)");
    expect(seen).toEqual([]);
  });

  it("later requests (a restart taken over by another user) are refused too, before anything is sent", async () => {
    const { port, seen } = await recordingServer();
    let owner = 1000;
    const check: OwnerCheck = { uid: 1000, read: (file) => (file === "tcp" ? HEADER + line(LOOPBACK, port, owner) : undefined) };
    const guarded = ownListenerFetch(fetch, check);
    await guarded(`http://127.0.0.1:${port}/global/event`);
    owner = 4242;
    await expect(guarded(`http://127.0.0.1:${port}/global/event`, { headers: { authorization: "Basic c2VjcmV0" } })).rejects.toThrow(/uid 4242/);
    expect(seen).toHaveLength(1);
  });
});

describe.skipIf(foreignListenerSkip !== undefined)("a listener really running as another uid (65534) on 0.0.0.0", () => {
  it("attach mode sends the password to none of its spellings: 0.0.0.0, [::ffff:127.0.0.1], localhost., 127.0.0.1", async () => {
    const squatter = await startForeignListener(0, "0.0.0.0");
    const { port } = squatter;
    try {
      for (const host of ["0.0.0.0", "[::ffff:127.0.0.1]", "localhost.", "127.0.0.1"]) {
        const report: string[] = [];
        const handle = startAttachFor({
          url: `http://${host}:${port}`,
          auth: { username: "opencode", password: "secret" },
          env: { HERMES_TELEGRAM_TOKEN: "123456:TEST-token-abcdefghijklmnopqrstuv", HERMES_TELEGRAM_CHAT_ID: "42", HERMES_LOG_LEVEL: "silent" },
          report: (text) => report.push(text),
        });
        const error = await Promise.race([
          handle.done.catch((caught: unknown) => caught),
          new Promise((resolve) => setTimeout(resolve, 5_000, "still attaching")),
        ]);
        if (!(error instanceof AttachError)) await handle.stop();
        expect(error, host).toBeInstanceOf(AttachError);
        expect(report.join("\n"), host).toContain("belongs to another user (uid 65534)");
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(squatter.requests).toEqual([]);
    } finally {
      await squatter.close();
    }
  });
});
