// Scheduled runs fire in an OpenCode that only waits: the schedules' wake-up timer
// (lib/plugin/schedule-timer.ts) runs from the first project the on-demand bridge serves, without
// loading the bridge, and loads it only when a run falls due, which then starts as a new session.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Bridge, type InstanceLink } from "../../lib/bridge/bridge.ts";
import { ScheduleTimer } from "../../lib/plugin/schedule-timer.ts";
import { OnDemandBridge } from "../../lib/bridge/on-demand-bridge.ts";
import { OpencodeApi } from "../../lib/opencode/api.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { ScheduleStore } from "../../lib/schedules/store.ts";
import { CHAT, DIRECTORY, FakeOpencode } from "../support/bridge-rig.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-schedule-wait-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("a waiting OpenCode", () => {
  it("loads nothing until a run falls due, then starts it", async () => {
    const file = path.join(root, "opencode-hermes", "schedules.json");
    const store = new ScheduleStore(file);
    const next = Date.now() + 400;
    const schedule = {
      id: "0123abcd",
      bot: "bot1",
      chatId: CHAT,
      directory: DIRECTORY,
      when: { kind: "interval" as const, minutes: 60, anchor: next - 3_600_000 },
      instruction: "nightly",
      next,
      created: 0,
    };
    await store.update(() => ({ schedules: [schedule], result: true }));
    const telegram = new MemoryTelegram();
    const opencode = new FakeOpencode();
    let loads = 0;
    const logger = pino({ level: "silent" });
    const timer = new ScheduleTimer({ file, bot: "bot1", chatId: CHAT, logger });
    const bridge = new OnDemandBridge(
      {
        telegram,
        logger,
        access: { chatId: CHAT, allowedUsers: [] },
        questionTtlMs: 0,
        pacing: false,
        schedules: timer.setup,
        servedChanged: () => timer.refresh(),
      },
      async (given) => {
        loads++;
        return new Bridge({ ...given, registry: new Registry() });
      },
    );
    timer.serve(bridge);
    const link: InstanceLink = { directory: DIRECTORY, opencode: new OpencodeApi(opencode, { retries: 1, minTimeout: 1, maxTimeout: 1 }) };
    bridge.attach(link, { listPending: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loads).toBe(0);
    await vi.waitFor(() => expect(opencode.posts.filter((post) => post.url === "/session")).toEqual([{ url: "/session", body: { title: "⏰ nightly" } }]), {
      timeout: 5_000,
    });
    expect(loads).toBe(1);
    expect(telegram.messages[0]?.text).toContain("Scheduled run");
    timer.stop();
    await bridge.stop(100);
  });
});
