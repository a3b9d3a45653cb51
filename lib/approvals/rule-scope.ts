// What "Allow in this session" may cover, read by Hermes from the request itself (never OpenCode's
// `always` patterns, which are one word for most programs, `node *`, and `*` for every edit):
// - a command line: each of its simple commands, as the program and its subcommand or script with
//   any arguments after them (`node scripts/check.mjs *`, `npx vitest *`, `git status *`), or, for
//   a program without subcommands, exactly as it was (`rm -rf dist`); its assignments and
//   redirections as they were. A line with a dynamic part (a program or word that is not static,
//   inline code, a shell or interpreter reading its standard input, a here-document, xargs) makes
//   no rule, and no rule answers it.
// - an edit: exactly the files it writes, never `*`.
// - anything else: exactly its patterns (never a bare `*`).
// Pure once given the parsed line.
import { posix } from "node:path";
import { interpreterInput, isInterpreter } from "./command-risks.ts";
import { invocationOf, SHELLS } from "./invocation.ts";
import type { Place } from "./risk.ts";
import type { SimpleCommand } from "./shell-syntax.ts";

/** One simple command of a line, as a rule compares it: every word static. */
export interface CommandPart {
  assigns: string[];
  argv: string[];
  redirects: string[];
}

/** What a rule covers of one simple command: its start (`open`: any arguments may follow), assignments and redirections. */
export interface ScopeEntry {
  assigns: string[];
  prefix: string[];
  open: boolean;
  redirects: string[];
}

/** What a request is, as a rule compares it; `dynamic` (why): no rule answers it or is made of it. */
export type Subject =
  | { kind: "command"; parts: CommandPart[]; dynamic?: string }
  | { kind: "files"; files: string[]; dynamic?: string }
  | { kind: "exact"; patterns: string[]; dynamic?: string };

/** What a rule covers. */
export type RuleScope = { kind: "command"; entries: ScopeEntry[] } | { kind: "files"; files: string[] } | { kind: "exact"; patterns: string[] };

/** Programs whose first operand is a subcommand (`git status`, `cargo test`, `make build`). */
const SUBCOMMANDS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "cargo",
  "go",
  "make",
  "gmake",
  "just",
  "task",
  "docker",
  "podman",
  "kubectl",
  "gh",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "pipx",
  "dotnet",
  "mvn",
  "gradle",
  "gradlew",
  "turbo",
  "nx",
  "lerna",
  "rustup",
  "brew",
  "composer",
  "bundle",
  "rake",
  "mix",
  "swift",
  "terraform",
  "tofu",
  "helm",
  "prisma",
  "drizzle-kit",
  "vitest",
  "jest",
  "playwright",
  "wrangler",
  "vercel",
  "firebase",
  "supabase",
  "biome",
  "changeset",
]);
/** Package runners: their first operand is the package they fetch and run (`npx vitest`). */
const RUNNERS = new Set(["npx", "bunx", "pnpx", "uvx"]);
/** Subcommands that run a script or package named by the next operand (`npm run build`, `pnpm dlx x`). */
const RUNNING_SUBCOMMANDS = new Set(["run", "run-script", "exec", "x", "dlx", "create", "tool"]);
/** Options before a subcommand that take a value (`git -C dir status`). */
const GLOBAL_VALUED: Record<string, string[]> = {
  git: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"],
  npm: ["--prefix", "-w", "--workspace", "-C"],
  pnpm: ["-C", "--dir", "--filter", "-F", "-w", "--workspace"],
  yarn: ["--cwd"],
  bun: ["--cwd", "-c", "--config"],
  cargo: ["-C", "--manifest-path", "--config", "-Z"],
  make: ["-C", "-f", "--file", "--directory", "-j", "-l", "-o", "-W", "-I"],
  gmake: ["-C", "-f", "--file", "--directory", "-j"],
  go: ["-C"],
  docker: ["-H", "--host", "-c", "--context", "--config", "-l", "--log-level"],
  podman: ["--url", "-c", "--connection"],
  kubectl: ["-n", "--namespace", "--context", "--kubeconfig", "-s", "--server"],
  gh: ["-R", "--repo"],
  terraform: ["-chdir"],
};
/** Redirections that leave nothing behind: they are no part of a command's identity. */
const SILENT_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);

