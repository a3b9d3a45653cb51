// What one command (behind its wrappers) does that deserves a flag, by what it is: deletes,
// force-pushes, elevated rights, secrets, edits that run later, publishing. How commands feed one
// another (a download into a shell) is read-flags.ts' part. Pure.
import { hasOption, valuesOf, type Invocation } from "./invocation.ts";
import type { RiskCategory } from "./risk.ts";

/** Programs that fetch from the network. */
export const DOWNLOADERS = new Set(["curl", "wget", "fetch", "http", "https", "xh", "aria2c", "lwp-download", "lwp-request", "GET"]);
/** Programs that run the code they are given (on standard input, as a file, or inline). */
export const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "fish",
  "python",
  "python2",
  "python3",
  "node",
  "nodejs",
  "perl",
  "ruby",
  "php",
  "deno",
  "bun",
  "pwsh",
  "powershell",
  "lua",
  "source",
  ".",
  "eval",
]);
/** The inline-code option of each interpreter. */
const INLINE_CODE = new Set(["-c", "-e", "--eval", "-p", "--print", "-r", "-Command", "--command"]);

export function isInterpreter(name: string): boolean {
  return INTERPRETERS.has(name) || /^python3\.\d+$/.test(name);
}

/** What an interpreter runs: inline code, a script operand, or its standard input. */
export function interpreterInput(invocation: Invocation): { inline?: number; operand?: number; stdin: boolean } {
  const values = valuesOf(invocation.args);
  const inline = values.findIndex((value) => INLINE_CODE.has(value) || /^-[a-zA-Z]*c$/.test(value));
  if (inline >= 0 && !["source", ".", "eval"].includes(invocation.name)) return { inline: inline + 1, stdin: false };
  const operand = values.findIndex((value) => !value.startsWith("-") || value === "-");
  if (operand < 0 || values.includes("-s")) return { stdin: true };
  return values[operand] === "-" || values[operand] === "/dev/stdin" ? { stdin: true } : { operand, stdin: false };
}

/** A program that decodes hidden text (base64 -d, xxd -r, openssl … -d). */
export function isDecoder(invocation: Invocation): boolean {
  const { name, args } = invocation;
  if (name === "base64" || name === "base32" || name === "basenc") return hasOption(args, "dD", ["--decode"]);
  if (name === "xxd") return hasOption(args, "r", ["-revert"]);
  if (name === "openssl") return hasOption(args, "d", ["-d", "-decode"]) || valuesOf(args).includes("-d");
  return name === "uudecode" || name === "rev";
}

type Rule = (invocation: Invocation) => RiskCategory | undefined;

