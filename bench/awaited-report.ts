// The awaited row's lines in the bench table and its target (bench/awaited.ts measures).
import type { AwaitedResult } from "./awaited.ts";
import { ms } from "./stats.ts";

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

/** What a person or the agent waits for goes out this soon after the group's window has room again (p99, real-limit time). */
const WITHIN_MS = 1_000;

export function printAwaited(outcome: { value?: AwaitedResult; error?: string }, targets: Target[], log: (line?: string) => void, formNote: string): void {
  const r = outcome.value;
  if (!r) {
    log(`  a busy group's awaited traffic failed: ${outcome.error?.split("\n")[0]}`);
    log();
    return;
  }
  log(
    `A busy group's awaited traffic: 19 answers and a prompt fill the window, 16 edits, 2 chores and spare progress queued, then a Done notice, the agent's file and a command's first sight (${r.rounds} rounds, ×${r.scale}; ${formNote})`,
  );
  const row = (name: string, busy: AwaitedResult["busy"]["all"], floor: AwaitedResult["floor"]["all"]) =>
    log(`  ${name}: room again → returned p50 ${ms(busy.p50)} / p99 ${ms(busy.p99)}; idle group (floor) p50 ${ms(floor.p50)} / p99 ${ms(floor.p99)}`);
  row("the agent's file (upload returned)", r.busy.file, r.floor.file);
  row("the Done notice (sent)", r.busy.done, r.floor.done);
  row("a running command's first sight (edit)", r.busy.firstSight, r.floor.firstSight);
  log(
    `  the window held ${r.held.join(", ")} when they were queued, with room again ${ms(r.roomAfter.p50)} later (p50); backlog calls ahead of them ${r.backlogAhead}; 429s ${r.http429}, retry_after violations ${r.retryAfterViolations}`,
  );
  log();
  targets.push({
    name: "busy group: room again → awaited call p99",
    target: `≤ ${WITHIN_MS / 1000} s, 0 × 429`,
    value: `${ms(r.busy.all.p99)} (floor ${ms(r.floor.all.p99)}), ${r.http429} × 429`,
    pass: r.busy.all.p99 <= WITHIN_MS && r.http429 === 0 && r.retryAfterViolations === 0,
  });
}
