// The shell from the phone, its pure half (issue 53, docs/phone.md): which text is a `!command`,
// the command's risk flags (the permissions' own reader, lib/approvals/, so a command typed on the
// phone is judged as the agent's would be), and the end of its output that fits one message.
import { orderFlags, type Place, type RiskFlag } from "../approvals/risk.ts";
import { flagCommand } from "../approvals/read-flags.ts";
import { loadShellParser } from "../approvals/shell-syntax.ts";

/** The longest command taken from the phone (a command line, not a script). */
export const COMMAND_LIMIT = 2_000;

/**
 * The command of a `!command` text: what follows the `!`, trimmed; undefined when the text is not
 * one (no `!`, nothing after it, `!!`, or longer than COMMAND_LIMIT).
 */
export function bangCommand(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("!") || trimmed.startsWith("!!")) return undefined;
  const command = trimmed.slice(1).trim();
  if (command === "" || command.length > COMMAND_LIMIT) return undefined;
  return command;
}

/** The command's flags, most severe first; never throws (a parser that does not load flags it unreadable). */
export async function flagShellCommand(command: string, place: Place): Promise<RiskFlag[]> {
  try {
    const parse = await loadShellParser();
    return orderFlags(flagCommand(command, parse, place));
  } catch {
    return [{ category: "unreadable", part: command }];
  }
}

/** The last lines of an output: at most `maxLines` lines and `maxChars` characters; `whole` when nothing was left out. */
export function outputTail(output: string, maxLines: number, maxChars: number): { text: string; shown: number; total: number; whole: boolean } {
  const body = output.endsWith("\n") ? output.slice(0, -1) : output;
  const lines = body === "" ? [] : body.split("\n");
  const kept: string[] = [];
  let size = 0;
  for (let index = lines.length - 1; index >= 0 && kept.length < maxLines; index--) {
    const line = lines[index]!;
    if (size + line.length + 1 > maxChars) {
      // A single line longer than the budget: its end, so something shows.
      if (kept.length === 0) kept.unshift(line.slice(line.length - maxChars));
      break;
    }
    kept.unshift(line);
    size += line.length + 1;
  }
  const whole = kept.length === lines.length && kept.join("\n") === body;
  return { text: kept.join("\n"), shown: kept.length, total: lines.length, whole };
}
