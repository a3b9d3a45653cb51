// `npm run bench`: Hermes' benchmark. Prints a table and writes bench/results/latest.json.
// Not part of `npm test`. Targets are reported PASS/FAIL; the exit code is 0 regardless.
// Every row runs in a short form by default and says so; the long forms (bench/forms.ts):
//
//   npm run bench                       every row, short form (~3 min)
//   npm run bench -- --full             every row, long form (~10 min)
//   npm run bench -- --no-opencode      skip the rows that start the real `opencode serve`
//   npm run bench -- --scale 25         time compression of the full flood run
//   npm run bench -- --window 30        seconds to watch the real-limit flood run
//   npm run bench -- --rounds 20        interactive rounds per chat (group and private)
//   npm run bench -- --only chats       only the chat scenarios (interactive, bursts, over budget, failover, outage, live progress)
//   npm run bench -- --only progress    only live progress beside prompts
//   npm run bench -- --only taps [--short]
//                                       only a person's taps in a busy group (real OpenCode 1.18.33; ~3 min, --short 12 s of actions)
//   npm run bench -- --only agent-file  only prompts while the agent's 20 MB file uploads (~20 s)
//   npm run bench -- --only awaited [--short] [--rounds 8]
//                                       only a busy group's awaited traffic: room again → the agent's file, a Done notice, a first sight (~50 s, --short 12 s)
//   npm run bench -- --only parallel-sends [--runs 5]
//                                       only five 30 MB telegram_send_file calls at once in OpenCode 1.18.33, OpenCode's peak RSS per run (~1.5 min)
//   npm run bench -- --only week [--runs 1000]
//                                       only a week inside OpenCode: 1,000 runs and 10,000 prompts through one bridge (~1 min)
//   npm run bench -- --only opencode-memory [--pairs 8] [--settle 10] [--floor]
//                                       only the memory Hermes adds to a real `opencode serve`, against a bare long poll (~4 min)
//   npm run bench -- --only start-cost [--pairs 8]
//                                       only Hermes' start cost in `opencode serve` 1.18.33 and 2.0.15 (~1.5 min)
//   npm run bench -- --only memory-parts [--rounds 2]
//                                       where that memory goes, inside one process (~1.5 min a round)
// `--only` runs its row in the long form (`--short` for the short one); rows can be joined: `--only week,start-cost`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runFailover, type FailoverResult } from "./failover.ts";
import { runBursts, runInteractive, type BurstResult, type ChatKindName, type InteractiveResult } from "./interactive.ts";
import { runLatency, type LatencyResult } from "./latency.ts";
import { runOutage, type OutageResult } from "./outage.ts";
import { runOverBudget, type OverBudgetResult } from "./over-budget.ts";
import { runMarkdown, type MarkdownResult } from "./markdown.ts";
import { printApprovals, runApprovals, type ApprovalsResult } from "./approvals.ts";
import { runProgressBench, type ProgressBenchResult } from "./progress.ts";
import { printAgentFile } from "./agent-file-report.ts";
import { printStream, runStreamBench, type StreamBenchResult } from "./answer-stream.ts";
import { printTapAnswer } from "./tap-answer-report.ts";
import { runTapAnswer, type TapAnswerResult } from "./tap-answer.ts";
import { runAgentFile, type AgentFileResult } from "./agent-file.ts";
import { printAwaited } from "./awaited-report.ts";
import { runAwaited, type AwaitedResult } from "./awaited.ts";
import { printParallelSends, runParallelSends, type ParallelSendsResult } from "./parallel-sends.ts";
import { runWeek, type WeekResult } from "./week.ts";
import { runMemory, type MemoryResult } from "./memory.ts";
import { runOpencodeMemory, type OpencodeMemoryResult } from "./opencode-memory.ts";
import { MEMORY_PARTS, runMemoryParts, type MemoryPartsResult } from "./opencode-memory-parts.ts";
import { benchSettings, form, type ONLY_ROWS } from "./forms.ts";
import { printStartCost } from "./start-cost-report.ts";
import { runStartCost, type StartCostResult } from "./start-cost.ts";
import { ms, round } from "./stats.ts";
import { runStartup, type StartupResult } from "./startup.ts";
import { floodRun, type FloodRunResult } from "./throughput.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  const value = at === -1 ? Number.NaN : Number(args[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const settings = benchSettings(args);
const onlyRow = (row: (typeof ONLY_ROWS)[number]) => settings.only.includes(row);
const only = {
  chats: onlyRow("chats"),
  progress: onlyRow("progress"),
  taps: onlyRow("taps"),
  agentFile: onlyRow("agent-file"),
  awaited: onlyRow("awaited"),
  parallelSends: onlyRow("parallel-sends"),
  week: onlyRow("week"),
  opencodeMemory: onlyRow("opencode-memory"),
  memoryParts: onlyRow("memory-parts"),
  startCost: onlyRow("start-cost"),
};
const CHATS: ChatKindName[] = ["group", "private"];

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
  /** Informative rows that show another way of measuring the same target. */
  info?: boolean;
}

const log = (line = "") => process.stdout.write(`${line}\n`);
const progress = (line: string) => process.stderr.write(`· ${line}\n`);
const verdict = (pass: boolean) => (pass ? "PASS" : "FAIL");
const pad = (text: string, width: number) => (text.length >= width ? text : text + " ".repeat(width - text.length));
const padLeft = (text: string, width: number) => (text.length >= width ? text : " ".repeat(width - text.length) + text);
const minutes = (msValue: number) => (msValue >= 120_000 ? `${(msValue / 60_000).toFixed(1)} min` : ms(msValue));

