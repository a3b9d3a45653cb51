import { defineConfig } from "vitest/config";

// Unit tests and the end-to-end tests against the real `opencode` binary. E2E files start
// OpenCode processes, so at most two test files run at a time (2-core machine).
export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // Every test fails on a Telegram fake's refused no-op edit or compressed request body.
    setupFiles: ["tests/support/strict-telegram.setup.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