/** The subject of a command line, from its parsed simple commands. */
export function commandSubject(commands: SimpleCommand[]): Subject {
  const parts: CommandPart[] = [];
  for (const command of commands) {
    const part = partOf(command);
    if (typeof part === "string") return { kind: "command", parts: [], dynamic: part };
    parts.push(part);
  }
  return parts.length === 0 ? { kind: "command", parts, dynamic: "no command" } : { kind: "command", parts };
}

/** The part a simple command is, or why it is dynamic. */
function partOf(command: SimpleCommand): CommandPart | string {
  if (command.words.length === 0 && command.loose.length > command.assigns.filter((assign) => assign.value).length) return "a compound command";
  const argv: string[] = [];
  for (const word of command.words) {
    if (word.value === undefined) return `a word that is not static: ${word.source}`;
    argv.push(word.value);
  }
  const assigns: string[] = [];
  for (const assign of command.assigns) {
    if (assign.value && assign.value.value === undefined) return `an assignment that is not static: ${assign.source}`;
    assigns.push(`${assign.name}=${assign.value?.value ?? ""}`);
  }
  const redirects: string[] = [];
  for (const redirect of command.redirects) {
    if (redirect.op === "<<" || redirect.op === "<<-" || redirect.op === "<<<") return "a here-document";
    if (redirect.op === ">&" || redirect.op === "<&") {
      if (!/^(\d+|-)$/.test(redirect.target.value ?? "")) return `a redirection that is not static: ${redirect.target.source}`;
      continue;
    }
    const target = redirect.target.value;
    if (target === undefined) return `a redirection that is not static: ${redirect.target.source}`;
    if (!SILENT_TARGETS.has(target)) redirects.push(`${redirect.op} ${target}`);
  }
  if (argv.length > 0) {
    const invocation = invocationOf(command);
    if (invocation.wrappers.includes("xargs")) return "xargs runs what it reads";
    if (invocation.scripts.length > 0) return "inline code";
    const name = invocation.name;
    if (name === "eval" || name === "source" || name === "." || name === "exec") return "inline code";
    if (isInterpreter(name) || SHELLS.has(name) || name === "awk" || name === "gawk") {
      const input = name === "awk" || name === "gawk" ? { inline: 0, stdin: false } : interpreterInput(invocation);
      if (input.inline !== undefined) return "inline code";
      if (input.stdin) return "a shell or interpreter reading its standard input";
    }
  }
  return { assigns: assigns.sort(), argv, redirects: redirects.sort() };
}

/** The subject of an edit: the files it writes, as absolute paths. */
export function filesSubject(paths: string[], place: Place): Subject {
  const files = [...new Set(paths.map((path) => posix.resolve(place.directory, path)))].sort();
  return files.length === 0 ? { kind: "files", files, dynamic: "no file" } : { kind: "files", files };
}

/** The subject of any other request: its patterns. */
export function exactSubject(patterns: string[]): Subject {
  if (patterns.length === 0 || patterns.some((pattern) => pattern.trim() === "*" || pattern.trim() === "")) return { kind: "exact", patterns, dynamic: "any" };
  return { kind: "exact", patterns: [...patterns].sort() };
}

/** The scope of the rule a subject makes; undefined: none can be made. */
export function scopeOf(subject: Subject): RuleScope | undefined {
  if (subject.dynamic !== undefined) return undefined;
  if (subject.kind === "files") return { kind: "files", files: subject.files };
  if (subject.kind === "exact") return { kind: "exact", patterns: subject.patterns };
  const entries: ScopeEntry[] = [];
  for (const part of subject.parts) {
    const entry = entryOf(part);
    if (!entries.some((known) => sameEntry(known, entry))) entries.push(entry);
  }
  return { kind: "command", entries };
}

