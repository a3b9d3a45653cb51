// `npm run bench`: Hermes' benchmark. Prints a table and writes bench/results/latest.json.
// Not part of `npm test`. Targets are reported PASS/FAIL; the exit code is 0 regardless.
//
//   npm run bench                       everything (~2–3 min)
//   npm run bench -- --quick            fewer samples, shorter windows (~1 min)
//   npm run bench -- --no-opencode      skip the real `opencode serve` start-up runs
//   npm run bench -- --scale 25         time compression of the full flood run
//   npm run bench -- --window 30        seconds to watch the real-limit flood run
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { runLatency, type LatencyResult } from "./latency.ts";
import { runMemory, type MemoryResult } from "./memory.ts";
import { ms, round } from "./stats.ts";
import { runStartup, type StartupResult } from "./startup.ts";
import { floodRun, type FloodRunResult } from "./throughput.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  const value = at === -1 ? Number.NaN : Number(args[at + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};
const quick = flag("quick");
const settings = {
  quick,
  latencySamples: option("samples", quick ? 150 : 500),
  latencyWarmup: quick ? 20 : 50,
  memoryQuestions: 10_000,
  floodQuestions: 1_000,
  floodSessions: 100,
  floodScale: option("scale", 25),
  realWindowS: option("window", quick ? 15 : 30),
  startRuns: quick ? 3 : 5,
  opencode: !flag("no-opencode"),
  opencodeRuns: quick ? 2 : 3,
};

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
    const message = error instanceof Error ? error.stack ?? error.message : String(error);
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
  progress(`Hermes benchmark on ${host.cpu} (${host.cores} cores), Node ${host.node}${host.gc ? "" : " — no --expose-gc: memory numbers are without a forced GC"}`);

  const startup = await section("start-up (plugin factory, cold import, opencode serve)", () =>
    runStartup({ runs: settings.startRuns, opencode: settings.opencode, opencodeRuns: settings.opencodeRuns }),
  );
  const latency = await section(`latency (${settings.latencySamples} samples + ${settings.latencyWarmup} warm-up)`, () =>
    runLatency({ samples: settings.latencySamples, warmup: settings.latencyWarmup }),
  );
  const memory = await section(`memory (${settings.memoryQuestions} questions)`, () => runMemory({ questions: settings.memoryQuestions }));
  const scaled = await section(`flood, time-compressed ×${settings.floodScale} (${settings.floodQuestions} questions, ${settings.floodSessions} sessions)`, () =>
    floodRun({ label: `time-compressed ×${settings.floodScale}`, scale: settings.floodScale, questions: settings.floodQuestions, sessions: settings.floodSessions, budgetMs: 180_000 }),
  );
  const real = await section(`flood, real limits (${settings.realWindowS} s window)`, () =>
    floodRun({ label: `real limits, ${settings.realWindowS} s window`, scale: 1, questions: settings.floodQuestions, sessions: settings.floodSessions, budgetMs: settings.realWindowS * 1000 }),
  );

  const targets: Target[] = [];
  log();
  log(`Hermes benchmark · ${date.toISOString()} · ${host.cpu} (${host.cores} cores, ${host.memoryGB} GB) · Node ${host.node} · ${host.platform}`);
  log();
  printLatency(latency, targets);
  printThroughput(scaled, real, targets);
  printMemory(memory, targets);
  printStartup(startup, targets);

  log("Targets");
  log(`  ${pad("", 46)} ${pad("target", 22)} ${pad("measured", 34)} verdict`);
  for (const t of targets) log(`  ${pad(t.name, 46)} ${pad(t.target, 22)} ${pad(t.value, 34)} ${t.info ? `(${verdict(t.pass)}, another measure)` : verdict(t.pass)}`);
  log();

  const results = {
    date: date.toISOString(),
    machine: host,
    settings,
    durationS: round((performance.now() - benchStarted) / 1000, 1),
    latency: latency.value ?? { error: latency.error },
    throughput: { timeCompressed: scaled.value ?? { error: scaled.error }, realLimits: real.value ?? { error: real.error } },
    memory: memory.value ?? { error: memory.error },
    startup: startup.value ?? { error: startup.error },
    targets,
  };
  const dir = path.join(HERE, "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "latest.json");
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  log(`Wrote ${path.relative(process.cwd(), file)} (${results.durationS} s in all)`);
}

