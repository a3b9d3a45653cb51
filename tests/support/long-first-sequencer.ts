// The order test files start in (vitest.config.ts' `sequence.sequencer`). Vitest runs first the
// files that took longest last time, from its cache; a fresh clone (CI) has no cache, and Vitest
// then starts the largest files first, which put a five-minute file of real-clock waits near the
// end of the run, alone on one worker. Here the files known to take longest (measured,
// docs/development.md "Where CI's time goes") start first in any case; the rest keep Vitest's order.
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The slowest end-to-end files on 2026-11-28 (issue 41's after run), longest first; a file not here keeps Vitest's place for it. */
export const LONG_FILES = [
  "tests/e2e/notices.test.ts",
  "tests/e2e/multi-process.test.ts",
  "tests/e2e/schedules.test.ts",
  "tests/e2e/schedules-processes.test.ts",
  "tests/e2e/voice-notes.test.ts",
  "tests/e2e/attach.opencode-1.18.test.ts",
  "tests/e2e/run-cost.test.ts",
  "tests/e2e/faults.test.ts",
  "tests/e2e/markdown.test.ts",
  "tests/e2e/agent-tools.test.ts",
];

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const at = LONG_FILES.indexOf(relative(this.ctx.config.root, spec.moduleId).replaceAll("\\", "/"));
      return at === -1 ? LONG_FILES.length : at;
    };
    // Array.prototype.sort is stable: within a rank, Vitest's order stays.
    return sorted.sort((a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || rank(a) - rank(b));
  }
}
