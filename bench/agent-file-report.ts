// The agent-file row's lines in the bench table and its targets (bench/agent-file.ts measures).
import type { AgentFileResult } from "./agent-file.ts";
import { ms } from "./stats.ts";

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

/** How much later a prompt may go out while the file uploads (p95), over the baseline's p95. */
const ALLOWED_EXTRA_MS = 25;

export function printAgentFile(outcome: { value?: AgentFileResult; error?: string }, targets: Target[], log: (line?: string) => void, formNote: string): void {
  const r = outcome.value;
  if (!r) {
    log(`  the agent's file beside prompts failed: ${outcome.error?.split("\n")[0]}`);
    log();
    return;
  }
  log(`The agent's ${r.fileMB} MB file uploading at ${r.rateMBps} MB/s while ${r.prompts} prompts go out one at a time (${formNote})`);
  log(
    `  prompts ask → send: alone p50 ${ms(r.baseline.p50)} / p95 ${ms(r.baseline.p95)} / max ${ms(r.baseline.max)}; ` +
      `during the upload p50 ${ms(r.duringUpload.p50)} / p95 ${ms(r.duringUpload.p95)} / max ${ms(r.duringUpload.max)}`,
  );
  log(`  ${r.sentDuringUpload}/${r.prompts} prompts sent while the file was still uploading; the upload took ${r.uploadS} s; delivered whole: ${r.delivered}`);
  log();
  const extra = r.duringUpload.p95 - r.baseline.p95;
  targets.push({
    name: "agent's 20 MB file: prompts' ask → send p95",
    target: `≤ alone + ${ALLOWED_EXTRA_MS} ms`,
    value: `${ms(r.duringUpload.p95)} vs ${ms(r.baseline.p95)}, max ${ms(r.duringUpload.max)}`,
    pass: extra <= ALLOWED_EXTRA_MS && r.sentDuringUpload === r.prompts && r.delivered,
  });
}