async function section<T>(name: string, work: () => Promise<T>): Promise<{ value?: T; error?: string; ms: number }> {
  progress(`${name}…`);
  const started = performance.now();
  try {
    const value = await work();
    const took = performance.now() - started;
    progress(`${name} done in ${(took / 1000).toFixed(1)} s`);
    return { value, ms: Math.round(took) };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    progress(`${name} FAILED: ${message}`);
    return { error: message, ms: Math.round(performance.now() - started) };
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    memoryGB: round(os.totalmem() / 1024 ** 3, 1),
    gc: typeof (globalThis as { gc?: unknown }).gc === "function",
  };
}

async function main(): Promise<void> {
  const date = new Date();
  const host = machine();
  const benchStarted = performance.now();
  progress(
    `Hermes benchmark on ${host.cpu} (${host.cores} cores), Node ${host.node}${host.gc ? "" : " — no --expose-gc: memory numbers are without a forced GC"}`,
  );

  const skipped = <T>(): Promise<{ value?: T; error?: string; ms: number }> => Promise.resolve({ error: "skipped (--only)", ms: 0 });
  const everything = settings.only.length === 0;
  const others = everything;
  const chatsToo = everything || only.chats;
  const progressToo = everything || only.chats || only.progress;
  const startup = others
    ? await section("start-up (plugin factory, cold import, opencode serve)", () =>
        runStartup({ runs: settings.startRuns, opencode: settings.opencode && settings.opencodeRuns > 0, opencodeRuns: settings.opencodeRuns }),
      )
    : await skipped<StartupResult>();
  const latency = others
    ? await section(`latency (${settings.latencySamples} samples + ${settings.latencyWarmup} warm-up)`, () =>
        runLatency({ samples: settings.latencySamples, warmup: settings.latencyWarmup }),
      )
    : await skipped<LatencyResult>();
  const markdown = others
    ? await section("Markdown (marked's load, a Done notice with a 12,000-character answer, a Markdown question)", () =>
        runMarkdown({ samples: settings.markdownSamples, loads: settings.markdownLoads }),
      )
    : await skipped<MarkdownResult>();
  const approvals = others ? await section("risk flags (issue 42)", () => runApprovals({ loads: settings.markdownLoads })) : await skipped<ApprovalsResult>();
  const memory = others
    ? await section(`memory (${settings.memoryQuestions} questions)`, () => runMemory({ questions: settings.memoryQuestions }))
    : await skipped<MemoryResult>();
  const week =
    others || only.week
      ? await section(`a week inside OpenCode (${settings.weekRuns} runs, ${settings.weekRuns * 10} prompts, one bridge)`, () =>
          runWeek({ runs: settings.weekRuns }),
        )
      : await skipped<WeekResult>();
  const opencodeMemory =
    (others && settings.opencode) || only.opencodeMemory
      ? await section(`memory added to opencode serve (${settings.memoryPairs} pairs, RSS ${settings.memorySettleS} s after start)`, () =>
          runOpencodeMemory({ pairs: settings.memoryPairs, settleMs: settings.memorySettleS * 1000, floor: settings.memoryNoop, progress }),
        )
      : await skipped<OpencodeMemoryResult>();
  const startCost =
    (others && settings.opencode) || only.startCost
      ? await section(`Hermes' start cost in opencode serve (${settings.startCostPairs} pairs a version)`, () =>
          runStartCost({ pairs: settings.startCostPairs, progress }),
        )
      : await skipped<StartCostResult>();
  const memoryParts = only.memoryParts
    ? await section("where the memory Hermes adds to opencode serve goes, inside one process", () => runMemoryParts({ rounds: option("rounds", 2), progress }))
    : await skipped<MemoryPartsResult>();
  const scaled = others
    ? await section(`flood, time-compressed ×${settings.floodScale} (${settings.floodQuestions} questions, ${settings.floodSessions} sessions)`, () =>
        floodRun({
          label: `time-compressed ×${settings.floodScale}`,
          scale: settings.floodScale,
          questions: settings.floodQuestions,
          sessions: settings.floodSessions,
          budgetMs: 180_000,
        }),
      )
    : await skipped<FloodRunResult>();
  const real = others
    ? await section(`flood, real limits (${settings.realWindowS} s window)`, () =>
        floodRun({
          label: `real limits, ${settings.realWindowS} s window`,
          scale: 1,
          questions: settings.floodQuestions,
          sessions: settings.floodSessions,
          budgetMs: settings.realWindowS * 1000,
        }),
      )
    : await skipped<FloodRunResult>();
  const chats: ChatRuns = { interactive: {}, bursts: {}, failover: {} };
  for (const chat of chatsToo ? CHATS : []) {
    chats.interactive[chat] = await section(`interactive rounds in a ${chat} chat (${settings.rounds} rounds, real limits)`, () =>
      runInteractive(chat, settings.rounds),
    );
    chats.bursts[chat] = await section(`three permissions at once in a ${chat} chat (${settings.bursts} bursts)`, () => runBursts(chat, settings.bursts));
    // Spaced so that two processes together stay within the chat's budget (private: 1/s, burst 3).
    chats.failover[chat] = await section(`failover in a ${chat} chat (${settings.failoverRuns} × kill -9 of the polling process)`, () =>
      runFailover(chat, settings.failoverRuns, { warmGapMs: chat === "private" ? 4_000 : 0 }),
    );
  }
  if (chatsToo)
    chats.failoverOverBudget = await section("failover in a private chat after back-to-back prompts from both processes", () =>
      runFailover("private", settings.failoverRuns, { warmGapMs: 0 }),
    );
  const overBudget = chatsToo
    ? await section(`over budget: 40 prompts in 10 s to one group (×${settings.overBudgetScale})`, () => runOverBudget({ scale: settings.overBudgetScale }))
    : await skipped<OverBudgetResult>();
  const liveProgress = progressToo
    ? await section(`live progress: a 30-step run beside prompts in a group, on and off alternating (${settings.progressRounds} rounds, ×10)`, () =>
        runProgressBench({ rounds: settings.progressRounds }),
      )
    : await skipped<ProgressBenchResult>();
  const answerStream = progressToo
    ? await section("the answer as it is written beside prompts in a group, on and off alternating (×10)", () =>
        runStreamBench({ rounds: settings.streamRounds }),
      )
    : await skipped<StreamBenchResult>();
  const agentFile =
    others || only.agentFile
      ? await section("the agent's 20 MB file uploading while prompts flow", () => runAgentFile({ prompts: settings.agentFilePrompts }))
      : await skipped<AgentFileResult>();
  const awaited =
    others || only.awaited
      ? await section(`a busy group's awaited traffic (${settings.awaitedRounds} rounds busy and idle, ×10)`, () =>
          runAwaited({ rounds: settings.awaitedRounds }),
        )
      : await skipped<AwaitedResult>();
  const parallelSends =
    (others && settings.opencode) || only.parallelSends
      ? await section(`five parallel 30 MB telegram_send_file calls in OpenCode 1.18.33 (${settings.parallelSendsRuns} runs)`, () =>
          runParallelSends({ runs: settings.parallelSendsRuns }),
        )
      : await skipped<ParallelSendsResult>();
  const outage = chatsToo
    ? await section(`back after a ${settings.outageS} s outage (${settings.outageRuns} runs)`, () => runOutage(settings.outageRuns, settings.outageS * 1000))
    : await skipped<OutageResult>();
  const taps =
    (chatsToo && settings.opencode) || only.taps
      ? await section(`a person's taps in a busy supergroup (real OpenCode, three runs, ${settings.tapsActingS} s)`, () =>
          runTapAnswer({ actingS: settings.tapsActingS }),
        )
      : await skipped<TapAnswerResult>();

  const targets: Target[] = [];
  log();
  log(`Hermes benchmark · ${date.toISOString()} · ${host.cpu} (${host.cores} cores, ${host.memoryGB} GB) · Node ${host.node} · ${host.platform}`);
  log();
  if (chatsToo) {
    printChats(chats, overBudget, targets);
    printOutage(outage, targets);
  }
  if (progressToo) printProgress(liveProgress, targets);
  if (progressToo) printStream(answerStream, targets, log, form(settings, `${settings.streamRounds} rounds`, "streamRounds"));
  if ((chatsToo && settings.opencode) || only.taps) printTapAnswer(taps, targets, log, form(settings, `${settings.tapsActingS} s of actions`, "tapsActingS"));
  if (others || only.agentFile) printAgentFile(agentFile, targets, log, form(settings, `${settings.agentFilePrompts} prompts`, "agentFilePrompts"));
  if (others || only.awaited) printAwaited(awaited, targets, log, form(settings, `${settings.awaitedRounds} rounds`, "awaitedRounds"));
  if ((others && settings.opencode) || only.parallelSends)
    printParallelSends(parallelSends, targets, log, form(settings, `${settings.parallelSendsRuns} runs`, "parallelSendsRuns"));
  if (others) {
    printLatency(latency, targets);
    printThroughput(scaled, real, targets);
    printMemory(memory, targets);
    printMarkdown(markdown, targets);
    printApprovals(approvals, targets, log);
    printStartup(startup, targets);
  }
  if (others || only.week) printWeek(week, targets);
  if (only.memoryParts) printMemoryParts(memoryParts);
  if (others || only.opencodeMemory) printOpencodeMemory(opencodeMemory, targets);
  if (others || only.startCost) printStartCost(startCost, targets, log, form(settings, `${settings.startCostPairs} pairs a version`, "startCostPairs"));

  log("Targets");
  log(`  ${pad("", 46)} ${pad("target", 22)} ${pad("measured", 34)} verdict`);
  for (const t of targets)
    log(`  ${pad(t.name, 46)} ${pad(t.target, 22)} ${pad(t.value, 34)} ${t.info ? `(${verdict(t.pass)}, another measure)` : verdict(t.pass)}`);
  log();

  const results = {
    date: date.toISOString(),
    machine: host,
    settings,
    durationS: round((performance.now() - benchStarted) / 1000, 1),
    chats: {
      interactive: Object.fromEntries(CHATS.map((chat) => [chat, chats.interactive[chat]?.value ?? { error: chats.interactive[chat]?.error }])),
      bursts: Object.fromEntries(CHATS.map((chat) => [chat, chats.bursts[chat]?.value ?? { error: chats.bursts[chat]?.error }])),
      failover: Object.fromEntries(CHATS.map((chat) => [chat, chats.failover[chat]?.value ?? { error: chats.failover[chat]?.error }])),
      failoverPrivateBackToBack: chats.failoverOverBudget?.value ?? { error: chats.failoverOverBudget?.error },
      overBudget: overBudget.value ?? { error: overBudget.error },
      outage: outage.value ?? { error: outage.error },
      liveProgress: liveProgress.value ?? { error: liveProgress.error },
      agentFile: agentFile.value ?? { error: agentFile.error },
      awaited: awaited.value ?? { error: awaited.error },
      parallelSends: parallelSends.value ?? { error: parallelSends.error },
      answerStream: answerStream.value ?? { error: answerStream.error },
      tapAnswer: taps.value ?? { error: taps.error },
    },
    latency: latency.value ?? { error: latency.error },
    throughput: { timeCompressed: scaled.value ?? { error: scaled.error }, realLimits: real.value ?? { error: real.error } },
    memory: memory.value ?? { error: memory.error },
    week: week.value ?? { error: week.error },
    opencodeMemory: opencodeMemory.value ?? { error: opencodeMemory.error },
    memoryParts: memoryParts.value ?? { error: memoryParts.error },
    markdown: markdown.value ?? { error: markdown.error },
    approvals: approvals.value ?? { error: approvals.error },
    startup: startup.value ?? { error: startup.error },
    startCost: startCost.value ?? { error: startCost.error },
    targets,
  };
  const dir = path.join(HERE, "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "latest.json");
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`Wrote ${path.relative(process.cwd(), file)} (${results.durationS} s in all)`);
}

