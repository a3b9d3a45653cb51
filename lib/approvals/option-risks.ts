// Issue 49's readings of one command behind its wrappers, by what its options and arguments make
// it do: options that run a command (`find -exec`, `tar --checkpoint-action=exec=`, `ssh -o
// ProxyCommand=`, `git -c core.sshCommand=`, `make --eval`, `script -c`, `rsync -e`), package runners
// and remote installs, reverse shells and miners, `git config` keys that run programs or redirect
// pushes, things scheduled to run later, environment that loads code, git's other destructive forms
// and docker's escapes from its container. Each returns the categories and, for an option whose
// value is shell code, that code (read again by read-flags.ts). Pure.
import { SECRET_NAME } from "./inline-code.ts";
import { hasOption, valuesOf, type Invocation } from "./invocation.ts";
import type { RiskCategory } from "./risk.ts";

export interface OptionReading {
  categories: RiskCategory[];
  /** Shell code an option runs (`ssh -o ProxyCommand=…`, `script -c …`): read like `bash -c`. */
  scripts: string[];
  /** A command an option runs as argv (`find -exec sh -c … ;`). */
  commands: string[][];
}

export const NETWORK_TOOLS = new Set(["nc", "ncat", "netcat", "socat", "telnet", "cryptcat", "pwncat"]);
const MINERS = /^(xmrig|minerd|cpuminer|ethminer|nbminer|t-rex|lolminer|cgminer|bfgminer)/i;

/** git config keys whose value is a program git runs, or where pushes and fetches go. */
const GIT_RUNNING_KEYS = [
  /^core\.(hookspath|fsmonitor|sshcommand|pager|editor|askpass|gitproxy)$/,
  /^diff\.external$/,
  /^diff\..+\.(textconv|command)$/,
  /^merge\..+\.driver$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^credential\.(.+\.)?helper$/,
  /^remote\..+\.(pushurl|url|receivepack|uploadpack|proxy)$/,
  /^url\..+\.(insteadof|pushinsteadof)$/,
  /^init\.templatedir$/,
  /^include(if\..+)?\.path$/,
  /^gpg(\..+)?\.program$/,
  /^sequence\.editor$/,
  /^uploadpack\.packobjectshook$/,
  /^pager\..+$/,
  /^(web\.browser|browser\..+\.(cmd|path)|man\..+\.(cmd|path))$/,
  /^sendemail\.(smtpserver|tocmd|cccmd)$/,
];

function reading(): OptionReading {
  return { categories: [], scripts: [], commands: [] };
}

/** The value of `-o X=V`, `-oX=V` (ssh options), case-insensitively by key. */
function sshOptions(values: string[]): { key: string; value: string }[] {
  const found: { key: string; value: string }[] = [];
  values.forEach((value, index) => {
    const text = value === "-o" ? values[index + 1] : value.startsWith("-o") && value.length > 2 ? value.slice(2) : undefined;
    if (text === undefined) return;
    const match = /^([A-Za-z]+)\s*[= ]\s*(.*)$/s.exec(text);
    if (match) found.push({ key: match[1]!.toLowerCase(), value: match[2]! });
  });
  return found;
}

/** `git [-C d] [-c k=v]… sub args`: its `-c` settings and the rest. */
export function gitParts(values: string[]): { settings: { key: string; value: string }[]; sub: string; args: string[] } {
  const settings: { key: string; value: string }[] = [];
  let index = 0;
  while (index < values.length && values[index]!.startsWith("-")) {
    const value = values[index]!;
    if (value === "-c" && values[index + 1] !== undefined) {
      const setting = values[index + 1]!;
      const at = setting.indexOf("=");
      settings.push({ key: (at < 0 ? setting : setting.slice(0, at)).toLowerCase(), value: at < 0 ? "" : setting.slice(at + 1) });
    }
    index += ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--exec-path"].includes(value) ? 2 : 1;
  }
  return { settings, sub: values[index] ?? "", args: values.slice(index + 1) };
}

function isRunningKey(key: string, value: string): boolean {
  if (key.startsWith("alias.")) return value.trimStart().startsWith("!");
  return GIT_RUNNING_KEYS.some((pattern) => pattern.test(key));
}

