// Where the memory Hermes adds to OpenCode goes, measured inside one real `opencode serve` process:
// a probe plugin waits until the project instance has settled, reads the process' RSS and JSC heap,
// does one thing (nothing; a bare `fetch` long poll; import Hermes; import and run Hermes with the
// input OpenCode gave the probe; the same, then a run starts), and reads them again 10 s later. A delta inside one process is
// far steadier than the difference of two processes (OpenCode alone lands anywhere in 309–325 MB),
// so the parts can be told apart; the row that counts stays opencode-memory.ts'.
//
//   npm run bench -- --only memory-parts [--rounds 2]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEFAULT_CHAT_ID, startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { startMockLlm } from "../tests/support/mock-llm.ts";
import { startOpencode, type OpencodeVersion } from "../tests/support/opencode.ts";
import { median, round, sleep } from "./stats.ts";
import { PLUGIN_PATH } from "./startup.ts";

export const MEMORY_PARTS = ["nothing", "fetch", "import", "run", "busy"] as const;
export type MemoryPart = (typeof MEMORY_PARTS)[number];

export interface MemoryPartsResult {
  version: OpencodeVersion;
  rounds: number;
  /** Per part: the RSS delta (MB) of each round, 10 s after the part was done, and their median. */
  rssMB: Record<MemoryPart, number[]>;
  medianRssMB: Record<MemoryPart, number>;
  /** Per part: the JSC heap's growth (MB) over the same 10 s, median of the rounds. */
  medianHeapMB: Record<MemoryPart, number>;
}

/** The probe, written outside any package: OpenCode 1.18 resolves a file plugin inside a package to that package's own entry. */
const PROBE = `import fs from "node:fs";
import { heapStats } from "bun:jsc";
export default async function MemoryProbe(input, options) {
  const part = process.env.PROBE_PART;
  let hooks = {};
  setTimeout(async () => {
    const rss = () => process.memoryUsage().rss / 1048576;
    const before = rss();
    const heapBefore = heapStats().heapSize;
    if (part === "import" || part === "run" || part === "busy") {
      const hermes = await import(process.env.PROBE_PLUGIN);
      if (part !== "import") hooks = await hermes.default(input, options);
      // A run starts, as OpenCode 1.x says it: what Hermes loads on demand (the bridge, pino) loads now.
      if (part === "busy") await hooks.event?.({ event: { type: "session.status", properties: { sessionID: "ses_probe", status: { type: "busy" } } } });
    } else if (part === "fetch") {
      let offset = 0;
      void (async () => {
        for (;;) {
          try {
            const res = await fetch(process.env.PROBE_POLL_URL, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ offset, timeout: 30 }) });
            for (const u of (await res.json()).result ?? []) offset = u.update_id + 1;
          } catch { await new Promise((r) => setTimeout(r, 1000)); }
        }
      })();
    }
    setTimeout(() => {
      const line = { part, rssMB: rss() - before, heapMB: (heapStats().heapSize - heapBefore) / 1048576 };
      fs.appendFileSync(process.env.PROBE_OUT, JSON.stringify(line) + "\\n");
    }, 10000);
  }, 8000);
  return { event: (e) => hooks.event?.(e), dispose: () => hooks.dispose?.() };
}
`;

export async function runMemoryParts(
  options: { version?: OpencodeVersion; rounds?: number; progress?: (line: string) => void } = {},
): Promise<MemoryPartsResult> {
  if (process.platform !== "linux") throw new Error("reads RSS as OpenCode's Bun reports it on Linux only");
  const version = options.version ?? "1.18.33";
  const rounds = options.rounds ?? 2;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-parts-"));
  const probe = path.join(dir, "memory-probe.mjs");
  fs.writeFileSync(probe, PROBE);
  const out = path.join(dir, "parts.jsonl");
  const llm = await startMockLlm();
  const telegram = await startFakeTelegram();
  try {
    for (let round = 0; round < rounds; round++) {
      for (const part of MEMORY_PARTS) {
        const server = await startOpencode({
          version,
          llmBaseURL: llm.baseURL,
          plugins: [probe],
          env: {
            PROBE_PART: part,
            PROBE_PLUGIN: PLUGIN_PATH,
            PROBE_OUT: out,
            PROBE_POLL_URL: `${telegram.apiRoot}/bot${telegram.token}/getUpdates`,
            HERMES_TELEGRAM_TOKEN: telegram.token,
            HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
            HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
            HERMES_LOG_FILE: path.join(dir, `hermes-${round}-${part}.log`),
          },
        });
        try {
          const lines = () => (fs.existsSync(out) ? fs.readFileSync(out, "utf8").trim().split("\n").filter(Boolean).length : 0);
          const want = round * MEMORY_PARTS.length + MEMORY_PARTS.indexOf(part) + 1;
          const deadline = Date.now() + 40_000;
          while (lines() < want && Date.now() < deadline) await sleep(250);
          if (lines() < want) throw new Error(`the probe reported nothing for "${part}" (round ${round + 1})`);
          options.progress?.(`round ${round + 1}/${rounds}: ${part} measured`);
        } finally {
          await server.stop();
        }
      }
    }
    const measured = fs
      .readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { part: MemoryPart; rssMB: number; heapMB: number });
    const of = (part: MemoryPart, key: "rssMB" | "heapMB") => measured.filter((m) => m.part === part).map((m) => round(m[key], 2));
    const table = <T>(f: (part: MemoryPart) => T) => Object.fromEntries(MEMORY_PARTS.map((part) => [part, f(part)])) as Record<MemoryPart, T>;
    return {
      version,
      rounds,
      rssMB: table((part) => of(part, "rssMB")),
      medianRssMB: table((part) => round(median(of(part, "rssMB")), 1)),
      medianHeapMB: table((part) => round(median(of(part, "heapMB")), 1)),
    };
  } finally {
    await telegram.close();
    await llm.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