type Outcome<T> = { value?: T; error?: string; ms: number };

function printWeek(outcome: Outcome<WeekResult>, targets: Target[]): void {
  const w = outcome.value;
  if (!w) {
    log(`  a week inside OpenCode failed: ${outcome.error?.split("\n")[0]}`);
    log();
    return;
  }
  log(
    `A week inside OpenCode (${w.runs} runs, ${w.prompts} prompts through one bridge, after ${w.warmupRuns} warm-up runs${w.gc ? ", after a full GC" : ", no GC"}; ${form(settings, `${w.runs} runs`, "weekRuns")})`,
  );
  log(`  heap ${w.heapWarmMB} → ${w.heapEndMB} MB (${signed(w.heapGrowthMB)} MB; second half ${signed(w.heapSecondHalfMB)} MB); ${ms(w.durationMs)}`);
  log(`  RSS ${w.rssWarmMB} → ${w.rssEndMB} MB (${signed(w.rssGrowthMB)} MB; second half ${signed(w.rssSecondHalfMB)} MB)`);
  log(`  left at the end: ${w.promptsLeft} prompts; timers still set after stop: ${w.timersAfterStop}`);
  log();
  targets.push({ name: "a week: heap after GC, end vs warm-up", target: "≤ +3 MB", value: `${signed(w.heapGrowthMB)} MB`, pass: w.heapGrowthMB <= 3 });
  targets.push({
    name: "a week: heap, second half of the runs",
    target: "≤ +0.5 MB",
    value: `${signed(w.heapSecondHalfMB)} MB`,
    pass: w.heapSecondHalfMB <= 0.5,
  });
  targets.push({ name: "a week: RSS, end vs warm-up", target: "≤ +10 MB", value: `${signed(w.rssGrowthMB)} MB`, pass: w.rssGrowthMB <= 10 });
  targets.push({
    name: "a week: prompts and timers left",
    target: "0, 0",
    value: `${w.promptsLeft}, ${w.timersAfterStop}`,
    pass: w.promptsLeft === 0 && w.timersAfterStop === 0,
  });
}

