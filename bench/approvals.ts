// Risk flags (issue 42): the two corpora's ratios (tests/fixtures/approvals/), how long the shell
// parser takes to load in a fresh process (what the first bash prompt of a process pays, never
// start-up), and how long reading one command takes once it is loaded.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { flagCommand } from "../lib/approvals/read-flags.ts";
import { loadShellParser } from "../lib/approvals/shell-syntax.ts";
import { median, round, summarize, type Summary, ms } from "./stats.ts";

export interface ApprovalsResult {
  ordinary: { flagged: number; of: number };
  risky: { right: number; of: number };
  /** import("mvdan-sh") in a fresh Node process, ms (median of `loads`). */
  loadMs: number;
  loads: number;
  /** flagCommand over every command of both corpora, ms per command. */
  perCommand: Summary;
}

interface Target {
  name: string;
  target: string;
  value: string;
  pass: boolean;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PLACE = { directory: "/home/dev/project", home: "/home/dev" };

function corpus(file: string): string[] {
  return (
    fs
      .readFileSync(path.join(ROOT, "tests/fixtures/approvals", file), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
      // A line holds one command; ␤ stands for a newline inside it (a here-document).
      .map((line) => line.replaceAll("␤", "\n"))
  );
}

export async function runApprovals(options: { loads: number }): Promise<ApprovalsResult> {
  const loadTimes: number[] = [];
  for (let run = 0; run < options.loads; run++) {
    const script = 'const t = performance.now(); await import("mvdan-sh"); console.log(performance.now() - t);';
    loadTimes.push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" }).trim()));
  }
  const parse = await loadShellParser();
  const times: number[] = [];
  const timed = (command: string) => {
    const start = performance.now();
    const flags = flagCommand(command, parse, PLACE);
    times.push(performance.now() - start);
    return flags;
  };
  const ordinary = corpus("ordinary.txt");
  const risky = corpus("risky.txt").map((line) => line.split("\t") as [string, string]);
  const flagged = ordinary.filter((command) => timed(command).length > 0).length;
  const right = risky.filter(([category, command]) => timed(command).some((flag) => flag.category === category)).length;
  return {
    ordinary: { flagged, of: ordinary.length },
    risky: { right, of: risky.length },
    loadMs: round(median(loadTimes)),
    loads: options.loads,
    perCommand: summarize(times),
  };
}

export function printApprovals(outcome: { value?: ApprovalsResult; error?: string }, targets: Target[], log: (line?: string) => void): void {
  const r = outcome.value;
  log("Risk flags: the corpora of tests/fixtures/approvals/, the shell parser's load in a fresh process (the first bash prompt pays it), one command read");
  if (!r) {
    log(`  failed: ${outcome.error}`);
    log();
    return;
  }
  const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)}%`;
  log(`  ordinary commands flagged    ${r.ordinary.flagged}/${r.ordinary.of} (${percent(r.ordinary.flagged, r.ordinary.of)})`);
  log(`  risky, right category        ${r.risky.right}/${r.risky.of} (${percent(r.risky.right, r.risky.of)})`);
  log(`  import("mvdan-sh")           ${ms(r.loadMs)} (median of ${r.loads}); a command read p50 ${ms(r.perCommand.p50)} / p99 ${ms(r.perCommand.p99)}`);
  targets.push({
    name: "Flags: ordinary flagged",
    target: "≤ 2%",
    value: percent(r.ordinary.flagged, r.ordinary.of),
    pass: r.ordinary.flagged / r.ordinary.of <= 0.02,
  });
  targets.push({ name: "Flags: risky, right category", target: "≥ 95%", value: percent(r.risky.right, r.risky.of), pass: r.risky.right / r.risky.of >= 0.95 });
  log();
}
