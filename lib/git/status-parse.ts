// What `git status --porcelain=v2 --branch -z` and `git diff --numstat -z` say, as values. Pure.

export type EntryKind = "modified" | "new" | "deleted" | "renamed" | "conflict";

export interface StatusEntry {
  path: string;
  kind: EntryKind;
  /** Something of it is staged. */
  staged: boolean;
}

export interface RepoStatus {
  /** Undefined when HEAD is detached. */
  branch: string | undefined;
  /** "origin/main", when the branch has one. */
  upstream: string | undefined;
  ahead: number;
  behind: number;
  /** No commit yet. */
  unborn: boolean;
  entries: StatusEntry[];
}

export function parseStatus(output: string): RepoStatus {
  const status: RepoStatus = { branch: undefined, upstream: undefined, ahead: 0, behind: 0, unborn: false, entries: [] };
  const fields = output.split("\0");
  for (let index = 0; index < fields.length; index++) {
    const field = fields[index]!;
    if (field.startsWith("# ")) {
      const [, name, ...rest] = field.split(" ");
      const value = rest.join(" ");
      if (name === "branch.oid") status.unborn = value === "(initial)";
      else if (name === "branch.head") status.branch = value === "(detached)" ? undefined : value;
      else if (name === "branch.upstream") status.upstream = value;
      else if (name === "branch.ab") {
        const match = /^\+(\d+) -(\d+)$/.exec(value);
        if (match) [status.ahead, status.behind] = [Number(match[1]), Number(match[2])];
      }
    } else if (field.startsWith("? ")) status.entries.push({ path: field.slice(2), kind: "new", staged: false });
    else if (field.startsWith("1 ")) {
      const parts = field.split(" ");
      const xy = parts[1]!;
      status.entries.push({ path: parts.slice(8).join(" "), kind: xy.includes("D") ? "deleted" : xy[0] === "A" ? "new" : "modified", staged: xy[0] !== "." });
    } else if (field.startsWith("2 ")) {
      const parts = field.split(" ");
      status.entries.push({ path: parts.slice(9).join(" "), kind: "renamed", staged: parts[1]![0] !== "." });
      index++; // the original path follows
    } else if (field.startsWith("u ")) status.entries.push({ path: field.split(" ").slice(10).join(" "), kind: "conflict", staged: true });
  }
  return status;
}

export interface LineCount {
  added: number;
  removed: number;
  binary: boolean;
}

/** `git diff --numstat -z`: "added\tremoved\tpath\0", or "added\tremoved\t\0from\0to\0" for a rename; "-\t-" for a binary file. */
export function parseNumstat(output: string): Map<string, LineCount> {
  const counts = new Map<string, LineCount>();
  const fields = output.split("\0");
  for (let index = 0; index < fields.length; index++) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(fields[index]!);
    if (!match) continue;
    let file = match[3]!;
    if (file === "") {
      file = fields[index + 2] ?? "";
      index += 2;
    }
    const binary = match[1] === "-";
    counts.set(file, { added: binary ? 0 : Number(match[1]), removed: binary ? 0 : Number(match[2]), binary });
  }
  return counts;
}