function printProgress(outcome: Outcome<ProgressBenchResult>, targets: Target[]): void {
  const p = outcome.value;
  if (!p) {
    log(`  live progress failed: ${outcome.error?.split("\n")[0]}`);
    log();
    return;
  }
  log(
    `Live progress beside prompts in a group (${p.rounds} rounds of ${p.steps} steps, on and off alternating, ×${p.scale}; ${form(settings, `${p.rounds} rounds`, "progressRounds")})`,
  );
  log(
    `  prompts ask → send: progress on p50 ${ms(p.on.p50)} / p99 ${ms(p.on.p99)} (n ${p.on.n}); off p50 ${ms(p.off.p50)} / p99 ${ms(p.off.p99)} (n ${p.off.n})`,
  );
  log(
    `  progress calls: ${p.progressEditsPerMinute} a minute (per run: ${p.progressCallsPerRound.join(", ")}); 429s ${p.http429}; runs ending without Stop ${p.finishedClean}/${p.progressCallsPerRound.length}, the last line ${ms(p.lastLine.p50)} after the run (max ${ms(p.lastLine.max)})`,
  );
  log();
  targets.push({
    name: "progress on: prompts' ask → send p99 vs off",
    target: "≤ 1.2×",
    value: `${p.p99Ratio}× (${ms(p.on.p99)} / ${ms(p.off.p99)})`,
    pass: p.p99Ratio <= 1.2,
  });
  targets.push({
    name: "progress in a group: calls a minute per run",
    target: "≤ 6",
    value: String(p.progressEditsPerMinute),
    pass: p.progressEditsPerMinute <= 6,
  });
  targets.push({
    name: "progress beside prompts: 429s",
    target: "0",
    value: String(p.http429 + p.retryAfterViolations),
    pass: p.http429 + p.retryAfterViolations === 0,
  });
}
interface ChatRuns {
  interactive: Partial<Record<ChatKindName, Outcome<InteractiveResult>>>;
  bursts: Partial<Record<ChatKindName, Outcome<BurstResult>>>;
  failover: Partial<Record<ChatKindName, Outcome<FailoverResult>>>;
  /** Both processes asking back to back before the kill: more than one private chat allows. */
  failoverOverBudget?: Outcome<FailoverResult>;
}

