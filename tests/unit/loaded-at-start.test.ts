// What OpenCode loads of Hermes when it starts: only what a waiting OpenCode needs (config, logger,
// relay, long poll). The bridge and everything it reaches load on first use (on-demand-bridge.ts),
// which is most of Hermes' memory at start (docs/performance.md).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadedAtStart } from "../support/import-graph.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("what Hermes loads at start", () => {
  for (const entry of ["plugin.ts", "server.ts"]) {
    it(`${entry} loads the bridge on demand, not at start`, () => {
      const loaded = loadedAtStart(ROOT, entry);
      expect(loaded).toContain("lib/plugin/hub.ts");
      expect(loaded).toContain("lib/bridge/on-demand-bridge.ts");
      expect(loaded).toContain("lib/telegram/wire/poller.ts");
      for (const later of [
        "lib/bridge/bridge.ts",
        "lib/bridge/prompts/prompt-life.ts",
        "lib/bridge/core/gate.ts",
        "lib/registry/registry.ts",
        "lib/telegram/wire/outbox.ts",
      ])
        expect(loaded).not.toContain(later);
      // The agent's tool is registered at start, but its schemas (zod), rules, reading and sending wait for OpenCode to ask.
      expect(loaded).toContain("lib/bridge/agent-tools/send-file-tool.ts");
      for (const later of [
        "zod",
        "lib/bridge/agent-tools/send-project-file.ts",
        "lib/bridge/agent-tools/file-rules.ts",
        "lib/bridge/agent-tools/agent-files.ts",
      ])
        expect(loaded).not.toContain(later);
      // Nor what a waiting OpenCode never uses: a file upload, retries of a change sent to OpenCode,
      // the /status and /help renderers, the command menu and getMe (sent when the bridge loads),
      // polling without the relay.
      for (const later of [
        "lib/telegram/wire/send-document.ts",
        "p-retry",
        "lib/telegram/render/render-status.ts",
        "lib/bridge/bot/bot-profile.ts",
        "lib/relay/solo-role.ts",
      ])
        expect(loaded).not.toContain(later);
      // Scheduled runs: only the wake-up timer and the store it reads wait at start; their commands,
      // runner, words and renderer load with the bridge.
      expect(loaded).toContain("lib/schedules/wake.ts");
      for (const later of [
        "lib/bridge/schedules/schedule-runner.ts",
        "lib/bridge/schedules/schedule-commands.ts",
        "lib/schedules/describe.ts",
        "lib/telegram/render/render-schedules.ts",
      ])
        expect(loaded).not.toContain(later);
    });
  }

  it("reads imports as the runtime does: type-only and dynamic imports load nothing at start", () => {
    const loaded = loadedAtStart(ROOT, "lib/bridge/on-demand-bridge.ts");
    expect(loaded).toContain("lib/i18n/catalog.ts");
    expect(loaded).not.toContain("lib/bridge/bridge.ts"); // `import type` and `import("./bridge.ts")` only
  });
});
