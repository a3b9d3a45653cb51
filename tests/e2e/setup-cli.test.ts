// `opencode-hermes setup` through the real launcher (node bin/opencode-hermes.mjs setup …), as a user runs it, against
// the fake Telegram: it completes when the test presses Start. Then the real OpenCode 1.18.33 starts with
// the global config setup wrote and the variables it printed, and Hermes polls the bot: what setup
// writes from a clone loads (a name the registry does not have would load nothing, in silence). The
// same with OpenCode 2.0.15 on the PATH: setup asks `opencode --version` and writes the clone's
// folder in "plugins" (2.0.15 skips a 1.x entry naming a file).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";
import { startMockLlm } from "../support/mock-llm.ts";
import { startOpencode } from "../support/opencode.ts";
import { opencodeBinary, type OpencodeVersion } from "../support/opencode/binary.ts";
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

  it.each<[OpencodeVersion, (written: Record<string, unknown>) => void]>([
    ["1.18.33", (written) => expect(written.plugin).toEqual([path.join(REPO, "plugin.ts")])],
    ["2.0.15", (written) => expect(written.plugins).toEqual([pathToFileURL(REPO).href])],
  ])(
    "prints the configuration once /start arrives, adds Hermes to opencode.json with --yes, exits 0, and OpenCode %s then loads it",
    async (version, entryIsRight) => {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-setup-home-"));
      const messagesBefore = fake.messages(DEFAULT_USER.id).length;
      // The user's OpenCode, first on the PATH: setup asks it its version.
      const bin = path.join(home, "bin");
      fs.mkdirSync(bin);
      fs.symlinkSync(opencodeBinary(version), path.join(bin, "opencode"));
      const child = spawn(
        process.execPath,
        [path.join(REPO, "bin/opencode-hermes.mjs"), "setup", "--token", fake.token, "--api-root", fake.apiRoot, "--timeout", "60s", "--yes"],
        {
          cwd: REPO,
          env: { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ""}`, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") },
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
      const written = JSON.parse(fs.readFileSync(path.join(home, ".config", "opencode", "opencode.json"), "utf8")) as Record<string, unknown>;
      // From a clone: the clone's own plugin.ts (the package is not on the registry yet), or on OpenCode 2 its folder.
      entryIsRight(written);
      fs.rmSync(home, { recursive: true, force: true });
      expect(stderr).toBe("");
      expect(fake.messages(DEFAULT_USER.id)).toHaveLength(messagesBefore + 2);

      // The user sets the printed variables and restarts OpenCode: Hermes polls the bot.
      const exported: Record<string, string> = {};
      for (const line of lines) {
        const match = /^export (HERMES_\w+)=(\S+)$/.exec(line);
        if (match?.[1] && match[2]) exported[match[1]] = match[2];
      }
      expect(Object.keys(exported).sort()).toEqual(["HERMES_TELEGRAM_API_ROOT", "HERMES_TELEGRAM_CHAT_ID", "HERMES_TELEGRAM_TOKEN"]);
      const polledBefore = fake.calls.filter((call) => call.method === "getUpdates").length;
      const llm = await startMockLlm();
      const opencode = await startOpencode({
        version,
        llmBaseURL: llm.baseURL,
        globalConfig: written,
        env: exported,
      });
      try {
        await pollUntil(() => fake.calls.filter((call) => call.method === "getUpdates").length > polledBefore, {
          timeoutMs: 60_000,
          what: "Hermes polling the bot in the OpenCode that setup configured",
          context: () => opencode.logs().slice(-2000),
        });
      } finally {
        await opencode.stop();
        await llm.close();
      }
    },
    150_000,
  );
});
