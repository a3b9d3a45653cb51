// The memory Hermes adds to OpenCode: the real `opencode serve` with Hermes loaded (polling a fake
// Telegram, as it would the real one), without it, and with a plugin that only long-polls the fake
// Telegram with `fetch` (plus the runtime's HTTP client: the floor under what any Telegram plugin
// adds), in one rotation, each left alone for a while after its project instance started (the
// plugins load then). RSS of the process and all its descendants, from /proc (Linux). Reported per
// pair and as the median of the pairs: Hermes against the bare poll (the target: a busy machine
// moves both alike) and against OpenCode alone.
//
//   npm run bench -- --only opencode-memory [--pairs 8] [--settle 10] [--floor]
//
// --floor (and --full) add a fourth run to each pair: OpenCode with a plugin that does nothing
// (OpenCode's own cost of loading any plugin).
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
  /** with Hermes − with the bare poll, per pair (MB), and their median: the target's figure. */
  overPollMB: number[];
  medianOverPollMB: number;
  /** The same pairs' runs with a bare `fetch` long poll, and (--floor) with a no-op plugin. */
  floor: {
    noopMB: number[];
    barePollMB: number[];
    /** − that pair's run without a plugin, per pair (MB); the no-op's empty without --floor. */
    noopAddedMB: number[];
    barePollAddedMB: number[];
    medianNoopAddedMB?: number;
    medianBarePollAddedMB: number;
  };
}

type Variant = "hermes" | "none" | "noop" | "barePoll";

/** The floor's two plugins, written where OpenCode can load them (outside the repo: nothing of them is committed). */
function writeFloorPlugins(dir: string, apiRoot: string, token: string): { noop: string; barePoll: string } {
  const noop = path.join(dir, "noop-plugin.mjs");
  fs.writeFileSync(noop, "export default async function NoopPlugin() { return {}; }\n");
  const barePoll = path.join(dir, "bare-poll-plugin.mjs");
  const url = `${apiRoot}/bot${token}/getUpdates`;
  fs.writeFileSync(
    barePoll,
    `export default async function BarePollPlugin() {
  let offset = 0;
  const poll = async () => {
    for (;;) {
      try {
        const res = await fetch(${JSON.stringify(url)}, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ offset, timeout: 30 }) });
        const body = await res.json();
        for (const u of body.result ?? []) offset = u.update_id + 1;
      } catch { await new Promise((r) => setTimeout(r, 1000)); }
    }
  };
  void poll();
  return {};
}
`,
  );
  return { noop, barePoll };
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
  options: { version?: OpencodeVersion; pairs?: number; settleMs?: number; floor?: boolean; progress?: (line: string) => void } = {},
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
  const floorPlugins = writeFloorPlugins(logDir, telegram.apiRoot, telegram.token);
  const runs: Record<Variant, number[]> = { hermes: withHermes, none: without, noop: [], barePoll: [] };
  const floorAdded = { noop: [] as number[], barePoll: [] as number[] };
  const overPoll: number[] = [];
  const variants: Variant[] = options.floor ? ["hermes", "none", "noop", "barePoll"] : ["hermes", "none", "barePoll"];
  try {
    for (let i = 0; i < pairs; i++) {
      const pair: Partial<Record<Variant, number>> = {};
      // Rotate (with two variants: alternate) which goes first, so drift (caches warming, other load) hits every variant alike.
      const order = variants.map((_, k) => variants[(i + k) % variants.length]!);
      for (const variant of order) {
        const polls = telegram.calls.filter((call) => call.method === "getUpdates").length;
        const plugins = variant === "hermes" ? [PLUGIN_PATH] : variant === "noop" ? [floorPlugins.noop] : variant === "barePoll" ? [floorPlugins.barePoll] : [];
        const server = await startOpencode({
          version,
          llmBaseURL: llm.baseURL,
          plugins,
          env:
            variant === "hermes"
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
          pair[variant] = mb;
          runs[variant].push(mb);
          const polledNow = telegram.calls.filter((call) => call.method === "getUpdates").length > polls;
          if ((variant === "hermes" || variant === "barePoll") && !polledNow) polled = false;
          options.progress?.(`pair ${i + 1}/${pairs}: ${VARIANT_NAMES[variant]} ${mb} MB`);
        } finally {
          await server.stop();
        }
      }
      added.push(round(pair.hermes! - pair.none!, 1));
      overPoll.push(round(pair.hermes! - pair.barePoll!, 1));
      floorAdded.barePoll.push(round(pair.barePoll! - pair.none!, 1));
      if (options.floor) floorAdded.noop.push(round(pair.noop! - pair.none!, 1));
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
    overPollMB: overPoll,
    medianOverPollMB: round(median(overPoll), 1),
    floor: {
      noopMB: runs.noop,
      barePollMB: runs.barePoll,
      noopAddedMB: floorAdded.noop,
      barePollAddedMB: floorAdded.barePoll,
      ...(options.floor ? { medianNoopAddedMB: round(median(floorAdded.noop), 1) } : {}),
      medianBarePollAddedMB: round(median(floorAdded.barePoll), 1),
    },
  };
}

const VARIANT_NAMES: Record<Variant, string> = { hermes: "with Hermes", none: "without", noop: "no-op plugin", barePoll: "bare fetch long poll" };
