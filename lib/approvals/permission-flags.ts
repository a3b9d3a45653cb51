// A permission request's risk flags and its subject (what a session rule compares, rule-scope.ts):
// a command read by the shell parser (loaded by the first command, never at start-up) as the whole
// line the agent asked to run (tool-commands.ts), each file an edit writes judged on its own (by
// its path: outside the session's directory, a secret, a file that runs later; a package.json by
// the install scripts its own diff adds). What a permission is named differs by version (1.x
// `permission`, 2.x `action`, both arrive here as `permission`). Never throws: a request that can't
// be read is flagged unreadable.
import type { PermissionRequest } from "../hermes-events.ts";
import { diffOf, fileOf } from "./permission-subject.ts";
import { pathRisks } from "./path-risks.ts";
import { flagCommand } from "./read-flags.ts";
import { orderFlags, type Place, type RiskFlag } from "./risk.ts";
import { commandSubject, exactSubject, filesSubject, type Subject } from "./rule-scope.ts";
import { loadShellParser } from "./shell-syntax.ts";
import { ToolCommands, type CommandLine } from "./tool-commands.ts";

/** Permissions that run a shell command. */
const COMMAND_PERMISSIONS = new Set(["bash", "shell", "command"]);
/** Permissions that write the file they name. */
const WRITE_PERMISSIONS = new Set(["edit", "write", "patch", "apply_patch", "multiedit"]);
/** Permissions that only read. */
const READ_PERMISSIONS = new Set(["read", "list", "glob", "grep"]);
/** package.json scripts npm runs by itself on install. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare", "prepublish", "prepack", "postpack"];

export interface Judgement {
  flags: RiskFlag[];
  subject: Subject;
}

export async function flagPermission(request: PermissionRequest, place: Place): Promise<RiskFlag[]> {
  return (await judgePermission(request, place)).flags;
}

/** The flags and the subject of a request; `line`: the whole command line, when known (tool-commands.ts). */
export async function judgePermission(request: PermissionRequest, place: Place, line?: CommandLine): Promise<Judgement> {
  const permission = request.permission;
  if (COMMAND_PERMISSIONS.has(permission)) {
    const command = line ?? commandLineOf(request);
    if (!command) return { flags: [], subject: { kind: "command", parts: [], dynamic: "no command" } };
    const parse = await loadShellParser();
    const flags = orderFlags(flagCommand(command.text, parse, place));
    const parsed = parse(command.text);
    const subject: Subject = parsed.ok ? commandSubject(parsed.commands) : { kind: "command", parts: [], dynamic: "unreadable" };
    if (!command.whole && subject.dynamic === undefined) subject.dynamic = "only the parts of the line are known";
    return { flags, subject };
  }
  const written = WRITE_PERMISSIONS.has(permission);
  if (permission === "external_directory")
    return { flags: request.patterns.map((part) => ({ category: "outside", part })), subject: exactSubject(request.patterns) };
  if (!written && !READ_PERMISSIONS.has(permission)) return { flags: [], subject: exactSubject(request.patterns) };
  const files = written ? writtenFiles(request) : readFiles(request);
  const flags = files.flatMap((file) => pathRisks(file.path, place, written).map((category) => ({ category, part: file.path })));
  if (written)
    for (const file of files) {
      if (file.path !== "package.json" && !file.path.endsWith("/package.json")) continue;
      const added = file.diff === undefined ? undefined : addsInstallScript(file.diff);
      if (added) flags.push({ category: "runs-later", part: `${file.path}: ${added}` });
    }
  const subject = written
    ? filesSubject(
        files.map((file) => file.path),
        place,
      )
    : exactSubject(request.patterns.length > 0 ? request.patterns : files.map((file) => file.path));
  return { flags: orderFlags(flags), subject };
}

/** The line of a request without its tool call's input: 1.18's `metadata.command`, else the parts joined by pipes. */
function commandLineOf(request: PermissionRequest): CommandLine | undefined {
  return new ToolCommands().lineOf(request);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface WrittenFile {
  path: string;
  /** Its own diff, when the request says which part of the change is this file's (or it is the only file). */
  diff?: string;
}

/**
 * Every file a request writes, each on its own: its `patterns`, `metadata.files[]` (2.0.15
 * `{ file, patch }`, 1.x apply_patch `{ filePath, relativePath, movePath, diff }`) and
 * `metadata.filepath` (which apply_patch joins with ", ": its pieces are judged too).
 */
function writtenFiles(request: PermissionRequest): WrittenFile[] {
  const found = new Map<string, WrittenFile>();
  const add = (path: unknown, diff?: unknown) => {
    if (typeof path !== "string" || path.trim() === "") return;
    const known = found.get(path);
    if (known) {
      if (known.diff === undefined && typeof diff === "string") known.diff = diff;
      return;
    }
    found.set(path, typeof diff === "string" ? { path, diff } : { path });
  };
  const entries = Array.isArray(request.metadata.files) ? request.metadata.files.filter(isRecord) : [];
  for (const entry of entries) {
    const diff = entry.patch ?? entry.diff;
    for (const key of ["file", "filePath", "filepath", "relativePath", "movePath", "path"]) add(entry[key], diff);
  }
  const filepath = fileOf(request);
  const whole = diffOf(request);
  const single = entries.length <= 1 && request.patterns.length <= 1;
  if (filepath !== undefined) {
    add(filepath, single ? whole : undefined);
    if (filepath.includes(", ")) for (const piece of filepath.split(", ")) add(piece);
  }
  // 1.x names a file relative to the worktree, which is `/` outside a git repository: a pattern that ends a known path is that file.
  const known = () => [...found.keys()];
  for (const pattern of request.patterns)
    if (!known().some((path) => path.startsWith("/") && path.endsWith(`/${pattern}`))) add(pattern, single ? whole : undefined);
  // A package.json whose own part of the change is unknown is judged by the whole diff.
  for (const file of found.values()) if (file.diff === undefined && whole !== undefined) file.diff = whole;
  return [...found.values()];
}

function readFiles(request: PermissionRequest): WrittenFile[] {
  const file = fileOf(request);
  return (file ? [file] : request.patterns).map((path) => ({ path }));
}

/** The first added line of a diff that names an install script (`+  "postinstall": "…"`). */
function addsInstallScript(diff: string): string | undefined {
  return diff
    .split("\n")
    .filter((line) => line.startsWith("+") && !line.startsWith("+++"))
    .map((line) => line.slice(1).trim())
    .find((line) => INSTALL_SCRIPTS.some((name) => line.startsWith(`"${name}"`)));
}