function printChats(chats: ChatRuns, overBudget: Outcome<OverBudgetResult>, targets: Target[]): void {
  log(
    `Chats at Telegram's real limits (the fake Telegram enforces them; Hermes paces with its defaults): group and private side by side (${form(settings, `${settings.rounds} rounds, ${settings.bursts} bursts, ${settings.failoverRuns} failovers a chat`, "rounds")})`,
  );
  const cell = (text: string) => padLeft(text, 22);
  log(`  ${pad("", 58)} ${cell("group")} ${cell("private")}`);
  const row = (name: string, value: (chat: ChatKindName) => string) => log(`  ${pad(name, 58)} ${CHATS.map((chat) => cell(value(chat))).join(" ")}`);
  const interactive = (chat: ChatKindName) => chats.interactive[chat]?.value;
  const bursts = (chat: ChatKindName) => chats.bursts[chat]?.value;
  const failover = (chat: ChatKindName) => chats.failover[chat]?.value;
  const pair = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? "failed" : `${ms(a)} / ${ms(b)}`);
  row("rounds: question.asked → sendMessage, p50 / p99", (chat) => pair(interactive(chat)?.ask.p50, interactive(chat)?.ask.p99));
  row("rounds: floor (bare sendMessage), p50 / p99", (chat) => pair(interactive(chat)?.floor.p50, interactive(chat)?.floor.p99));
  row("rounds: ask p90 / floor p90", (chat) => pair(interactive(chat)?.ask.p90, interactive(chat)?.floor.p90));
  row("rounds: max / the first prompt", (chat) => pair(interactive(chat)?.ask.max, interactive(chat)?.first));
  row("rounds: 429s / answered prompts already edited", (chat) =>
    interactive(chat) ? `${interactive(chat)!.http429} / ${interactive(chat)!.settledOnPhone} of ${interactive(chat)!.rounds}` : "failed",
  );
  row("3 permissions at once → all sent, p50 / max", (chat) => pair(bursts(chat)?.allSent.p50, bursts(chat)?.allSent.max));
  row("kill -9 of the poller → polling resumed, p50 / max", (chat) => pair(failover(chat)?.pollingResumed.p50, failover(chat)?.pollingResumed.max));
  row("kill -9 → survivor's next prompt at Telegram, p50 / max", (chat) => pair(failover(chat)?.nextPrompt.p50, failover(chat)?.nextPrompt.max));
  row("kill -9 → its tap answered at OpenCode, p50 / max", (chat) => pair(failover(chat)?.tapAnswered.p50, failover(chat)?.tapAnswered.max));
  row("failover runs: 429s (two processes, one chat budget)", (chat) => (failover(chat) ? String(failover(chat)!.http429) : "failed"));
  const burst = chats.failoverOverBudget?.value;
  if (burst)
    log(
      `  failover after both processes asked back to back (over a private chat's budget, each process paces only itself): next prompt p50 ${ms(burst.nextPrompt.p50)}, max ${ms(burst.nextPrompt.max)}; ${burst.http429} × 429`,
    );
  else log(`  failover after back-to-back prompts failed: ${chats.failoverOverBudget?.error?.split("\n")[0]}`);
  for (const chat of CHATS) {
    const run = chats.interactive[chat];
    if (!run?.value) log(`  ${chat} rounds failed: ${run?.error?.split("\n")[0]}`);
    for (const [what, outcome] of [
      ["bursts", chats.bursts[chat]],
      ["failover", chats.failover[chat]],
    ] as const)
      if (!outcome?.value) log(`  ${chat} ${what} failed: ${outcome?.error?.split("\n")[0]}`);
    const r = run?.value;
    if (r) {
      targets.push({
        name: `${chat} rounds: ask → send p99 vs floor p99`,
        target: "≤ 2× floor",
        value: `${ms(r.ask.p99)} vs ${ms(r.floor.p99)} (${(r.ask.p99 / r.floor.p99).toFixed(2)}×)`,
        pass: r.ask.p99 <= 2 * r.floor.p99,
      });
      targets.push({
        name: `${chat} rounds: ask → send p90 vs floor p90`,
        target: "≤ 2× floor",
        value: `${ms(r.ask.p90)} vs ${ms(r.floor.p90)} (${(r.ask.p90 / r.floor.p90).toFixed(2)}×)`,
        pass: r.ask.p90 <= 2 * r.floor.p90,
      });
      targets.push({ name: `${chat} rounds: ask → send p99`, target: "≤ 50 ms", value: ms(r.ask.p99), pass: r.ask.p99 <= 50 });
    }
    const b = bursts(chat);
    if (b)
      targets.push({ name: `${chat}: 3 permissions at once, all sent`, target: "≤ 100 ms", value: `max ${ms(b.allSent.max)}`, pass: b.allSent.max <= 100 });
    const f = failover(chat);
    if (f)
      targets.push({
        name: `${chat}: kill -9 → survivor's next prompt`,
        target: "≤ 500 ms",
        value: `max ${ms(f.nextPrompt.max)}`,
        pass: f.nextPrompt.max <= 500,
      });
  }
  const o = overBudget.value;
  if (!o) log(`  over budget failed: ${overBudget.error?.split("\n")[0]}`);
  else {
    log(
      `  over budget: ${o.prompts} prompts raised in ${o.raisedOverMs / 1000} s to one group, each answered when shown (time-compressed ×${o.scale}; figures in real-limit time):`,
    );
    log(
      `    delivered ${o.delivered}/${o.prompts}, lost ${o.lost}, duplicates ${o.duplicates}, 429s ${o.http429}, retry_after violations ${o.retryAfterViolations}, edits sent while a prompt waited ${o.editsAheadOfPrompts}`,
    );
    log(
      `    raised → sent: first 20 p50 ${ms(o.withinBudget.p50)} / p99 ${ms(o.withinBudget.p99)}; the other 20 wait for the window: p50 ${ms(o.overBudget.p50)}, max ${ms(o.overBudget.max)}; all ${o.settled} answered prompts edited after ${o.allSettledS} s`,
    );
    targets.push({
      name: "over budget: avoidable 429s, lost, duplicates",
      target: "0, 0, 0",
      value: `${o.http429}, ${o.lost}, ${o.duplicates}`,
      pass: o.http429 === 0 && o.lost === 0 && o.duplicates === 0,
    });
    targets.push({
      name: "over budget: edits sent while a prompt waited",
      target: "0",
      value: String(o.editsAheadOfPrompts),
      pass: o.editsAheadOfPrompts === 0,
    });
  }
  log();
}

