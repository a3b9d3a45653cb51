// The start-cost row's lines and targets (bench/start-cost.ts): per OpenCode version, what Hermes
// adds to the time until the project instance answers, and its first poll after that.
import type { StartCostResult } from "./start-cost.ts";
import { median, ms } from "./stats.ts";

/** Hermes adds at most this to the project instance's start (median of the pairs' differences). */
export const START_ADDED_TARGET_MS = 50;
/** And polls Telegram within this of the instance answering (median). */
export const FIRST_POLL_TARGET_MS = 1_000;

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

const signedMs = (value: number) => (value < 0 ? `−${ms(-value)}` : `+${ms(value)}`);

export function printStartCost(outcome: { value?: StartCostResult; error?: string }, targets: Target[], log: (line?: string) => void, formNote: string): void {
  log(`Hermes' start cost in OpenCode: opencode serve's spawn → its project instance answers, with Hermes and without, alternating (${formNote})`);
  const result = outcome.value;
  if (!result) return void log(`  not measured: ${outcome.error?.split("\n")[0]}\n`);
  for (const v of result.versions) {
    log(
      `  opencode serve ${v.version}, ${v.pairs} pairs: with Hermes ${ms(v.medianWithMs)}, without ${ms(v.medianWithoutMs)} (medians); added per pair ${v.addedMs.map(signedMs).join(", ")} (median ${signedMs(v.medianAddedMs)})`,
    );
    const fromSpawn = v.withHermes.flatMap((s) => (s.pollAfterInstanceMs === undefined ? [] : [s.instanceMs + s.pollAfterInstanceMs]));
    log(
      `    Hermes' first getUpdates after the instance answered: ${v.withHermes.map((s) => (s.pollAfterInstanceMs === undefined ? "none" : signedMs(s.pollAfterInstanceMs))).join(", ")} (median ${signedMs(v.medianPollAfterInstanceMs)}; after the spawn: median ${ms(median(fromSpawn))})${v.polled ? "" : "; Hermes did not poll in every run"}`,
    );
    targets.push({
      name: `start: opencode ${v.version} instance, Hermes adds`,
      target: `≤ ${START_ADDED_TARGET_MS} ms`,
      value: `${signedMs(v.medianAddedMs)} (median of ${v.pairs} pairs)`,
      pass: v.medianAddedMs <= START_ADDED_TARGET_MS,
    });
    targets.push({
      name: `start: opencode ${v.version}, first poll after it`,
      target: `≤ ${ms(FIRST_POLL_TARGET_MS)}`,
      value: `${signedMs(v.medianPollAfterInstanceMs)} (median)`,
      pass: v.polled && v.medianPollAfterInstanceMs <= FIRST_POLL_TARGET_MS,
    });
  }
  log();
}
