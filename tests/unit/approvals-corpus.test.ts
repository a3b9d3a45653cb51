// The risk flags measured on two corpora (tests/fixtures/approvals/): ordinary commands as coding
// agents run them (at most 2 in 100 flagged) and risky ones, each with the category it must carry
// (at least 95 in 100 flagged with it). Both ratios are printed.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { flagCommand } from "../../lib/approvals/read-flags.ts";
import { RISK_CATEGORIES, type RiskCategory } from "../../lib/approvals/risk.ts";
import { loadShellParser, type ShellParser } from "../../lib/approvals/shell-syntax.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/approvals");
const PLACE = { directory: "/home/dev/project", home: "/home/dev" };

function lines(file: string): string[] {
  return (
    fs
      .readFileSync(path.join(FIXTURES, file), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"))
      // A line holds one command; ␤ stands for a newline inside it (a here-document).
      .map((line) => line.replaceAll("␤", "\n"))
  );
}

let parse: ShellParser;
beforeAll(async () => {
  parse = await loadShellParser();
});

describe("risk flags on the corpora", () => {
  it("flags at most 2 in 100 ordinary commands (at least 250 of them)", () => {
    const commands = lines("ordinary.txt");
    expect(commands.length).toBeGreaterThanOrEqual(250);
    const flagged = commands.map((command) => ({ command, flags: flagCommand(command, parse, PLACE) })).filter((entry) => entry.flags.length > 0);
    const ratio = flagged.length / commands.length;
    console.log(`ordinary commands flagged: ${flagged.length}/${commands.length} (${(ratio * 100).toFixed(1)}%)`, flagged);
    expect(ratio).toBeLessThanOrEqual(0.02);
  });

  it("flags at least 95 in 100 risky commands with the right category (at least 250 of them, every category)", () => {
    const entries = lines("risky.txt").map((line) => {
      const [category, command] = line.split("\t") as [RiskCategory, string];
      return { category, command };
    });
    expect(entries.length).toBeGreaterThanOrEqual(250);
    expect(new Set(entries.map((entry) => entry.category)).size).toBe(RISK_CATEGORIES.length);
    const missed = entries.filter(({ category, command }) => !flagCommand(command, parse, PLACE).some((flag) => flag.category === category));
    const ratio = (entries.length - missed.length) / entries.length;
    console.log(`risky commands flagged with their category: ${entries.length - missed.length}/${entries.length} (${(ratio * 100).toFixed(1)}%)`, missed);
    expect(ratio).toBeGreaterThanOrEqual(0.95);
  });
});
