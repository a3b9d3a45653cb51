// The memory Hermes adds to OpenCode: the real `opencode serve` with Hermes loaded (polling a fake
// Telegram, as it would the real one) and without it, alternating, each left alone for a while after
// its project instance started (the plugins load then). RSS of the process and all its descendants,
// from /proc (Linux). Reported per pair (with − without) and as the median of the pairs.
//
//   npm run bench -- --only opencode-memory [--pairs 5] [--settle 10]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_CHAT_ID, startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { startMockLlm } from "../tests/support/mock-llm.ts";
import { startOpencode, type OpencodeVersion } from "../tests/support/opencode.ts";
import { median, round, sleep } from "./stats.ts";
import { PLUGIN_PATH } from "./startup.ts";

export interface OpencodeMemoryResult {
  version: OpencodeVersion;
  pairs: number;
  /** Seconds after the project instance (and the plugin) started, before RSS is read. */
  settleS: number;
  /** Per run, in MB, in the order measured within each pair. */
  withHermesMB: number[];
  withoutMB: number[];
  /** with − without, per pair (MB). */
  addedMB: number[];
  medianAddedMB: number;
  medianWithoutMB: number;
  /** Hermes did poll the fake Telegram in every run with it (so the relay and the long poll were up). */
  polled: boolean;
}

/** RSS (kB) of a process and every descendant, from /proc. */
export function treeRssKb(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProc(`/proc/${entry}/stat`);
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ')'.
    const after = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ppid = Number(after?.[1]);
    if (!Number.isFinite(ppid)) continue;
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  let total = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    const rss = /VmRSS:\s+(\d+) kB/.exec(readProc(`/proc/${pid}/status`) ?? "");
    if (rss) total += Number(rss[1]);
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

function readProc(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

export async function runOpencodeMemory(
  options: { version?: OpencodeVersion; pairs?: number; settleMs?: number; progress?: (line: string) => void } = {},
): Promise<OpencodeMemoryResult> {
  if (process.platform !== "linux") throw new Error("reads RSS from /proc: Linux only");
  const version = options.version ?? "1.18.33";
  const pairs = options.pairs ?? 3;
  const settleMs = options.settleMs ?? 10_000;
  const llm = await startMockLlm();
  const telegram = await startFakeTelegram();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-mem-"));
  const withHermes: number[] = [];
  const without: number[] = [];
  const added: number[] = [];
  let polled = true;
  try {
    for (let i = 0; i < pairs; i++) {
      const pair: Partial<Record<"with" | "without", number>> = {};
      // Alternate which goes first, so drift (caches warming, other load) hits both sides alike.
      for (const withPlugin of i % 2 === 0 ? [true, false] : [false, true]) {
        const polls = telegram.calls.filter((call) => call.method === "getUpdates").length;
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
        try {
          await sleep(settleMs);
          const mb = round(treeRssKb(server.pid) / 1024, 1);
          pair[withPlugin ? "with" : "without"] = mb;
          (withPlugin ? withHermes : without).push(mb);
          if (withPlugin && telegram.calls.filter((call) => call.method === "getUpdates").length === polls) polled = false;
          options.progress?.(`pair ${i + 1}/${pairs}: ${withPlugin ? "with Hermes" : "without"} ${mb} MB`);
        } finally {
          await server.stop();
        }
      }
      added.push(round(pair.with! - pair.without!, 1));
    }
  } finally {
    await telegram.close();
    await llm.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
  return {
    version,
    pairs,
    settleS: settleMs / 1000,
    withHermesMB: withHermes,
    withoutMB: without,
    addedMB: added,
    medianAddedMB: round(median(added), 1),
    medianWithoutMB: round(median(without), 1),
    polled,
  };
}
