// The time the plugin adds to OpenCode's instance start.
//  1. In fresh Node processes (bench/start-probe.ts): the cold `import plugin.ts` and the plugin
//     factory OpenCode awaits. Node + tsx: the import includes tsx transpiling the TypeScript
//     (OpenCode runs the plugin under Bun, which transpiles natively).
//  2. Optionally the real `opencode serve`: process start to a served GET /config, and a new
//     project instance's first GET /config (instance bootstrap incl. plugins), with and without
//     Hermes, median of a few runs.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DEFAULT_CHAT_ID, startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { startMockLlm } from "../tests/support/mock-llm.ts";
import { startOpencode, type OpencodeVersion } from "../tests/support/opencode.ts";
import { median, round } from "./stats.ts";

const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));
export const PLUGIN_PATH = path.resolve(HERE, "../plugin.ts");

export interface ProbeResult {
  importMs: number;
  factoryMs: number;
  coldMs: number;
  secondFactoryMs: number;
}

export interface StartupResult {
  runs: number;
  /** Every probe, in order (the first also pays tsx's transpile cache). */
  probes: ProbeResult[];
  median: ProbeResult;
  opencode?: OpencodeStartResult;
  opencodeError?: string;
}

export interface OpencodeStartResult {
  version: OpencodeVersion;
  runs: number;
  /** Spawn → listening → first GET /config answered (ms), medians. */
  processStart: { withPlugin: number; without: number; addedMs: number };
  /** A new project directory's first GET /config: its instance bootstrap (ms), medians. */
  instanceStart: { withPlugin: number; without: number; addedMs: number };
  samples: { processStart: { withPlugin: number[]; without: number[] }; instanceStart: { withPlugin: number[]; without: number[] } };
}

function tokenFor(run: number): string {
  return `${700000 + run}:bench-start-${process.pid}-${run}-abcdefghij`;
}

export async function runStartup(options: { runs?: number; opencode?: boolean; opencodeRuns?: number } = {}): Promise<StartupResult> {
  const runs = options.runs ?? 5;
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-start-"));
  const probes: ProbeResult[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const token = tokenFor(i);
      const fake = await startFakeTelegram({ token });
      try {
        const { stdout } = await run(process.execPath, ["--import", "tsx", path.join(HERE, "start-probe.ts")], {
          cwd: path.resolve(HERE, ".."),
          env: {
            ...process.env,
            NODE_OPTIONS: "",
            HERMES_TELEGRAM_TOKEN: token,
            HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
            HERMES_TELEGRAM_API_ROOT: fake.apiRoot,
            HERMES_LOG_FILE: path.join(logDir, `hermes-${i}.log`),
            HERMES_LOG_LEVEL: "info",
          },
          timeout: 60_000,
        });
        const line = stdout.trim().split("\n").pop() ?? "";
        const parsed = JSON.parse(line) as ProbeResult;
        probes.push({
          importMs: round(parsed.importMs),
          factoryMs: round(parsed.factoryMs),
          coldMs: round(parsed.coldMs),
          secondFactoryMs: round(parsed.secondFactoryMs),
        });
      } finally {
        await fake.close();
      }
    }
  } finally {
    fs.rmSync(logDir, { recursive: true, force: true });
  }
  const pick = (key: keyof ProbeResult) => round(median(probes.map((p) => p[key])));
  const result: StartupResult = {
    runs,
    probes,
    median: { importMs: pick("importMs"), factoryMs: pick("factoryMs"), coldMs: pick("coldMs"), secondFactoryMs: pick("secondFactoryMs") },
  };
  if (options.opencode) {
    try {
      result.opencode = await runOpencodeStart("1.18.33", options.opencodeRuns ?? 3);
    } catch (error) {
      result.opencodeError = error instanceof Error ? error.message.split("\n")[0] : String(error);
    }
  }
  return result;
}

async function runOpencodeStart(version: OpencodeVersion, runs: number): Promise<OpencodeStartResult> {
  const llm = await startMockLlm();
  const telegram = await startFakeTelegram();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-oc-"));
  const samples = {
    processStart: { withPlugin: [] as number[], without: [] as number[] },
    instanceStart: { withPlugin: [] as number[], without: [] as number[] },
  };
  try {
    for (let i = 0; i < runs; i++) {
      // Alternate, so drift (caches warming, other load) hits both sides alike.
      for (const withPlugin of i % 2 === 0 ? [true, false] : [false, true]) {
        const started = performance.now();
        const server = await startOpencode({
          version,
          llmBaseURL: llm.baseURL,
          plugins: withPlugin ? [PLUGIN_PATH] : [],
          env: withPlugin
            ? {
                HERMES_TELEGRAM_TOKEN: telegram.token,
                HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
                HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
                HERMES_LOG_FILE: path.join(logDir, `hermes-${i}.log`),
              }
            : {},
        });
        const processMs = performance.now() - started;
        try {
          const directory = await server.addProject(`instance-${i}`);
          const t0 = performance.now();
          const res = await server.request("GET", "/config", { directory, timeoutMs: 60_000 });
          const instanceMs = performance.now() - t0;
          if (res.status !== 200) throw new Error(`GET /config for a new project answered ${res.status}`);
          samples.processStart[withPlugin ? "withPlugin" : "without"].push(round(processMs, 1));
          samples.instanceStart[withPlugin ? "withPlugin" : "without"].push(round(instanceMs, 1));
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await telegram.close();
    await llm.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
  const med = (values: number[]) => round(median(values), 1);
  const pair = (s: { withPlugin: number[]; without: number[] }) => ({
    withPlugin: med(s.withPlugin),
    without: med(s.without),
    addedMs: round(med(s.withPlugin) - med(s.without), 1),
  });
  return { version, runs, processStart: pair(samples.processStart), instanceStart: pair(samples.instanceStart), samples };
}
