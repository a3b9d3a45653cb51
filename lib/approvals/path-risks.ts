// What a path says about risk, pure: outside the session's directory, a secret, or a file that
// runs later (CI workflows, git hooks, shell startup files). Used for a command's words and for
// edit, write and read permissions alike.
import { posix } from "node:path";
import type { Place, RiskCategory } from "./risk.ts";

/** Places outside the project that are no one's files: writing or reading there leaves nothing behind. */
const NOWHERE = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/fd", "/dev/zero", "/dev/urandom", "/dev/random"];
/** Scratch space: outside the project, but not someone's files (still flagged when deleted recursively). */
const SCRATCH = ["/tmp", "/var/tmp", "/private/tmp"];

/** Templates of a `.env` file, which hold no secrets. */
const ENV_TEMPLATES = new Set([".env.example", ".env.sample", ".env.template", ".env.dist", ".env.defaults", ".env.test.example"]);
/** Directories (anywhere in a path) that hold credentials. */
const SECRET_DIRS = [".ssh", ".aws", ".gnupg", ".config/gh", ".kube", ".docker", ".azure", ".config/gcloud", ".local/share/opencode", ".password-store"];
/** File names that hold credentials. */
const SECRET_FILES = new Set([
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".pgpass",
  "credentials.json",
  "secrets.json",
  ".bash_history",
  ".zsh_history",
  ".python_history",
  ".psql_history",
  ".mysql_history",
  ".node_repl_history",
  "environ",
]);
const SECRET_PREFIXES = ["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"];
const SECRET_EXTENSIONS = [".pem", ".p12", ".pfx", ".key"];

/** Shell startup files: what is written there runs in every new shell. */
const STARTUP_FILES = new Set([
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zprofile",
  ".zshenv",
  ".zlogin",
  "config.fish",
]);
/** Directories whose files run later on their own: CI, git hooks, service and login items. */
const RUNS_LATER_DIRS = [
  ".github/workflows",
  ".github/actions",
  ".git/hooks",
  ".husky",
  ".circleci",
  ".opencode",
  ".config/opencode",
  ".config/systemd",
  ".config/autostart",
  "Library/LaunchAgents",
  ".devcontainer",
];
/** Files read as configuration that runs programs: CI, OpenCode's own config (its plugins, commands, permissions), direnv, editors' tasks. */
const RUNS_LATER_FILES = new Set([
  ".gitlab-ci.yml",
  ".travis.yml",
  "azure-pipelines.yml",
  "bitbucket-pipelines.yml",
  "Jenkinsfile",
  "opencode.json",
  "opencode.jsonc",
  ".envrc",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  ".lefthook.yml",
  "lefthook.yaml",
  ".gitconfig",
  ".lintstagedrc",
  ".lintstagedrc.json",
]);
/** Paths (their last segments) that run later: git's own config and attributes (hooks, filters, fsmonitor), editors' tasks and settings. */
const RUNS_LATER_PATHS = [".git/config", ".git/info/attributes", ".vscode/tasks.json", ".vscode/settings.json", ".vscode/launch.json", ".idea/workspace.xml"];

/** The path as an absolute one (undefined when it names no file: a URL, an option). */
export function resolvePath(path: string, place: Place): string | undefined {
  if (path === "" || path.includes("://")) return undefined;
  if (path === "~" || path.startsWith("~/")) return posix.normalize(posix.join(place.home, path.slice(1)));
  if (path.startsWith("~")) return "/home"; // another user's home
  return posix.resolve(place.cwd ?? place.directory, path);
}

function isUnder(path: string, directory: string): boolean {
  return path === directory || path.startsWith(directory.endsWith("/") ? directory : `${directory}/`);
}

/** Outside the session's directory, and not a place that is no one's files. */
export function isOutside(path: string, place: Place): boolean {
  const absolute = resolvePath(path, place);
  if (absolute === undefined || isUnder(absolute, posix.resolve(place.directory))) return false;
  return !NOWHERE.some((nowhere) => isUnder(absolute, nowhere)) && !SCRATCH.some((scratch) => isUnder(absolute, scratch));
}

/** The path's segments, normalised (`./a/../b` → `["b"]`). */
function segmentsOf(path: string): string[] {
  return posix
    .normalize(path)
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".");
}

function containsDir(segments: string[], dirs: string[]): boolean {
  const joined = `/${segments.join("/")}/`;
  return dirs.some((dir) => joined.includes(`/${dir}/`));
}

export function isSecret(path: string): boolean {
  const segments = segmentsOf(path);
  const name = segments.at(-1) ?? "";
  if ((name === ".env" || name.startsWith(".env.")) && !ENV_TEMPLATES.has(name)) return true;
  if (SECRET_FILES.has(name) || SECRET_PREFIXES.some((prefix) => name.startsWith(prefix)) || SECRET_EXTENSIONS.some((ext) => name.endsWith(ext)))
    return !name.endsWith(".pub");
  return containsDir(segments, SECRET_DIRS);
}

export function runsLater(path: string): boolean {
  const segments = segmentsOf(path);
  const name = segments.at(-1) ?? "";
  const joined = `/${segments.join("/")}`;
  return (
    STARTUP_FILES.has(name) ||
    RUNS_LATER_FILES.has(name) ||
    containsDir(segments.slice(0, -1), RUNS_LATER_DIRS) ||
    // The directory itself: a destination (`cp hook .git/hooks/`).
    RUNS_LATER_DIRS.some((dir) => joined.endsWith(`/${dir}`)) ||
    RUNS_LATER_PATHS.some((path) => joined.endsWith(`/${path}`))
  );
}

/** What a path a request touches is, as risk categories ("written": the request writes it). */
export function pathRisks(path: string, place: Place, written: boolean): RiskCategory[] {
  const found: RiskCategory[] = [];
  if (isSecret(path)) found.push("secrets");
  if (written && runsLater(path)) found.push("runs-later");
  if (isOutside(path, place)) found.push("outside");
  return found;
}