const FORCE_VALUES = new Set(["--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "--prune"]);

/** `git [-C dir] [-c k=v] <sub> …`: the subcommand and its arguments. */
function gitCommand(invocation: Invocation): { sub: string; args: string[] } {
  const values = valuesOf(invocation.args);
  let index = 0;
  while (index < values.length && values[index]!.startsWith("-"))
    index += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(values[index]!) ? 2 : 1;
  return { sub: values[index] ?? "", args: values.slice(index + 1) };
}

function git(invocation: Invocation): RiskCategory | undefined {
  const { sub, args } = gitCommand(invocation);
  const short = (letters: string) => args.some((arg) => /^-[a-zA-Z]+$/.test(arg) && [...arg.slice(1)].some((c) => letters.includes(c)));
  switch (sub) {
    case "push":
      return short("f") || args.some((arg) => FORCE_VALUES.has(arg.split("=")[0]!) || arg.startsWith("+") || arg.startsWith(":")) ? "force-push" : "publishes";
    case "clean":
      return short("f") || args.includes("--force") ? "deletes" : undefined;
    case "reset":
      return args.includes("--hard") || args.includes("--merge") ? "deletes" : undefined;
    case "checkout":
      return args.includes("--") || args.includes(".") || short("f") || args.includes("--force") ? "deletes" : undefined;
    case "restore":
      return !args.includes("--staged") || args.includes("--worktree") ? "deletes" : undefined;
    case "stash":
      return args[0] === "drop" || args[0] === "clear" ? "deletes" : undefined;
    case "branch":
      return short("D") || (short("d") && short("f")) ? "deletes" : undefined;
    case "filter-branch":
    case "filter-repo":
      return "deletes";
    default:
      return undefined;
  }
}

const GH_PUBLISHING: Record<string, string[]> = {
  pr: ["merge", "create", "close", "comment", "review", "edit", "ready"],
  issue: ["create", "close", "comment", "edit", "delete", "transfer"],
  release: ["create", "delete", "upload", "edit"],
  repo: ["create", "delete", "edit", "rename", "archive", "fork"],
  workflow: ["run", "enable", "disable"],
  secret: ["set", "delete"],
  gist: ["create", "edit", "delete"],
};

/** Deploy tools and the subcommands of theirs that change what others see ("" : any use). */
const DEPLOYS: Record<string, string[]> = {
  docker: ["push"],
  podman: ["push"],
  kubectl: ["apply", "delete", "create", "replace", "patch", "rollout", "scale", "set", "edit"],
  helm: ["install", "upgrade", "uninstall", "rollback"],
  terraform: ["apply", "destroy", "import"],
  tofu: ["apply", "destroy"],
  pulumi: ["up", "destroy"],
  vercel: ["", "deploy", "--prod"],
  netlify: ["deploy"],
  fly: ["deploy"],
  flyctl: ["deploy"],
  firebase: ["deploy"],
  wrangler: ["deploy", "publish"],
  serverless: ["deploy"],
  sls: ["deploy"],
  cdk: ["deploy", "destroy"],
  heroku: ["releases:rollback", "config:set"],
  twine: ["upload"],
  gem: ["push"],
  cargo: ["publish", "yank"],
  poetry: ["publish"],
  eb: ["deploy"],
  gcloud: ["deploy"],
  aws: ["s3", "deploy", "cloudformation", "lambda"],
};

const PUBLISHING_PACKAGERS = new Set(["npm", "pnpm", "yarn", "bun"]);

const RULES: Record<string, Rule> = {
  rm: (i) => (hasOption(i.args, "rR", ["--recursive"]) && !onlyGenerated(i) ? "deletes" : undefined),
  find: (i) => {
    const values = valuesOf(i.args);
    if (values.includes("-delete")) return "deletes";
    const exec = values.findIndex((value) => value === "-exec" || value === "-execdir" || value === "-ok");
    return exec >= 0 && ["rm", "shred", "unlink", "truncate"].includes(values[exec + 1]?.split("/").at(-1) ?? "") ? "deletes" : undefined;
  },
  truncate: () => "deletes",
  shred: () => "deletes",
  wipefs: () => "deletes",
  dd: (i) => (valuesOf(i.args).some((value) => value.startsWith("of=")) ? "deletes" : undefined),
  git,
  sudo: () => "elevated",
  su: () => "elevated",
  doas: () => "elevated",
  pkexec: () => "elevated",
  chown: () => "elevated",
  chgrp: () => "elevated",
  chmod: (i) => (hasOption(i.args, "R", ["--recursive"]) || valuesOf(i.args).some(isLooseMode) ? "elevated" : undefined),
  printenv: (i) => (i.args.length === 0 ? "secrets" : undefined),
  env: (i) => (i.args.length === 0 ? "secrets" : undefined),
  set: (i) => (i.args.length === 0 ? "secrets" : undefined),
  export: (i) => (i.args.length === 0 || valuesOf(i.args).every((value) => value === "-p") ? "secrets" : undefined),
  declare: (i) => (valuesOf(i.args).every((value) => /^-[a-zA-Z]*[px][a-zA-Z]*$/.test(value)) ? "secrets" : undefined),
  security: (i) => (valuesOf(i.args).some((value) => value.startsWith("find-") && value.endsWith("-password")) ? "secrets" : undefined),
  crontab: (i) => (valuesOf(i.args).includes("-l") ? undefined : "runs-later"),
  gh: (i) => {
    const [group = "", action = ""] = valuesOf(i.args);
    if (group === "auth") return action === "token" || action === "status" ? "secrets" : undefined;
    if (group === "api")
      return valuesOf(i.args).some((value) => /^(POST|PUT|PATCH|DELETE)$/i.test(value) || /^--method=(POST|PUT|PATCH|DELETE)$/i.test(value))
        ? "publishes"
        : undefined;
    return GH_PUBLISHING[group]?.includes(action) ? "publishes" : undefined;
  },
  rsync: (i) => (valuesOf(i.args).some(isRemote) ? "publishes" : undefined),
  scp: (i) => (valuesOf(i.args).slice(-1).some(isRemote) ? "publishes" : undefined),
};

/** What builds and installs make again: deleting it loses nothing (`rm -rf node_modules dist`). */
const GENERATED = new Set([
  "node_modules",
  "dist",
  "build",
  "out",
  "coverage",
  ".nyc_output",
  ".next",
  ".nuxt",
  ".turbo",
  ".cache",
  ".parcel-cache",
  ".vite",
  ".svelte-kit",
  ".angular",
  "target",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".tox",
  "storybook-static",
  ".gradle",
]);

/** Every operand a static relative path inside the project whose first segment is generated. */
function onlyGenerated(invocation: Invocation): boolean {
  const operands = valuesOf(invocation.args).filter((value) => !value.startsWith("-"));
  return (
    operands.length > 0 &&
    invocation.args.every((word) => word.value !== undefined) &&
    operands.every((value) => {
      const segments = value.replace(/^\.\//, "").split("/").filter(Boolean);
      return !value.startsWith("/") && !value.startsWith("~") && !segments.includes("..") && GENERATED.has(segments[0] ?? "");
    })
  );
}

/** A mode that lets everyone write (777, 666, o+w, a+w) or sets an id bit (4755, u+s). */
function isLooseMode(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return (Number(mode.at(-1)) & 2) !== 0 || (mode.length === 4 && Number(mode[0]) > 0);
  if (!/^[ugoa]*[+=][rwxXst]+$/.test(mode)) return false;
  return mode.includes("s") || (mode.includes("w") && (/^[oa]/.test(mode) || /^[+=]/.test(mode)));
}

/** `host:path` or `user@host:path`: a place on another machine. */
function isRemote(value: string): boolean {
  return !value.startsWith("-") && !value.startsWith("/") && /^[\w.@-]+:/.test(value) && !value.includes("://");
}

/** The categories this command earns by what it is. */
export function commandRisks(invocation: Invocation): RiskCategory[] {
  const found: RiskCategory[] = [];
  if (invocation.wrappers.some((wrapper) => wrapper === "sudo" || wrapper === "doas" || wrapper === "pkexec")) found.push("elevated");
  const rule = RULES[invocation.name];
  const own = rule?.(invocation);
  if (own) found.push(own);
  const values = valuesOf(invocation.args);
  if (PUBLISHING_PACKAGERS.has(invocation.name)) {
    const sub = values.find((value) => !value.startsWith("-")) ?? "";
    if (["publish", "unpublish", "deprecate", "dist-tag"].includes(sub) || (sub === "npm" && values.includes("publish"))) found.push("publishes");
    if (sub === "pkg" && values.some((value) => /^scripts\.(pre|post)?(install|prepare)=?/.test(value))) found.push("runs-later");
    if (sub === "set-script" && values.some((value) => /^(pre|post)?(install|prepare)$/.test(value))) found.push("runs-later");
  }
  const deploy = DEPLOYS[invocation.name];
  if (deploy) {
    const sub = values.find((value) => !value.startsWith("-")) ?? "";
    if (deploy.includes(sub) || (deploy.includes("") && sub === "") || values.some((value) => deploy.includes(value) && value.startsWith("--")))
      found.push("publishes");
  }
  return found;
}
