// Which OpenCode read rule a file the agent wants to send answers to (pure). OpenCode's own read
// tool asks before it reads a `.env` file: 1.1.53, 1.18.33 and 2.0.15 ship the read rules
// `*: allow`, `*.env: ask`, `*.env.*: ask`, `*.env.example: allow` (the last matching one wins;
// `*` matches across `/`). On 1.x telegram_send_file asks through the tool context's permission
// call as the read tool does, so the user's own rules apply and an `ask` reaches the phone as a
// permission prompt (send-project-file.ts); where there is no such call (2.0.15), a file those
// default rules would ask about is refused outright, naming the rule.
import path from "node:path";

/** OpenCode's default read rules that do not allow, in its order (its wildcards: `*` is any text). */
const DEFAULT_READ_RULES: ReadonlyArray<{ pattern: string; action: "ask" | "allow" }> = [
  { pattern: "*.env", action: "ask" },
  { pattern: "*.env.*", action: "ask" },
  { pattern: "*.env.example", action: "allow" },
];

/** The pattern of the default rule that would make OpenCode's read ask about `file`; undefined: read allows it. */
export function envFileRule(file: string): string | undefined {
  let matched: (typeof DEFAULT_READ_RULES)[number] | undefined;
  for (const rule of DEFAULT_READ_RULES) if (wildcard(rule.pattern).test(file)) matched = rule;
  return matched?.action === "ask" ? matched.pattern : undefined;
}

/**
 * What the permission call is given for `real`: the file as 1.18.33's read names it (relative to
 * the worktree) and as 1.1.53's does (absolute), so a user's rule written either way applies;
 * Always allows only these (shown on the phone before the tap).
 */
export function readRequest(real: string, worktree: string | undefined) {
  const patterns = [...new Set([path.relative(worktree || path.parse(real).root, real) || path.basename(real), real])];
  return { permission: "read", patterns, always: patterns, metadata: {} };
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\?]/g, "\\$&").replaceAll("*", ".*")}$`, "s");
}
