// A directory of the project swapped with a symlink to a folder outside while the agent's file is
// read (a real racing process, as the fourth review did it): the file outside never comes back,
// and every failure is a named rule, never a raw error. Bounded in time, not in tries.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileRefused, readProjectFile } from "../../lib/bridge/agent-tools/file-rules.ts";

const RACE_MS = 2_000;
/** Swaps `d` (a real directory) with a symlink to `outside`, in a tight loop, until killed. */
const SWAPPER = `
const fs = require("node:fs");
const [dir, parked, outside] = process.argv.slice(1);
process.stdout.write("ready\\n");
for (;;) {
  try { fs.renameSync(dir, parked); fs.symlinkSync(outside, dir); fs.unlinkSync(dir); fs.renameSync(parked, dir); } catch {}
}`;

let base: string;
let project: string;
let swapper: ChildProcess;

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "hermes-race-")));
  project = path.join(base, "project");
  const outside = path.join(base, "ssh");
  fs.mkdirSync(path.join(project, "d"), { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(project, "d", "key"), "project file");
  fs.writeFileSync(path.join(outside, "key"), "SECRET KEY");
  swapper = spawn(process.execPath, ["-e", SWAPPER, path.join(project, "d"), path.join(project, "d.parked"), outside], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve) => swapper.stdout!.once("data", () => resolve()));
});
afterAll(() => {
  swapper?.kill("SIGKILL");
  fs.rmSync(base, { recursive: true, force: true });
});

describe("a directory swapped with a symlink out while the file is read", () => {
  it("never sends the file outside; every failure names a rule", async () => {
    const rules = new Map<string, number>();
    let sent = 0;
    const end = Date.now() + RACE_MS;
    while (Date.now() < end) {
      try {
        const file = await readProjectFile("d/key", { directory: project });
        expect(Buffer.from(file.bytes).toString()).toBe("project file");
        sent++;
      } catch (error) {
        if (!(error instanceof FileRefused)) throw new Error(`a failure without a rule: ${String(error)}`);
        rules.set(error.rule, (rules.get(error.rule) ?? 0) + 1);
      }
    }
    // The race really ran: both outcomes were seen.
    expect(sent).toBeGreaterThan(0);
    expect([...rules.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  }, 20_000);
});