function printLatency(latency: { value?: LatencyResult; error?: string }, targets: Target[]): void {
  log("Latency: the bridge vs a bare fetch of the same request to the same server (floor)");
  const r = latency.value;
  if (!r) return void log(`  failed: ${latency.error?.split("\n")[0]}\n`);
  log(`  ${r.note}; n=${r.samples} after ${r.warmup} warm-up`);
  log(`  ${pad("", 44)} ${padLeft("p50", 9)} ${padLeft("p99", 9)} ${padLeft("floor p50", 10)} ${padLeft("floor p99", 10)} ${padLeft("p50/floor", 10)} ${padLeft("p99/floor", 10)} ${padLeft("p99−floor", 10)}`);
  const rows: Array<[string, string, LatencyResult["ask"]]> = [
    ["question.asked → sendMessage at Telegram", "ask → sendMessage", r.ask],
    ["tap (callback update) → reply at OpenCode", "tap → reply at OpenCode", r.tap],
  ];
  for (const [name, short, m] of rows) {
    const ratio = m.bridge.p99 / m.floor.p99;
    const ratio50 = m.bridge.p50 / m.floor.p50;
    log(`  ${pad(name, 44)} ${padLeft(ms(m.bridge.p50), 9)} ${padLeft(ms(m.bridge.p99), 9)} ${padLeft(ms(m.floor.p50), 10)} ${padLeft(ms(m.floor.p99), 10)} ${padLeft(`${ratio50.toFixed(2)}×`, 10)} ${padLeft(`${ratio.toFixed(2)}×`, 10)} ${padLeft(ms(m.bridge.p99 - m.floor.p99), 10)}`);
    targets.push({ name: `${short}: p99 vs floor p99`, target: "≤ 2× floor", value: `${ms(m.bridge.p99)} vs ${ms(m.floor.p99)} (${ratio.toFixed(2)}×)`, pass: ratio <= 2 });
    targets.push({ name: `${short}: p99`, target: "≤ 5 ms", value: ms(m.bridge.p99), pass: m.bridge.p99 <= 5 });
  }
  const calls = Object.entries(r.callsPerPrompt).map(([method, n]) => `${method} ${n}`).join(", ");
  log(`  Telegram calls per prompt (asked, tapped, settled): ${calls}`);
  log();
}

function printThroughput(scaled: { value?: FloodRunResult; error?: string }, real: { value?: FloodRunResult; error?: string }, targets: Target[]): void {
  log("Throughput and loss under flood limits (fake Telegram answers 429 + retry_after): all questions go to the one configured private chat");
  log(`  ${pad("run", 34)} ${padLeft("delivered", 10)} ${padLeft("lost", 5)} ${padLeft("dup", 4)} ${padLeft("wall", 9)} ${padLeft("rate", 9)} ${padLeft("limit", 7)} ${padLeft("429s", 5)} ${padLeft("violations", 11)} ${padLeft("no-op edits", 12)}`);
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
    log(`  time-compressed: the fake's limits and Hermes' pacing both ×${s.scale} (bursts unchanged, retry_after ÷${s.scale}); all ${s.questions} run to completion. At real limits that is ≈ ${minutes(s.projectedRealMs)}.`);
    targets.push({ name: `flood ×${s.scale}: ${s.questions} questions lost / twice`, target: "0 lost, 0 duplicates", value: s.completed ? `${s.lost} lost, ${s.duplicates} dup in ${ms(s.wallMs)}` : `${s.delivered}/${s.questions} in ${ms(s.budgetMs)}`, pass: s.completed && s.lost === 0 && s.duplicates === 0 });
    targets.push({ name: `flood ×${s.scale}: retry_after respected`, target: "0 violations", value: `${s.retryAfterViolations} violations, ${s.http429} × 429`, pass: s.retryAfterViolations === 0 });
  }
  if (r) {
    log(`  real limits: watched for ${ms(r.budgetMs)} (a window, not to completion): ${r.rate.toFixed(2)} prompts/s against Telegram's 1/s per private chat; projected ${minutes(r.projectedRealMs)} for all ${r.questions}.`);
    targets.push({ name: "flood, real limits: retry_after respected", target: "0 violations", value: `${r.retryAfterViolations} violations, ${r.http429} × 429`, pass: r.retryAfterViolations === 0 });
  }
  log();
}

