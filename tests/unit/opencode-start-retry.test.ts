import { describe, expect, it } from "vitest";
import { startIsWorthRetrying } from "../support/opencode.ts";

const ROOT = "/home/dev/hermes";
/** The start that failed CI (stop 56): OpenCode 1.1.53's Bun trapped in the TUI library before it listened. */
const OPENCODE_CRASH = `Error: process 6003 exited before "server listening on" from OpenCode 1.1.53
--- last log lines ---
RuntimeError: access to a null reference (evaluating 'a6.shift()(h2)')
      at za (../../node_modules/.bun/@opentui+core@0.1.77+2b53f2de03b5b2e3/node_modules/@opentui/core/index-h3dbfsf6.js:173:17)
Bun v1.3.5 (Linux x64)
[harness] process 6003 exited (code 1, signal null)`;

describe("which failed start of OpenCode the harness tries again", () => {
  it("OpenCode's own crash before it listens, and a port another test took", () => {
    expect(startIsWorthRetrying(new Error(OPENCODE_CRASH), ROOT)).toBe(true);
    expect(startIsWorthRetrying(new Error("Failed to start server on port 40123"), ROOT)).toBe(true);
  });

  it("never a crash whose trace names a file of Hermes, nor one after it listened", () => {
    const ours = OPENCODE_CRASH.replace(
      "../../node_modules/.bun/@opentui+core@0.1.77+2b53f2de03b5b2e3/node_modules/@opentui/core/index-h3dbfsf6.js",
      `${ROOT}/lib/bridge/bridge.ts`,
    );
    expect(startIsWorthRetrying(new Error(ours), ROOT)).toBe(false);
    expect(startIsWorthRetrying(new Error("process 6003 exited before the password OpenCode 2.0.15 made up"), ROOT)).toBe(false);
    expect(startIsWorthRetrying(new Error("warm-up GET /config answered 500: {}"), ROOT)).toBe(false);
    expect(startIsWorthRetrying(new Error(`Timed out after 60000 ms waiting for "server listening on" from OpenCode 1.1.53`), ROOT)).toBe(false);
  });
});