/** Whether a rule's scope covers a subject (never a dynamic one). */
export function covers(scope: RuleScope, subject: Subject): boolean {
  if (subject.dynamic !== undefined || scope.kind !== subject.kind) return false;
  if (scope.kind === "files" && subject.kind === "files") return subject.files.every((file) => scope.files.includes(file));
  if (scope.kind === "exact" && subject.kind === "exact") return subject.patterns.every((pattern) => scope.patterns.includes(pattern));
  if (scope.kind === "command" && subject.kind === "command")
    return subject.parts.length > 0 && subject.parts.every((part) => scope.entries.some((entry) => entryCovers(entry, part)));
  return false;
}

function entryCovers(entry: ScopeEntry, part: CommandPart): boolean {
  if (!sameList(entry.assigns, part.assigns) || !sameList(entry.redirects, part.redirects)) return false;
  if (entry.open ? part.argv.length < entry.prefix.length : part.argv.length !== entry.prefix.length) return false;
  return entry.prefix.every((word, index) => part.argv[index] === word);
}

/** How much of a simple command a rule keeps: the program and its subcommand or script, or all of it. */
function entryOf(part: CommandPart): ScopeEntry {
  const exact = { assigns: part.assigns, prefix: part.argv, open: false, redirects: part.redirects };
  const start = programIndex(part.argv);
  if (start < 0) return exact;
  const name = posix.basename(part.argv[start]!);
  const args = part.argv.slice(start + 1);
  const through = (count: number): ScopeEntry => ({ ...exact, prefix: part.argv.slice(0, start + 1 + count), open: true });
  if (isInterpreter(name) || SHELLS.has(name)) {
    // The script right after the program (or python's `-m module`); any option before it: exactly as it was.
    if (args[0] === "-m" && args[1] !== undefined && name.startsWith("python")) return through(2);
    return args[0] !== undefined && !args[0].startsWith("-") ? through(1) : exact;
  }
  const valued = GLOBAL_VALUED[name] ?? [];
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-")) index += valued.includes(args[index]!) ? 2 : 1;
  if (index >= args.length) return exact;
  if (RUNNERS.has(name)) return through(index + 1);
  if (!SUBCOMMANDS.has(name) && !/^\.{0,2}\/?gradlew$/.test(name)) return exact;
  if (RUNNING_SUBCOMMANDS.has(args[index]!)) {
    let next = index + 1;
    while (next < args.length && args[next]!.startsWith("-")) next += 1;
    return next < args.length ? through(next + 1) : exact;
  }
  return through(index + 1);
}

/** Where the program is in argv, after the wrappers invocation.ts knows (`timeout 60 npm test`); -1: none. */
function programIndex(argv: string[]): number {
  if (argv.length === 0) return -1;
  const word = (value: string) => ({ source: value, value, home: false, substitutions: [], escapes: [], params: [], template: [value] });
  const invocation = invocationOf({ source: argv.join(" "), words: argv.map(word), loose: [], assigns: [], redirects: [], upstream: [] });
  return invocation.program ? argv.length - 1 - invocation.args.length : -1;
}

function sameEntry(a: ScopeEntry, b: ScopeEntry): boolean {
  return a.open === b.open && sameList(a.prefix, b.prefix) && sameList(a.assigns, b.assigns) && sameList(a.redirects, b.redirects);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

/** One item of a scope as the phone shows it: a command's start (any arguments may follow), a command exactly, a file. */
export interface ShownScope {
  kind: "open" | "exact" | "file";
  text: string;
}

/** A scope as the phone shows it: one item per entry (`node scripts/check.mjs` open), files relative to the project. */
export function scopeWords(scope: RuleScope, directory: string): ShownScope[] {
  if (scope.kind === "exact") return scope.patterns.map((text) => ({ kind: "exact", text }));
  if (scope.kind === "files")
    return scope.files.map((file) => ({ kind: "file", text: file.startsWith(`${directory}/`) ? file.slice(directory.length + 1) : file }));
  return scope.entries.map((entry) => ({
    kind: entry.open ? "open" : "exact",
    text: [...entry.assigns.map(quoteAssign), ...entry.prefix.map(quoteWord), ...entry.redirects].join(" "),
  }));
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./~^-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function quoteAssign(assign: string): string {
  const at = assign.indexOf("=");
  return `${assign.slice(0, at + 1)}${quoteWord(assign.slice(at + 1))}`;
}
