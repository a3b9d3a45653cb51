// Five 30 MB telegram_send_file calls at once, in the real OpenCode 1.18.33 (issue 50): the scripted
// LLM asks for five files in one answer, OpenCode runs the five tool calls together, Hermes sends
// them to the fake Telegram. Before each run the process' peak RSS is reset (Linux: `5` into
// /proc/<pid>/clear_refs resets VmHWM), and after the five results its peak is read against its RSS
// before: the peak the five sends added. Several runs in one OpenCode, as a person's day would
// have them; the target is the worst run. Every file must reach Telegram whole, byte for byte.
//
//   npm run bench -- --only parallel-sends [--runs 5]
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chatSetup } from "../tests/support/chat-kind.ts";
import { startFakeTelegram } from "../tests/support/fake-telegram.ts";
import { directive, startMockLlm } from "../tests/support/mock-llm.ts";
import { startOpencode, type OpencodeServer } from "../tests/support/opencode.ts";
import { round, until } from "./stats.ts";
import { PLUGIN_PATH as HERMES } from "./startup.ts";

/** BENCH_PLUGIN_PATH: another copy of Hermes (an older commit's, to compare). */
const PLUGIN_PATH = process.env.BENCH_PLUGIN_PATH ?? HERMES;

const VERSION = "1.18.33";
const FILE_BYTES = 30 * 1024 * 1024;
const SENDS = 5;
const TOOL = "telegram_send_file";
/** The issue's bound: the worst run's peak over its RSS before. */
export const PARALLEL_SENDS_LIMIT_MB = 150;

export interface ParallelSendsResult {
  version: string;
  runs: number;
  fileMB: number;
  /** Per run: RSS before the five sends and the peak during them (MB). */
  baseMB: number[];
  peakMB: number[];
  /** peak − base per run (MB), and the worst of them. */
  addedMB: number[];
  worstAddedMB: number;
  /** The control before each run: the same five calls on files that are not there (nothing read or sent), peak − base (MB). */
  controlMB: number[];
  /** Seconds from the prompt to the fifth result, per run. */
  seconds: number[];
  /** Every file of every run reached Telegram whole, byte for byte. */
  intact: boolean;
}

