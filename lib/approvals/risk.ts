// The risk categories a permission request can carry, most severe first, and a flag: a category
// with the part of the command or path that earned it. Pure.

/** Most severe first: the order of the ⚠️ lines on the phone. */
export const RISK_CATEGORIES = [
  "network-code", // runs code from the network
  "hidden", // hides what it runs
  "runs-code", // runs code Hermes cannot see: inline code that starts programs, a program that is no static word, an option or variable that runs or loads a program
  "unreadable", // the shell parser could not read it
  "deletes", // deletes or discards
  "force-push", // rewrites what others see (git push --force, +ref, --delete)
  "elevated", // runs with more rights (sudo, chmod -R, chown)
  "secrets", // reads secrets
  "runs-later", // edits something that runs later (CI workflows, git hooks, install scripts, shell startup)
  "publishes", // changes what others see (git push, npm publish, deploys)
  "outside", // leaves the project
] as const;

export type RiskCategory = (typeof RISK_CATEGORIES)[number];

export interface RiskFlag {
  category: RiskCategory;
  /** The part of the command (or the path) that earned the flag, as written. */
  part: string;
}

/** Flags sorted most severe first; one line per category and part. */
export function orderFlags(flags: RiskFlag[]): RiskFlag[] {
  const seen = new Set<string>();
  const unique = flags.filter((flag) => {
    const id = `${flag.category}\n${flag.part}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  return unique.sort((a, b) => RISK_CATEGORIES.indexOf(a.category) - RISK_CATEGORIES.indexOf(b.category));
}

/** Where a request runs: the session's directory and the user's home (for `~`). */
export interface Place {
  directory: string;
  home: string;
  /** Where relative paths start (after a `cd`); the directory when unset. */
  cwd?: string;
}