function printOutage(outage: Outcome<OutageResult>, targets: Target[]): void {
  const o = outage.value;
  if (!o) return void log(`Back after an outage failed: ${outage.error?.split("\n")[0]}\n`);
  log(
    `Back after a ${o.outageMs / 1000} s outage (connections refused; two processes, each raising a question 1 s in; ${form(settings, `${o.runs} runs`)}${settings.form === "short" ? "; --full: 3 runs, 20 s down" : ""})`,
  );
  log(`  Telegram back → the polling process' question at Telegram: p50 ${ms(o.leader.p50)}, max ${ms(o.leader.max)}`);
  log(`  Telegram back → the other process' question at Telegram: p50 ${ms(o.follower.p50)}, max ${ms(o.follower.max)}`);
  log(`  sent twice: ${o.duplicates} (backoff alone: 12.5 s)`);
  log();
  const worst = Math.max(o.leader.max, o.follower.max);
  targets.push({
    name: `${o.outageMs / 1000} s outage: back → prompt at Telegram, once`,
    target: "≤ 2 s, 0 twice",
    value: `max ${ms(worst)}, ${o.duplicates} twice`,
    pass: worst <= 2_000 && o.duplicates === 0,
  });
}

function printLatency(latency: { value?: LatencyResult; error?: string }, targets: Target[]): void {
  log(
    `Latency: the bridge vs a bare fetch of the same request to the same server (floor) (${form(settings, `${settings.latencySamples} samples`, "latencySamples")})`,
  );
  const r = latency.value;
  if (!r) return void log(`  failed: ${latency.error?.split("\n")[0]}\n`);
  log(`  ${r.note}; n=${r.samples} after ${r.warmup} warm-up`);
  log(
    `  ${pad("", 44)} ${padLeft("p50", 9)} ${padLeft("p99", 9)} ${padLeft("floor p50", 10)} ${padLeft("floor p99", 10)} ${padLeft("p50/floor", 10)} ${padLeft("p99/floor", 10)} ${padLeft("p99−floor", 10)}`,
  );
  const rows: Array<[string, string, LatencyResult["ask"]]> = [
    ["question.asked → sendMessage at Telegram", "ask → sendMessage", r.ask],
    ["tap (callback update) → reply at OpenCode", "tap → reply at OpenCode", r.tap],
  ];
  for (const [name, short, m] of rows) {
    const ratio = m.bridge.p99 / m.floor.p99;
    const ratio50 = m.bridge.p50 / m.floor.p50;
    log(
      `  ${pad(name, 44)} ${padLeft(ms(m.bridge.p50), 9)} ${padLeft(ms(m.bridge.p99), 9)} ${padLeft(ms(m.floor.p50), 10)} ${padLeft(ms(m.floor.p99), 10)} ${padLeft(`${ratio50.toFixed(2)}×`, 10)} ${padLeft(`${ratio.toFixed(2)}×`, 10)} ${padLeft(ms(m.bridge.p99 - m.floor.p99), 10)}`,
    );
    targets.push({
      name: `${short}: p99 vs floor p99`,
      target: "≤ 2× floor",
      value: `${ms(m.bridge.p99)} vs ${ms(m.floor.p99)} (${ratio.toFixed(2)}×)`,
      pass: ratio <= 2,
    });
    targets.push({ name: `${short}: p99`, target: "≤ 5 ms", value: ms(m.bridge.p99), pass: m.bridge.p99 <= 5 });
  }
  const calls = Object.entries(r.callsPerPrompt)
    .map(([method, n]) => `${method} ${n}`)
    .join(", ");
  log(`  Telegram calls per prompt (asked, tapped, settled): ${calls}`);
  log();
}

