import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { relayAddress } from "../../lib/relay/address.ts";
import { probeSocket } from "../../lib/relay/socket-file.ts";
import { hermesPollsHere } from "../../lib/cli/running-hermes.ts";

describe("probeSocket: whether a process listens on a socket file", () => {
  const dirs: string[] = [];
  const servers: net.Server[] = [];
  afterEach(async () => {
    vi.unstubAllEnvs();
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  function tempDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-probe-"));
    dirs.push(dir);
    return dir;
  }

  it("answers when something listens", async () => {
    const address = path.join(tempDir(), "relay.sock");
    const server = net.createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(address, resolve));
    expect(await probeSocket(address)).toBe("answers");
  });

  it("is dead when nothing is there, or a socket file nobody listens on", async () => {
    const dir = tempDir();
    expect(await probeSocket(path.join(dir, "missing.sock"))).toBe("dead");
    const address = path.join(dir, "left-behind.sock");
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(address, resolve));
    fs.linkSync(address, path.join(dir, "copy.sock"));
    await new Promise((resolve) => server.close(resolve));
    expect(await probeSocket(path.join(dir, "copy.sock"))).toBe("dead");
  });

  it("is unclear for any other failure", async () => {
    const file = path.join(tempDir(), "plain.txt");
    fs.writeFileSync(file, "not a directory");
    expect(await probeSocket(path.join(file, "relay.sock"))).toBe("unclear");
  });

  it("is what setup's check for a running Hermes reads: only the token's relay socket answering counts", async () => {
    vi.stubEnv("XDG_RUNTIME_DIR", tempDir());
    const [token, apiRoot] = ["123456789:probe-test-token", "http://127.0.0.1:1"];
    expect(await hermesPollsHere(token, apiRoot)).toBe(false);
    const address = relayAddress(token, apiRoot);
    fs.mkdirSync(path.dirname(address), { mode: 0o700 });
    const server = net.createServer((socket) => socket.destroy());
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(address, resolve));
    expect(await hermesPollsHere(token, apiRoot)).toBe(true);
    expect(await hermesPollsHere("987654321:another-token", apiRoot)).toBe(false);
  });
});