function printMemory(memory: { value?: MemoryResult; error?: string }, targets: Target[]): void {
  log("Memory: heap after a full GC, before and after questions raised and answered (in-memory Telegram and OpenCode)");
  const m = memory.value;
  if (!m) return void log(`  failed: ${memory.error?.split("\n")[0]}\n`);
  log(`  ${m.questions} questions in ${ms(m.durationMs)} (${m.sessions} sessions, ${m.batch} at a time, after ${m.warmup} warm-up): heap ${m.heapBeforeMB} → ${m.heapAfterMB} MB, growth ${m.growthMB >= 0 ? "+" : ""}${m.growthMB} MB; a second ${m.questions}: ${m.secondRunGrowthMB >= 0 ? "+" : ""}${m.secondRunGrowthMB} MB; peak ${m.peakHeapMB} MB; prompts left ${m.promptsLeft}${m.gc ? "" : " (no --expose-gc: not comparable)"}`);
  targets.push({ name: `memory growth after ${m.questions} questions`, target: "≤ 5 MB", value: `${m.growthMB} MB`, pass: m.gc && m.growthMB <= 5 });
  log();
}

function printStartup(startup: { value?: StartupResult; error?: string }, targets: Target[]): void {
  log("Start: what the plugin adds to OpenCode's instance start");
  const s = startup.value;
  if (!s) return void log(`  failed: ${startup.error?.split("\n")[0]}\n`);
  const m = s.median;
  log(`  fresh Node processes (median of ${s.runs}): plugin factory ${ms(m.factoryMs)}; cold import of plugin.ts ${ms(m.importMs)} (Node + tsx, transpiling included); import + factory ${ms(m.coldMs)}; a second instance in the same process ${ms(m.secondFactoryMs)}`);
  targets.push({ name: "start: plugin factory (awaited per instance)", target: "≤ 20 ms", value: ms(m.factoryMs), pass: m.factoryMs <= 20 });
  targets.push({ name: "start: cold import + factory (Node + tsx)", target: "≤ 20 ms", value: ms(m.coldMs), pass: m.coldMs <= 20, info: true });
  if (s.opencode) {
    const o = s.opencode;
    log(`  opencode serve ${o.version} (median of ${o.runs}): process start to GET /config ${ms(o.processStart.withPlugin)} with Hermes vs ${ms(o.processStart.without)} without (${o.processStart.addedMs >= 0 ? "+" : ""}${ms(o.processStart.addedMs)}); a new project instance ${ms(o.instanceStart.withPlugin)} vs ${ms(o.instanceStart.without)} (${o.instanceStart.addedMs >= 0 ? "+" : ""}${ms(o.instanceStart.addedMs)})`);
    targets.push({ name: `start: opencode ${o.version} new instance, added`, target: "≤ 20 ms", value: ms(o.instanceStart.addedMs), pass: o.instanceStart.addedMs <= 20, info: true });
    targets.push({ name: `start: opencode ${o.version} process start, added`, target: "≤ 20 ms", value: ms(o.processStart.addedMs), pass: o.processStart.addedMs <= 20, info: true });
  } else if (s.opencodeError) {
    log(`  opencode serve: not measured (${s.opencodeError})`);
  }
  log();
}

main()
  .catch((error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  })
  .finally(() => process.exit(0));
