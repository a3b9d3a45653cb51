// The `opencode-hermes` entry point (lib/cli/main.ts): dispatch, usage, exit statuses.
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../lib/cli/io.ts";
import { main, USAGE } from "../../lib/cli/main.ts";

function terminal() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { env: { HERMES_LOG_FILE: "/dev/null" }, out: (line) => out.push(line), err: (line) => err.push(line), onSignal: () => () => undefined };
  return { io, out, err };
}

describe("opencode-hermes main()", () => {
  it("help, --help and -h print the usage on stdout with status 0", async () => {
    for (const argv of [["help"], ["--help"], ["-h"]]) {
      const t = terminal();
      expect(await main(argv, t.io)).toBe(0);
      expect(t.out).toEqual([USAGE]);
      expect(t.err).toEqual([]);
    }
    expect(USAGE).toMatch(/^Usage: opencode-hermes <command>/);
    expect(USAGE).toMatch(/^ {2}setup /m);
    expect(USAGE).toMatch(/^ {2}attach /m);
  });

  it("no command: usage on stderr, status 64; an unknown one: named, usage, status 64", async () => {
    const none = terminal();
    expect(await main([], none.io)).toBe(64);
    expect(none.err).toEqual([USAGE]);
    const unknown = terminal();
    expect(await main(["frobnicate", "--x"], unknown.io)).toBe(64);
    expect(unknown.err[0]).toBe(`opencode-hermes: unknown command "frobnicate"\n\n${USAGE}`);
    expect(unknown.out).toEqual([]);
  });

  it("dispatches setup and attach with the rest of the arguments", async () => {
    const setup = terminal();
    expect(await main(["setup", "--help"], setup.io)).toBe(0);
    expect(setup.out[0]).toMatch(/^Usage: opencode-hermes setup/);
    const badSetup = terminal();
    expect(await main(["setup", "--nope"], badSetup.io)).toBe(64);
    const attach = terminal();
    expect(await main(["attach", "--help"], attach.io)).toBe(0);
    expect(attach.out[0]).toMatch(/^Usage: opencode-hermes attach/);
  });

  it("--version names the package", async () => {
    const t = terminal();
    expect(await main(["--version"], t.io)).toBe(0);
    expect(t.out[0]).toMatch(/^opencode-hermes \d+\.\d+\.\d+/);
  });
});
