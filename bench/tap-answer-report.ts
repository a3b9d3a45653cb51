// The tap → answer row's lines in the bench table and its targets (bench/tap-answer.ts measures).
import type { TapAnswerResult } from "./tap-answer.ts";
import { ms } from "./stats.ts";

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

/** A person's tap or command in a busy group: its answer at Telegram within this long, nine times in ten. */
const ANSWER_P90_MS = 2_000;

export function printTapAnswer(outcome: { value?: TapAnswerResult; error?: string }, targets: Target[], log: (line?: string) => void, formNote?: string): void {
  const r = outcome.value;
  if (!r) {
    log(`  a tap's answer in a busy group failed: ${outcome.error?.split("\n")[0]}`);
    log();
    return;
  }
  const { status, stop, confirm, list } = r.byAction;
  log(
    `A person's action in a busy supergroup (real OpenCode ${r.version}, three runs showing progress, ${r.actingS} s of actions${formNote ? `; ${formNote}` : ""})`,
  );
  log(
    `  action → its answer at Telegram: p50 ${ms(r.answer.p50)} / p90 ${ms(r.answer.p90)} / max ${ms(r.answer.max)} (n ${r.answer.n}, ${r.unanswered} unanswered${r.unanswered > 0 ? `: ${r.unansweredKinds.join(", ")}` : ""})`,
  );
  log(
    `  /status max ${ms(status.max)}; Stop's confirmation max ${ms(stop.max)}; Confirm stop's edit max ${ms(confirm.max)}; /stop's picker max ${ms(list.max)}; progress calls meanwhile ${r.progressCalls}; 429s ${r.http429}`,
  );
  log();
  targets.push({ name: "busy group: a tap's answer p90", target: `≤ ${ms(ANSWER_P90_MS)}`, value: ms(r.answer.p90), pass: r.answer.p90 <= ANSWER_P90_MS });
  targets.push({ name: "busy group: actions left unanswered", target: "0", value: String(r.unanswered), pass: r.unanswered === 0 });
  targets.push({ name: "busy group with taps: 429s", target: "0", value: String(r.http429), pass: r.http429 === 0 && r.retryAfterViolations === 0 });
}
