import { defineConfig } from "vitest/config";
import { LongFirstSequencer } from "./tests/support/long-first-sequencer.ts";

// Unit tests and the end-to-end tests against the real `opencode` binary, in two groups one after
// the other (docs/development.md, "Where CI's time goes"). The end-to-end files mostly wait (on
// OpenCode, the scripted LLM, a Done threshold, a command that sleeps), so three run at a time;
// the unit files compute, so two (the machine has two cores). `--maxWorkers N` (or
// VITEST_MAX_WORKERS) on the command line still sets both: Vitest would otherwise let a
// project's own maxWorkers win over it. The groups are 1 and 2, not 0: Vitest moves a group 0
// with one worker to the end.
const asked = workersAsked(process.argv, process.env);
const E2E_WORKERS = asked ?? 3;
const UNIT_WORKERS = asked ?? 2;

export default defineConfig({
  test: {
    // Every test fails on a Telegram fake's refused no-op edit or compressed request body.
    setupFiles: ["tests/support/strict-telegram.setup.ts"],
    pool: "forks",
    maxWorkers: UNIT_WORKERS,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    sequence: { sequencer: LongFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: "e2e", include: ["tests/e2e/**/*.test.ts"], maxWorkers: E2E_WORKERS, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: "unit", include: ["tests/**/*.test.ts"], exclude: ["tests/e2e/**"], maxWorkers: UNIT_WORKERS, sequence: { groupOrder: 2 } },
      },
    ],
  },
});

/** `--maxWorkers N`, `--maxWorkers=N` (or `--max-workers`) on the command line, else VITEST_MAX_WORKERS. */
function workersAsked(argv: readonly string[], env: Record<string, string | undefined>): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const match = /^--max-?[wW]orkers(?:=(.*))?$/.exec(argv[i]!);
    if (!match) continue;
    const value = Number(match[1] ?? argv[i + 1]);
    if (Number.isInteger(value) && value > 0) return value;
  }
  const value = Number(env.VITEST_MAX_WORKERS);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
