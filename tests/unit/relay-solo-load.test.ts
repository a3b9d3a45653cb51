// Polling without the relay (solo-role.ts) loads only when the relay cannot run. A broken install
// where that load fails must not reach OpenCode as an unhandled rejection: one error line, and the
// relay still stops cleanly.
import fs from "node:fs";
import path from "node:path";
import pino from "pino";
import { afterEach, expect, it, vi } from "vitest";
import { QueueTelegram } from "../support/queue-telegram.ts";
import { recorder, socketPath, startRelay, stopAll } from "../support/relay-rig.ts";

vi.mock("../../lib/relay/solo-role.ts", () => {
  throw new Error("Cannot find module './solo-role.ts'");
});

afterEach(stopAll);

it("a solo poller that cannot load is one error line, not an unhandled rejection", async () => {
  const address = socketPath();
  fs.mkdirSync(path.dirname(address), { mode: 0o755 });
  fs.chmodSync(path.dirname(address), 0o755);
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const reasons: string[] = [];
  const relay = startRelay(address, new QueueTelegram(), recorder([]).handler, { logger, onUnavailable: (reason) => reasons.push(reason) });
  await vi.waitFor(() => expect(lines.some((line) => line.msg.includes("could not load the solo poller"))).toBe(true));
  expect(reasons).toHaveLength(1);
  await relay.stop();
  expect(relay.role).toBe("stopped");
});
