// A permission request's risk flags: a command read by the shell parser (loaded by the first
// command, never at start-up), a file judged by its path (outside the session's directory, a
// secret, a file that runs later) and, for package.json, by the install scripts its diff adds.
// What a permission is named differs by version (1.x `permission`, 2.x `action`, both arrive here
// as `permission`). Never throws: a request that can't be read is flagged unreadable.
import type { PermissionRequest } from "../hermes-events.ts";
import { commandOf, diffOf, fileOf } from "./permission-subject.ts";
import { pathRisks } from "./path-risks.ts";
import { flagCommand } from "./read-flags.ts";
import { orderFlags, type Place, type RiskFlag } from "./risk.ts";
import { loadShellParser } from "./shell-syntax.ts";

/** Permissions that run a shell command. */
const COMMAND_PERMISSIONS = new Set(["bash", "shell", "command"]);
/** Permissions that write the file they name. */
const WRITE_PERMISSIONS = new Set(["edit", "write", "patch", "apply_patch", "multiedit"]);
/** Permissions that only read. */
const READ_PERMISSIONS = new Set(["read", "list", "glob", "grep"]);
/** package.json scripts npm runs by itself on install. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare", "prepublish"];

export async function flagPermission(request: PermissionRequest, place: Place): Promise<RiskFlag[]> {
  const permission = request.permission;
  if (COMMAND_PERMISSIONS.has(permission)) {
    const command = commandOf(request);
    const commands = command ? [command] : request.patterns;
    if (commands.length === 0) return [];
    const parse = await loadShellParser();
    return orderFlags(commands.flatMap((text) => flagCommand(text, parse, place)));
  }
  const written = WRITE_PERMISSIONS.has(permission);
  if (permission === "external_directory") return request.patterns.map((part) => ({ category: "outside", part }));
  if (!written && !READ_PERMISSIONS.has(permission)) return [];
  const file = fileOf(request);
  const paths = file ? [file] : request.patterns;
  const flags = paths.flatMap((path) => pathRisks(path, place, written).map((category) => ({ category, part: path })));
  const diff = diffOf(request);
  if (written && diff && paths.some((path) => path === "package.json" || path.endsWith("/package.json"))) {
    const added = addsInstallScript(diff);
    if (added) flags.push({ category: "runs-later", part: added });
  }
  return orderFlags(flags);
}

/** The first added line of a diff that names an install script (`+  "postinstall": "…"`). */
function addsInstallScript(diff: string): string | undefined {
  return diff
    .split("\n")
    .filter((line) => line.startsWith("+") && !line.startsWith("+++"))
    .map((line) => line.slice(1).trim())
    .find((line) => INSTALL_SCRIPTS.some((name) => line.startsWith(`"${name}"`)));
}