function printThroughput(scaled: { value?: FloodRunResult; error?: string }, real: { value?: FloodRunResult; error?: string }, targets: Target[]): void {
  log(
    `Throughput and loss under flood limits (fake Telegram answers 429 + retry_after): all questions go to the one configured private chat (${form(settings, `${settings.floodQuestions} questions`, "floodQuestions")})`,
  );
  log(
    `  ${pad("run", 34)} ${padLeft("delivered", 10)} ${padLeft("lost", 5)} ${padLeft("dup", 4)} ${padLeft("wall", 9)} ${padLeft("rate", 9)} ${padLeft("limit", 7)} ${padLeft("429s", 5)} ${padLeft("violations", 11)} ${padLeft("no-op edits", 12)}`,
  );
  for (const run of [scaled, real]) {
    const r = run.value;
    if (!r) {
      log(`  failed: ${run.error?.split("\n")[0]}`);
      continue;
    }
    log(
      `  ${pad(r.label, 34)} ${padLeft(`${r.delivered}/${r.questions}`, 10)} ${padLeft(r.completed ? String(r.lost) : "–", 5)} ${padLeft(String(r.duplicates), 4)} ${padLeft(r.completed ? ms(r.wallMs) : `(${ms(r.budgetMs)})`, 9)} ${padLeft(`${r.rate.toFixed(2)}/s`, 9)} ${padLeft(`${r.limitRate}/s`, 7)} ${padLeft(String(r.http429), 5)} ${padLeft(String(r.retryAfterViolations), 11)} ${padLeft(String(r.noOpEdits), 12)}`,
    );
  }
  const s = scaled.value;
  const r = real.value;
  if (s) {
    log(
      `  time-compressed: the fake's limits and Hermes' pacing both ×${s.scale} (bursts unchanged, retry_after ÷${s.scale}); all ${s.questions} run to completion. At real limits that is ≈ ${minutes(s.projectedRealMs)}.`,
    );
    targets.push({
      name: `flood ×${s.scale}: ${s.questions} questions lost / twice`,
      target: "0 lost, 0 duplicates",
      value: s.completed ? `${s.lost} lost, ${s.duplicates} dup in ${ms(s.wallMs)}` : `${s.delivered}/${s.questions} in ${ms(s.budgetMs)}`,
      pass: s.completed && s.lost === 0 && s.duplicates === 0,
    });
    targets.push({
      name: `flood ×${s.scale}: retry_after respected`,
      target: "0 violations",
      value: `${s.retryAfterViolations} violations, ${s.http429} × 429`,
      pass: s.retryAfterViolations === 0,
    });
  }
  if (r) {
    log(
      `  real limits: watched for ${ms(r.budgetMs)} (a window, not to completion): ${r.rate.toFixed(2)} prompts/s against Telegram's 1/s per private chat; projected ${minutes(r.projectedRealMs)} for all ${r.questions}.`,
    );
    targets.push({
      name: "flood, real limits: retry_after respected",
      target: "0 violations",
      value: `${r.retryAfterViolations} violations, ${r.http429} × 429`,
      pass: r.retryAfterViolations === 0,
    });
  }
  log();
}

function printMarkdown(markdown: { value?: MarkdownResult; error?: string }, targets: Target[]): void {
  log(
    `Markdown: marked loaded in a fresh process (median), then renders parse included (the phone's Markdown, docs/phone.md Formatting) (${form(settings, `${settings.markdownSamples} samples`, "markdownSamples")})`,
  );
  const m = markdown.value;
  if (!m) {
    log(`  failed: ${markdown.error}`);
    log();
    return;
  }
  log(`  import("marked")                              ${padLeft(ms(m.loadMs), 9)} (median of ${m.loads})`);
  log(`  Done notice, ${m.answerChars}-character answer p50/p99 ${padLeft(ms(m.doneNotice.p50), 9)} ${padLeft(ms(m.doneNotice.p99), 9)}`);
  log(`  question with Markdown text, p50/p99          ${padLeft(ms(m.question.p50), 9)} ${padLeft(ms(m.question.p99), 9)}`);
  targets.push({ name: "Markdown: Done notice (12k answer) p50", target: "≤ 20 ms", value: ms(m.doneNotice.p50), pass: m.doneNotice.p50 <= 20 });
  targets.push({ name: "Markdown: question render p50", target: "≤ 2 ms", value: ms(m.question.p50), pass: m.question.p50 <= 2 });
  log();
}

function printMemory(memory: { value?: MemoryResult; error?: string }, targets: Target[]): void {
  log(
    `Memory: heap after a full GC, before and after questions raised and answered (in-memory Telegram and OpenCode) (${form(settings, `${settings.memoryQuestions} questions`, "memoryQuestions")})`,
  );
  const m = memory.value;
  if (!m) return void log(`  failed: ${memory.error?.split("\n")[0]}\n`);
  log(
    `  ${m.questions} questions in ${ms(m.durationMs)} (${m.sessions} sessions, ${m.batch} at a time, after ${m.warmup} warm-up): heap ${m.heapBeforeMB} → ${m.heapAfterMB} MB, growth ${m.growthMB >= 0 ? "+" : ""}${m.growthMB} MB; a second ${m.questions}: ${m.secondRunGrowthMB >= 0 ? "+" : ""}${m.secondRunGrowthMB} MB; peak ${m.peakHeapMB} MB; prompts left ${m.promptsLeft}${m.gc ? "" : " (no --expose-gc: not comparable)"}`,
  );
  targets.push({ name: `memory growth after ${m.questions} questions`, target: "≤ 5 MB", value: `${m.growthMB} MB`, pass: m.gc && m.growthMB <= 5 });
  log();
}

/** +1.2 or −0.1: a median below zero keeps its own sign. */
const signed = (mb: number): string => (mb < 0 ? `−${-mb}` : `+${mb}`);

/** Hermes may hold at most this much more than a plugin that only long-polls Telegram with fetch (median of the pairs). */
const OVER_POLL_TARGET_MB = 5;

