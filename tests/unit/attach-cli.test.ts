// `opencode-hermes attach` (lib/cli/attach.ts, through lib/cli/main.ts): arguments, auth sources, exit
// statuses. The CLI is also spawned for real in tests/e2e/attach-suite.ts.
import { describe, expect, it } from "vitest";
import { EXIT, type CliIo } from "../../lib/cli/io.ts";
import { main } from "../../lib/cli/main.ts";
import type { AttachOptions } from "../../lib/attach/attach-mode.ts";

function io(env: Record<string, string | undefined> = {}) {
  const err: string[] = [];
  const out: string[] = [];
  const seen: AttachOptions[] = [];
  const value: CliIo = {
    env: { HERMES_LOG_FILE: "/dev/null", ...env },
    err: (line) => err.push(line),
    out: (line) => out.push(line),
    onSignal: () => () => undefined,
    // No Telegram settings in `env`: startAttach stops at once with the configuration problem.
    tune: (options) => {
      seen.push(options);
      return options;
    },
  };
  return { io: value, err, out, seen };
}

describe("opencode-hermes CLI", () => {
  it("prints usage for --help (status 0) and without a command (status 64)", async () => {
    const a = io();
    expect(await main(["--help"], a.io)).toBe(EXIT.ok);
    expect(a.out[0]).toMatch(/^Usage: opencode-hermes <command>/);
    const b = io();
    expect(await main([], b.io)).toBe(EXIT.usage);
    expect(b.err[0]).toMatch(/^Usage: opencode-hermes <command>/);
    const c = io();
    expect(await main(["attach", "--help"], c.io)).toBe(EXIT.ok);
    expect(c.out[0]).toMatch(/^Usage: opencode-hermes attach/);
  });

  it("refuses unknown commands, unknown flags and a URL that is not http(s)", async () => {
    for (const argv of [["detach"], ["attach", "--bogus"], ["attach", "positional"], ["attach", "--url", "ftp://x"], ["attach", "--url", "not a url"]]) {
      const t = io();
      expect(await main(argv, t.io), argv.join(" ")).toBe(EXIT.usage);
      expect(t.err[0]).toMatch(/^opencode-hermes: /);
    }
  });

  it("takes auth from the environment, flags over it, and credentials out of the URL", async () => {
    const a = io({ OPENCODE_SERVER_PASSWORD: "env-pw" });
    expect(await main(["attach", "--url", "http://127.0.0.1:4096/", "--directory", "/a", "--directory", "/b"], a.io)).toBe(EXIT.error);
    expect(a.seen[0]).toMatchObject({ url: "http://127.0.0.1:4096", auth: { username: "opencode", password: "env-pw" }, directories: ["/a", "/b"] });
    expect(a.err).toEqual([expect.stringMatching(/^Hermes is off: HERMES_TELEGRAM_TOKEN is not set/)]);

    const b = io({ OPENCODE_SERVER_PASSWORD: "env-pw", OPENCODE_SERVER_USERNAME: "env-user" });
    await main(["attach", "--url", "http://h:1", "--password", "flag-pw"], b.io);
    expect(b.seen[0]).toMatchObject({ url: "http://h:1", auth: { username: "env-user", password: "flag-pw" } });

    const c = io();
    await main(["attach", "--url", "https://bob:p%40ss@example.test:8443/oc/"], c.io);
    expect(c.seen[0]).toMatchObject({ url: "https://example.test:8443/oc", auth: { username: "bob", password: "p@ss" } });

    const d = io();
    await main(["attach"], d.io);
    expect(d.seen[0]).toMatchObject({ url: "http://127.0.0.1:4096", directories: [] });
    expect(d.seen[0]!.auth).toBeUndefined();
  });
});
