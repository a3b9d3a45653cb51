// The answer as it is written, beside prompts in a group: the live-progress run (bench/progress.ts:
// a tool call every 2 s, a question every third step, each tapped as soon as it is on the phone)
// with the answer growing a line a step and shown on the progress message (HERMES_STREAM=on), and
// the same run with streaming off; rounds alternate, progress on in both. Measured: the prompts'
// ask → sendMessage at Telegram (real ms), streaming on vs off, and the 429s the fake Telegram
// (enforcing Telegram's limits) answered. Time-compressed ×10 like the live-progress run.
import { round } from "./progress.ts";
import { ms, summarize, type Summary } from "./stats.ts";

export interface StreamBenchResult {
  rounds: number;
  steps: number;
  on: Summary;
  off: Summary;
  /** on.p99 / off.p99. */
  p99Ratio: number;
  http429: number;
  retryAfterViolations: number;
}

export async function runStreamBench(options: { rounds?: number; steps?: number; scale?: number } = {}): Promise<StreamBenchResult> {
  const rounds = options.rounds ?? 4;
  const steps = options.steps ?? 15;
  const scale = options.scale ?? 10;
  const on: number[] = [];
  const off: number[] = [];
  let http429 = 0;
  let violations = 0;
  // Warm-up, not counted (the Markdown parser and the renderers load here).
  for (const stream of [true, false]) await round(true, 6, scale, `sw${stream}`, stream);
  for (let index = 0; index < rounds; index++) {
    const stream = index % 2 === 0;
    const result = await round(true, steps, scale, `s${index}`, stream);
    (stream ? on : off).push(...result.waits);
    http429 += result.http429;
    violations += result.violations;
  }
  const onSummary = summarize(on);
  const offSummary = summarize(off);
  return {
    rounds,
    steps,
    on: onSummary,
    off: offSummary,
    p99Ratio: Math.round((onSummary.p99 / offSummary.p99) * 100) / 100,
    http429,
    retryAfterViolations: violations,
  };
}

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

/** The row's lines in the bench table and its targets. */
export function printStream(outcome: { value?: StreamBenchResult; error?: string }, targets: Target[], log: (line?: string) => void, formNote?: string): void {
  const r = outcome.value;
  if (!r) {
    log(`  the answer as it is written failed: ${outcome.error?.split("\n")[0]}`);
    log();
    return;
  }
  log(
    `The answer as it is written, on a group's progress message beside prompts (${r.rounds} rounds of ${r.steps} steps, on and off alternating, ×10${formNote ? `; ${formNote}` : ""})`,
  );
  log(
    `  prompts ask → send: streaming on p50 ${ms(r.on.p50)} / p99 ${ms(r.on.p99)} (n ${r.on.n}); off p50 ${ms(r.off.p50)} / p99 ${ms(r.off.p99)} (n ${r.off.n}); 429s ${r.http429}`,
  );
  log();
  targets.push({
    name: "streaming on: prompts' ask → send p99 vs off",
    target: "≤ 1.2×",
    value: `${r.p99Ratio}× (${ms(r.on.p99)} / ${ms(r.off.p99)})`,
    pass: r.p99Ratio <= 1.2,
  });
  targets.push({
    name: "streaming beside prompts: 429s",
    target: "0",
    value: String(r.http429 + r.retryAfterViolations),
    pass: r.http429 + r.retryAfterViolations === 0,
  });
}
