/**
 * Whether a Node version satisfies an `engines.node` range, as the ranges in our lockfile spell
 * them: `||` alternatives of space-separated comparators (`>=`, `>`, `<=`, `<`, `=`), carets (`^20.19.0`),
 * tildes and x-ranges (`4.x`, `>= 10.x`, `^10`). Enough for package-lock.json, not all of semver.
 */
type Version = [number, number, number];

function parse(text: string): { version: Version; given: number } {
  const parts = text.replace(/^v/, "").split(".");
  const numbers = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
  const given = numbers.findIndex((n) => Number.isNaN(n));
  const count = given === -1 ? Math.min(numbers.length, 3) : given;
  const version: Version = [numbers[0] ?? 0, numbers[1] ?? 0, numbers[2] ?? 0];
  for (let i = count; i < 3; i++) version[i] = 0;
  return { version, given: count };
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
}

/** The first version past a partial one: `20` → 21.0.0, `20.19` → 20.20.0. */
function bump(version: Version, at: number): Version {
  const next: Version = [...version];
  next[at] = (next[at] ?? 0) + 1;
  for (let i = at + 1; i < 3; i++) next[i] = 0;
  return next;
}

function comparator(node: Version, text: string): boolean {
  const match = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(text.trim());
  if (!match) throw new Error(`unreadable range part: ${text}`);
  const op = match[1] ?? "";
  const { version, given } = parse(match[2] ?? "");
  const order = compare(node, version);
  switch (op) {
    case ">=":
      return order >= 0;
    case ">":
      return given < 3 ? compare(node, bump(version, Math.max(given - 1, 0))) >= 0 : order > 0;
    case "<=":
      return given < 3 ? compare(node, bump(version, Math.max(given - 1, 0))) < 0 : order <= 0;
    case "<":
      return order < 0;
    case "^": {
      const at = version[0] !== 0 || given <= 1 ? 0 : version[1] !== 0 || given <= 2 ? 1 : 2;
      return order >= 0 && compare(node, bump(version, at)) < 0;
    }
    case "~":
      return order >= 0 && compare(node, bump(version, given >= 2 ? 1 : 0)) < 0;
    default:
      return given < 3 ? order >= 0 && compare(node, bump(version, Math.max(given - 1, 0))) < 0 : order === 0;
  }
}

export function satisfies(nodeVersion: string, range: string): boolean {
  const node = parse(nodeVersion).version;
  return range.split("||").some((alternative) => {
    const parts = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .split(/\s+/)
      .filter(Boolean);
    return parts.length === 0 || parts.every((part) => comparator(node, part));
  });
}