export async function runParallelSends(options: { runs?: number } = {}): Promise<ParallelSendsResult> {
  const runs = options.runs ?? 5;
  const telegram = await startFakeTelegram();
  const llm = await startMockLlm();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-bench-sends-"));
  let opencode: OpencodeServer | undefined;
  try {
    opencode = await startOpencode({
      version: VERSION,
      llmBaseURL: llm.baseURL,
      plugins: [PLUGIN_PATH],
      env: {
        HERMES_TELEGRAM_TOKEN: telegram.token,
        HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
        ...chatSetup("private").env,
        HERMES_LOG_FILE: path.join(logDir, "hermes.log"),
        HERMES_DONE_AFTER: "1h",
      },
    });
    const server = opencode;
    const big = Buffer.alloc(FILE_BYTES, 7);
    big.write("%PDF-1.7 not really");
    for (let at = 4096; at < FILE_BYTES; at += 1024 * 1024 + 13) big.writeUInt32LE(at, at);
    const digest = createHash("sha256").update(big).digest("hex");
    const original = path.join(server.directory, "big.bin");
    fs.writeFileSync(original, big);
    const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${server.pid}/status`, "utf8"))![1]) / 1024;
    // What Telegram received, checked as it arrives and then let go (25 files of 30 MB would fill the bench's own memory).
    let intact = true;
    let received = 0;
    const documents = () => telegram.messages().filter((m) => m.document?.data !== undefined);
    const checkArrived = () => {
      for (const message of documents()) {
        const document = message.document!;
        if (createHash("sha256").update(document.data!).digest("hex") !== digest) intact = false;
        delete document.data;
        delete document.content;
        received++;
      }
      return received;
    };
    const send = async (names: string[], sent = true) => {
      const session = await server.createSession();
      const seen = llm.toolResults.length;
      await server.prompt(session.id, directive({ tools: names.map((name) => ({ tool: TOOL, args: { path: name } })), then: [{ text: "done" }] }));
      await until(() => (llm.toolResults.length >= seen + names.length ? true : undefined), 180_000, `the results of ${names.length} sends`, 100);
      const results = llm.toolResults.slice(seen, seen + names.length);
      const wrong = results.find((result) => result.content.includes("Sent ") !== sent);
      if (wrong) throw new Error(`${sent ? "not sent" : "sent"}: ${wrong.content.slice(0, 300)}`);
    };
    // Five names a run (hard links: one file on disk): five identical calls would be OpenCode's doom loop. All made before the
    // first send, so that no run's step finds new files in the project (OpenCode's snapshot takes them in after a step: its
    // cost, not the sends'; the control below shows what such a step costs without a send).
    const namesOf = (run: number) => Array.from({ length: SENDS }, (_, n) => `big-${run}-${n + 1}.bin`);
    for (let run = 1; run <= runs; run++) for (const name of namesOf(run)) fs.linkSync(original, path.join(server.directory, name));
    // The first send loads what the tool needs (the bridge, its upload path): not counted.
    await send(["big.bin"]);
    const baseMB: number[] = [];
    const peakMB: number[] = [];
    const seconds: number[] = [];
    const controlMB: number[] = [];
    const peakOf = async (names: string[], sent: boolean) => {
      fs.writeFileSync(`/proc/${server.pid}/clear_refs`, "5");
      const base = status("VmRSS");
      const started = performance.now();
      await send(names, sent);
      return { base, peak: status("VmHWM"), s: (performance.now() - started) / 1000 };
    };
    for (let run = 1; run <= runs; run++) {
      checkArrived();
      // The control: the same five calls, on files that are not there (refused before a byte is read): OpenCode's own peak for such a step.
      const control = await peakOf(
        namesOf(run).map((name) => `not-there-${name}`),
        false,
      );
      controlMB.push(round(control.peak - control.base, 1));
      const measured = await peakOf(namesOf(run), true);
      seconds.push(round(measured.s, 1));
      peakMB.push(round(measured.peak, 1));
      baseMB.push(round(measured.base, 1));
      await until(() => (checkArrived() >= 1 + run * SENDS ? true : undefined), 30_000, "the files at Telegram", 100);
    }
    const addedMB = peakMB.map((peak, index) => round(peak - baseMB[index]!, 1));
    return {
      version: VERSION,
      runs,
      fileMB: FILE_BYTES / (1024 * 1024),
      baseMB,
      peakMB,
      addedMB,
      worstAddedMB: Math.max(...addedMB),
      controlMB,
      seconds,
      intact,
    };
  } finally {
    await opencode?.stop();
    await llm.close();
    await telegram.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
}

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

export function printParallelSends(
  outcome: { value?: ParallelSendsResult; error?: string },
  targets: Target[],
  log: (line?: string) => void,
  formNote: string,
): void {
  const r = outcome.value;
  if (!r) {
    log(`  five parallel 30 MB sends failed: ${outcome.error?.split("\n")[0]}`);
    log();
    return;
  }
  log(`Five ${r.fileMB} MB telegram_send_file calls at once in OpenCode ${r.version}, ${r.runs} runs in one process (${formNote})`);
  log(`  peak RSS added per run: ${r.addedMB.map((mb) => `+${mb}`).join(", ")} MB (RSS before: ${r.baseMB.join(", ")} MB)`);
  log(`  the control (the same five calls on files that are not there): ${r.controlMB.map((mb) => `+${mb}`).join(", ")} MB`);
  log(`  prompt → fifth result: ${r.seconds.join(", ")} s; every file whole at Telegram: ${r.intact}`);
  log();
  targets.push({
    name: "five parallel 30 MB sends: OpenCode's peak RSS added, worst run",
    target: `≤ ${PARALLEL_SENDS_LIMIT_MB} MB`,
    value: `+${r.worstAddedMB} MB (worst of ${r.runs})`,
    pass: r.worstAddedMB <= PARALLEL_SENDS_LIMIT_MB && r.intact,
  });
}