/** Categories (and code) an invocation earns by its options and arguments. */
export function optionRisks(invocation: Invocation): OptionReading {
  const found = reading();
  const { name, args } = invocation;
  const values = valuesOf(args);
  const add = (category: RiskCategory) => found.categories.push(category);
  // Anywhere: a miner's pool, a reverse shell's device.
  if (values.some((value) => /stratum\d?\+(tcp|ssl|tls):\/\//i.test(value)) || MINERS.test(name)) add("network-code");
  switch (name) {
    case "find": {
      values.forEach((value, index) => {
        if (!["-exec", "-execdir", "-ok", "-okdir"].includes(value)) return;
        const end = values.findIndex((next, at) => at > index && (next === ";" || next === "+"));
        found.commands.push(values.slice(index + 1, end < 0 ? undefined : end).filter((word) => word !== "{}"));
      });
      break;
    }
    case "tar":
    case "gtar":
    case "bsdtar":
      if (
        values.some((value) =>
          /^--(checkpoint-action=(exec|shell)|to-command|use-compress-program|rsh-command|info-script|new-volume-script|rmt-command)/.test(value),
        ) ||
        values.some((value, index) => value === "-I" || (value === "-F" && index > 0))
      )
        add("runs-code");
      break;
    case "ssh":
    case "scp":
    case "sftp":
      for (const option of sshOptions(values))
        if (["proxycommand", "localcommand", "knownhostscommand", "permitlocalcommand", "remotecommand"].includes(option.key)) {
          add("runs-code");
          if (option.key !== "permitlocalcommand") found.scripts.push(option.value);
        }
      if (name === "scp" && values.includes("-S")) add("runs-code");
      break;
    case "git": {
      const { settings, sub, args: rest } = gitParts(values);
      for (const setting of settings) {
        if (isRunningKey(setting.key, setting.value)) add("runs-code");
        if (setting.key.startsWith("alias.") && setting.value.trimStart().startsWith("!")) found.scripts.push(setting.value.trimStart().slice(1));
      }
      const alias = settings.find((setting) => setting.key === `alias.${sub.toLowerCase()}` && !setting.value.trimStart().startsWith("!"));
      // `git -c alias.x='reset --hard' x`: judged as what it stands for.
      if (alias) found.commands.push(["git", ...alias.value.trim().split(/\s+/), ...rest]);
      found.categories.push(...gitRisks(sub, rest));
      break;
    }
    case "make":
    case "gmake":
      if (values.some((value) => value === "--eval" || value.startsWith("--eval=") || value === "-E")) add("runs-code");
      break;
    case "script": {
      const at = values.findIndex((value) => value === "-c" || value === "--command");
      if (at >= 0) {
        add("runs-code");
        if (values[at + 1] !== undefined) found.scripts.push(values[at + 1]!);
      }
      break;
    }
    case "rsync":
      if (values.some((value) => value === "-e" || value.startsWith("--rsh") || value.startsWith("--rsync-path"))) add("runs-code");
      break;
    case "socat":
      if (values.some((value) => /(^|[,!])(exec|system):/i.test(value))) add("network-code");
      break;
    case "nc":
    case "ncat":
    case "netcat":
    case "cryptcat":
      if (hasOption(args, "ec", ["--exec", "--sh-exec", "--lua-exec"])) add("network-code");
      break;
    case "npx":
    case "bunx":
    case "pnpx":
      if (fetchesPackage(values)) add("network-code");
      break;
    case "uvx":
      add("network-code");
      break;
    case "pipx":
      if (values[0] === "run") add("network-code");
      break;
    case "npm":
    case "pnpm":
    case "yarn":
    case "bun": {
      const sub = values.find((value) => !value.startsWith("-")) ?? "";
      const after = values.slice(values.indexOf(sub) + 1);
      if (sub === "dlx" || (name === "bun" && sub === "x")) add("network-code");
      if ((sub === "exec" || sub === "x") && name === "npm" && fetchesPackage(after)) add("network-code");
      if (["install", "i", "add", "update"].includes(sub) && after.some(isRemoteSpec)) add("network-code");
      if (name === "npm" && sub === "pkg" && after[0] === "set" && after.some((value) => /^scripts\./.test(value))) add("runs-later");
      break;
    }
    case "pip":
    case "pip3":
    case "uv": {
      const rest = name === "uv" && values[0] === "pip" ? values.slice(1) : values;
      if (rest[0] === "install" && rest.some((value) => isRemoteSpec(value) || /^(-i|--index-url|--extra-index-url|-f|--find-links)(=|$)/.test(value)))
        add("network-code");
      break;
    }
    case "deno":
      if (["run", "install", "eval"].includes(values[0] ?? "") && values.some((value) => /^(https?|npm|jsr):/.test(value))) add("network-code");
      break;
    case "go":
      if ((values[0] === "run" || values[0] === "install") && values.slice(1).some((value) => /^[\w.-]+\.[a-z]{2,}\/.*@/.test(value))) add("network-code");
      break;
    case "cargo":
      if (values[0] === "install" && values.some((value) => value === "--git" || value.startsWith("--git=") || value.includes("://"))) add("network-code");
      break;
    case "at":
    case "batch":
      if (!values.some((value) => ["-l", "-r", "-d", "-c"].includes(value))) add("runs-later");
      break;
    case "systemctl":
      if (values.some((value) => ["enable", "link", "reenable", "preset", "edit", "set-property"].includes(value))) add("runs-later");
      break;
    case "launchctl":
      if (values.some((value) => ["load", "bootstrap", "submit", "enable"].includes(value))) add("runs-later");
      break;
    case "printenv":
      if (values.some((value) => SECRET_NAME.test(value))) add("secrets");
      break;
    case "jq":
    case "gojq":
      if (values.some((value) => /(^|[^\w.])(env|\$ENV|\$__loc__)\b/.test(value) && !value.startsWith("-"))) add("secrets");
      break;
    case "gpg":
    case "gpg2":
      if (values.some((value) => value.startsWith("--export-secret"))) add("secrets");
      break;
    case "kubectl":
      if ((values[0] === "get" || values[0] === "describe") && /^secrets?$/.test(values[1] ?? "")) add("secrets");
      break;
    case "docker":
    case "podman":
    case "nerdctl": {
      const sub = values.find((value) => !value.startsWith("-")) ?? "";
      if (sub === "run" || sub === "create" || (sub === "container" && ["run", "create"].includes(values[values.indexOf(sub) + 1] ?? ""))) {
        if (
          values.some(
            (value) =>
              /^--(privileged|pid=host|ipc=host|userns=host|uts=host|cgroupns=host)$/.test(value) ||
              /^--(cap-add|device)(=|$)/.test(value) ||
              /^--security-opt(=|$)/.test(value),
          ) ||
          values.some((value, index) => value === "--pid" && values[index + 1] === "host")
        )
          add("elevated");
      }
      break;
    }
    default:
      break;
  }
  return found;
}

/** A package runner that fetches: `-y`/`--yes`, `--package`, a version (`pkg@latest`), a URL or a git spec. */
function fetchesPackage(values: string[]): boolean {
  // Only the runner's own options count: after the package come the package's.
  const at = values.findIndex((value) => !value.startsWith("-"));
  const own = at < 0 ? values : values.slice(0, at);
  if (own.some((value) => ["-y", "--yes", "-p", "--package"].includes(value) || value.startsWith("--package="))) return true;
  const first = at < 0 ? undefined : values[at];
  return first !== undefined && (isRemoteSpec(first) || /^(@[\w.-]+\/)?[\w.-]+@/.test(first));
}

/** A package spec fetched from a URL or a forge (`https://…tgz`, `git+https://…`, `github:u/r`). */
function isRemoteSpec(value: string): boolean {
  return /^(git\+|github:|gitlab:|bitbucket:|gist:)/.test(value) || value.includes("://");
}

/** git's destructive and redirecting forms beyond command-risks.ts' own. */
function gitRisks(sub: string, args: string[]): RiskCategory[] {
  const short = (letters: string) => args.some((arg) => /^-[a-zA-Z]+$/.test(arg) && [...arg.slice(1)].some((c) => letters.includes(c)));
  switch (sub) {
    case "rm":
      return short("r") || args.includes("--recursive") ? ["deletes"] : [];
    case "switch":
      return short("f") || args.includes("--force") || args.includes("--discard-changes") ? ["deletes"] : [];
    case "update-ref":
      return args.includes("-d") || args.includes("--delete") ? ["deletes"] : [];
    case "reflog":
      return args[0] === "expire" || args[0] === "delete" ? ["deletes"] : [];
    case "gc":
    case "prune":
      return sub === "prune" || args.some((arg) => arg.startsWith("--prune")) ? ["deletes"] : [];
    case "worktree":
      return args[0] === "remove" && (short("f") || args.includes("--force")) ? ["deletes"] : [];
    case "credential":
    case "credential-store":
    case "credential-cache":
      return args.includes("fill") || args.includes("get") ? ["secrets"] : [];
    case "remote":
      return args[0] === "set-url" ? ["runs-later"] : [];
    case "config": {
      if (args.some((arg) => /^(--get|--list|-l|--unset|--show|--name-only|--get-regexp|--get-all)/.test(arg))) return [];
      const operands = args.filter((arg) => !arg.startsWith("-"));
      const [first = "", second, third] = operands;
      // `git config set key value` (git 2.46) or `git config key value`.
      const [key, value] = first === "set" || first === "add" ? [second ?? "", third] : [first, second];
      if (value === undefined) return [];
      return isRunningKey(key.toLowerCase(), value) ? ["runs-later"] : [];
    }
    default:
      return [];
  }
}
