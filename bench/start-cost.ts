// Hermes' start cost in OpenCode: the real `opencode serve` started with Hermes and without it, side
// by side in one rotation (which goes first alternates pair by pair), on 1.18.33 and 2.0.15. For
// each start: the time from the spawn until the project instance answers (the harness' warm-up
// request, which creates the instance and so loads the plugins), and, with Hermes, when it first
// polls the fake Telegram (`getUpdates`) against the moment the instance answered. Reported as the
// medians of the pairs: what Hermes adds (with − without) and its first poll after the instance.
//
//   npm run bench -- --only start-cost [--pairs 8]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../tests/support/fake-telegram.ts";
import { startMockLlm } from "../tests/support/mock-llm.ts";
import { isOpencode2, OPENCODE2_VERSION, startOpencode, type OpencodeVersion } from "../tests/support/opencode.ts";
import { median, round, until } from "./stats.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** What OpenCode 1.x loads (the plugin function) and what OpenCode 2 loads (the package: server.ts). */
const PLUGIN_PATH = path.resolve(HERE, "../plugin.ts");
const PACKAGE_ROOT = path.resolve(HERE, "..");
/** How long a started Hermes may take to poll before the run counts as "did not poll". */
const POLL_WAIT_MS = 15_000;

export const START_COST_VERSIONS: OpencodeVersion[] = ["1.18.33", OPENCODE2_VERSION];

/** One start of `opencode serve`, in ms from its spawn. */
export interface StartSample {
  /** Spawn → "listening" on stdout. */
  listeningMs: number;
  /** Spawn → the project instance's first answer (plugins loaded). */
  instanceMs: number;
  /** With Hermes: its first getUpdates after the instance answered (negative: before it); undefined: it did not poll. */
  pollAfterInstanceMs?: number;
}

export interface StartCostVersion {
  version: OpencodeVersion;
  pairs: number;
  withHermes: StartSample[];
  without: StartSample[];
  /** with − without, per pair: spawn → instance answered. */
  addedMs: number[];
  medianAddedMs: number;
  medianWithMs: number;
  medianWithoutMs: number;
  /** The median of Hermes' first poll after the instance answered (ms). */
  medianPollAfterInstanceMs: number;
  /** Hermes polled in every run with it. */
  polled: boolean;
}

export interface StartCostResult {
  pairs: number;
  versions: StartCostVersion[];
}

/** Starts `opencode serve` once, with Hermes or without, and times it (the server is stopped before this resolves). */
export async function timeStart(options: {
  version: OpencodeVersion;
  llmBaseURL: string;
  telegram: FakeTelegram;
  withHermes: boolean;
  logFile: string;
}): Promise<StartSample> {
  const { version, telegram, withHermes } = options;
  const entry = isOpencode2(version) ? PACKAGE_ROOT : PLUGIN_PATH;
  const server = await startOpencode({
    version,
    llmBaseURL: options.llmBaseURL,
    plugins: withHermes ? [entry] : [],
    ...(isOpencode2(version) ? { password: "hermes-bench" } : {}),
    env: withHermes
      ? {
          HERMES_TELEGRAM_TOKEN: telegram.token,
          HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
          HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
          HERMES_LOG_FILE: options.logFile,
        }
      : {},
  });
  try {
    const { spawned, listening, answered } = server.startTimes;
    if (answered === undefined) throw new Error("the harness did not time the instance's answer");
    const sample: StartSample = { listeningMs: round(listening - spawned, 1), instanceMs: round(answered - spawned, 1) };
    if (!withHermes) return sample;
    const poll = await until(
      () => telegram.calls.find((call) => call.method === "getUpdates" && (call.hrAt ?? Number.NEGATIVE_INFINITY) >= spawned),
      POLL_WAIT_MS,
      "Hermes' first getUpdates",
      5,
    ).catch(() => undefined);
    return poll ? { ...sample, pollAfterInstanceMs: round(poll.hrAt! - answered, 1) } : sample;
  } finally {
    await server.stop();
  }
}

export async function runStartCost(
  options: { pairs?: number; versions?: OpencodeVersion[]; progress?: (line: string) => void } = {},
): Promise<StartCostResult> {
  const pairs = options.pairs ?? 8;
  const llm = await startMockLlm();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-start-cost-"));
  const versions: StartCostVersion[] = [];
  try {
    for (const version of options.versions ?? START_COST_VERSIONS) {
      const withHermes: StartSample[] = [];
      const without: StartSample[] = [];
      for (let i = 0; i < pairs; i++) {
        // A fresh fake Telegram per pair: its calls are this pair's only.
        const telegram = await startFakeTelegram();
        try {
          for (const hermes of i % 2 === 0 ? [true, false] : [false, true]) {
            const sample = await timeStart({
              version,
              llmBaseURL: llm.baseURL,
              telegram,
              withHermes: hermes,
              logFile: path.join(logDir, `${version}-${i}.log`),
            });
            (hermes ? withHermes : without).push(sample);
            options.progress?.(
              `start ${version} pair ${i + 1}/${pairs}: ${hermes ? "with Hermes" : "without"} ${sample.instanceMs} ms${hermes ? `, first poll ${sample.pollAfterInstanceMs ?? "none"} ms after the instance` : ""}`,
            );
          }
        } finally {
          await telegram.close();
        }
      }
      const added = withHermes.map((sample, k) => round(sample.instanceMs - without[k]!.instanceMs, 1));
      const polls = withHermes.map((sample) => sample.pollAfterInstanceMs).filter((value): value is number => value !== undefined);
      versions.push({
        version,
        pairs,
        withHermes,
        without,
        addedMs: added,
        medianAddedMs: round(median(added), 1),
        medianWithMs: round(median(withHermes.map((sample) => sample.instanceMs)), 1),
        medianWithoutMs: round(median(without.map((sample) => sample.instanceMs)), 1),
        medianPollAfterInstanceMs: round(median(polls), 1),
        polled: polls.length === withHermes.length,
      });
    }
  } finally {
    await llm.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
  return { pairs, versions };
}