function printOpencodeMemory(memory: { value?: OpencodeMemoryResult; error?: string }, targets: Target[]): void {
  const note = form(settings, `${settings.memoryPairs} pairs, RSS ${settings.memorySettleS} s after start`, "memoryPairs");
  log(
    `Memory Hermes adds to OpenCode: RSS of the real opencode serve and its children, with Hermes, with a bare fetch long poll, and without, in one rotation (${note})`,
  );
  const m = memory.value;
  if (!m) return void log(`  not measured: ${memory.error?.split("\n")[0]}\n`);
  log(
    `  opencode serve ${m.version}, ${m.settleS} s after its project instance started, ${m.pairs} pairs: Hermes over the bare poll ${m.overPollMB.join(", ")} MB (median ${signed(m.medianOverPollMB)} MB); with Hermes ${m.withHermesMB.join(", ")} MB, bare poll ${m.floor.barePollMB.join(", ")} MB${m.polled ? "" : " (Hermes or the bare poll did not poll in every run: not comparable)"}`,
  );
  log(
    `  against OpenCode alone (${m.withoutMB.join(", ")} MB): Hermes ${m.addedMB.join(", ")} MB (median ${signed(m.medianAddedMB)} MB); the bare poll ${m.floor.barePollAddedMB.join(", ")} MB (median ${signed(m.floor.medianBarePollAddedMB)} MB)${m.floor.medianNoopAddedMB === undefined ? "" : `; a no-op plugin ${m.floor.noopAddedMB.join(", ")} MB (median ${signed(m.floor.medianNoopAddedMB)} MB)`}`,
  );
  targets.push({
    name: `memory: Hermes − bare poll, opencode ${m.version}`,
    target: `≤ ${OVER_POLL_TARGET_MB} MB`,
    value: `${signed(m.medianOverPollMB)} MB (median of ${m.pairs} pairs)`,
    pass: m.polled && m.medianOverPollMB <= OVER_POLL_TARGET_MB,
  });
  targets.push({
    name: `memory added to opencode serve ${m.version}`,
    target: "≤ 12 MB",
    value: `${signed(m.medianAddedMB)} MB (median of ${m.pairs} pairs)`,
    pass: m.polled && m.medianAddedMB <= 12,
    info: true,
  });
  log();
}

const PART_NAMES: Record<(typeof MEMORY_PARTS)[number], string> = {
  nothing: "nothing (the probe alone)",
  fetch: "a bare fetch long poll",
  import: "import Hermes (plugin.ts), call nothing",
  run: "Hermes itself, polling the fake Telegram",
  busy: "the same, then a run starts (loads the rest)",
};

function printMemoryParts(parts: { value?: MemoryPartsResult; error?: string }): void {
  log("Where the memory goes: inside one real opencode serve, RSS and JSC heap 10 s after one thing was done");
  const p = parts.value;
  if (!p) return void log(`  not measured: ${parts.error?.split("\n")[0]}\n`);
  for (const part of MEMORY_PARTS)
    log(
      `  ${pad(PART_NAMES[part], 44)} RSS ${signed(p.medianRssMB[part])} MB (rounds: ${p.rssMB[part].join(", ")}); JS heap ${signed(p.medianHeapMB[part])} MB`,
    );
  log();
}

function printStartup(startup: { value?: StartupResult; error?: string }, targets: Target[]): void {
  log(
    `Start: what the plugin adds to OpenCode's instance start (${form(settings, `${settings.startRuns} probes, ${settings.opencodeRuns} opencode runs`, "startRuns")})`,
  );
  const s = startup.value;
  if (!s) return void log(`  failed: ${startup.error?.split("\n")[0]}\n`);
  const m = s.median;
  log(
    `  fresh Node processes (median of ${s.runs}): plugin factory ${ms(m.factoryMs)}; cold import of plugin.ts ${ms(m.importMs)} (Node + tsx, transpiling included); import + factory ${ms(m.coldMs)}; a second instance in the same process ${ms(m.secondFactoryMs)}`,
  );
  targets.push({ name: "start: plugin factory (awaited per instance)", target: "≤ 20 ms", value: ms(m.factoryMs), pass: m.factoryMs <= 20 });
  targets.push({ name: "start: cold import + factory (Node + tsx)", target: "≤ 20 ms", value: ms(m.coldMs), pass: m.coldMs <= 20, info: true });
  if (s.opencode) {
    const o = s.opencode;
    log(
      `  opencode serve ${o.version} (median of ${o.runs}): process start to GET /config ${ms(o.processStart.withPlugin)} with Hermes vs ${ms(o.processStart.without)} without (${o.processStart.addedMs >= 0 ? "+" : ""}${ms(o.processStart.addedMs)}); a new project instance ${ms(o.instanceStart.withPlugin)} vs ${ms(o.instanceStart.without)} (${o.instanceStart.addedMs >= 0 ? "+" : ""}${ms(o.instanceStart.addedMs)})`,
    );
    targets.push({
      name: `start: opencode ${o.version} new instance, added`,
      target: "≤ 20 ms",
      value: ms(o.instanceStart.addedMs),
      pass: o.instanceStart.addedMs <= 20,
      info: true,
    });
    targets.push({
      name: `start: opencode ${o.version} process start, added`,
      target: "≤ 20 ms",
      value: ms(o.processStart.addedMs),
      pass: o.processStart.addedMs <= 20,
      info: true,
    });
  } else if (s.opencodeError) {
    log(`  opencode serve: not measured (${s.opencodeError})`);
  } else if (settings.opencodeRuns === 0) {
    log("  opencode serve: in the short form, see the start-cost row (the same start, timed in pairs); --full runs this one too");
  }
  log();
}

main()
  .catch((error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  })
  .finally(() => process.exit(0));
