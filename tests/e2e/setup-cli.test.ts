// `opencode-hermes setup` through the real launcher (node bin/opencode-hermes.mjs setup …), as a user runs it, against
// the fake Telegram: it completes when the test presses Start.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { pollUntil } from "../support/wait.ts";

const REPO = path.resolve(import.meta.dirname, "../..");

describe("opencode-hermes setup through bin/opencode-hermes.mjs", () => {
  let fake: FakeTelegram;
  beforeAll(async () => {
    fake = await startFakeTelegram();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("prints the configuration once /start arrives, adds Hermes to opencode.json with --yes, and exits 0", async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-setup-home-"));
    const child = spawn(
      process.execPath,
      [path.join(REPO, "bin/opencode-hermes.mjs"), "setup", "--token", fake.token, "--api-root", fake.apiRoot, "--timeout", "60s", "--yes"],
      {
        cwd: REPO,
        env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const killer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await pollUntil(() => stdout.includes("press Start"), {
        timeoutMs: 30_000,
        what: "the setup instructions",
        context: () => `stdout: ${stdout}\nstderr: ${stderr}`,
      });
      const code = /\?start=([A-Za-z0-9_-]+)/.exec(stdout)?.[1];
      expect(code, stdout).toMatch(/^[A-Za-z0-9_-]{22}$/);
      fake.sendText(DEFAULT_USER.id, `/start ${code}`);
      expect(await exited, `stdout: ${stdout}\nstderr: ${stderr}`).toBe(0);
    } finally {
      clearTimeout(killer);
    }
    const lines = stdout.split("\n");
    expect(lines).toContain(`export HERMES_TELEGRAM_TOKEN=${fake.token}`);
    expect(lines).toContain(`export HERMES_TELEGRAM_CHAT_ID=${DEFAULT_USER.id}`);
    const version = (JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8")) as { version: string }).version;
    const written = JSON.parse(fs.readFileSync(path.join(home, ".config", "opencode", "opencode.json"), "utf8")) as { plugin: string[] };
    expect(written.plugin).toEqual([`opencode-hermes@${version}`]);
    fs.rmSync(home, { recursive: true, force: true });
    expect(stderr).toBe("");
    expect(fake.messages(DEFAULT_USER.id)).toHaveLength(2);
  }, 60_000);
});
