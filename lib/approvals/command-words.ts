// What a command's words name, pure: the paths among its arguments (not patterns, messages or
// code), the files it writes, where a download or a decoder saves, the host's side of a container's
// mounts, a here-document's text, a glob that can match a secret, a long encoded blob. Used by
// read-flags.ts.
import { posix } from "node:path";
import { isInterpreter } from "./command-risks.ts";
import { valuesOf, type Invocation } from "./invocation.ts";
import { isSecret } from "./path-risks.ts";
import type { ShellWord } from "./shell-syntax.ts";

/** A single word this long, all in an encoding's alphabet, hides what it says. */
const BLOB_LENGTH = 160;
/** Commands whose operands are text, not paths. */
const TEXT_COMMANDS = new Set(["echo", "printf", "cd-", "git-commit", "gh", "say", "notify-send", "true", ":"]);
/** Commands whose first operand is a pattern or a program, not a path. */
const PATTERN_COMMANDS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "jq", "yq", "perl"]);
/** Options whose value is a pattern, a message or code. */
const TEXT_OPTIONS = new Set(["-e", "-m", "--message", "--regexp", "-c", "--eval", "-p", "--print", "--title", "--body", "-t", "-b"]);
export const OUTPUT_REDIRECTS = new Set([">", ">>", "&>", "&>>", ">|", "<>"]);

/** A long single word in an encoding's alphabet (a path, with a slash every few characters, is none). */
export function isBlob(value: string): boolean {
  if (value.length < BLOB_LENGTH || !/^[A-Za-z0-9+/=_-]+$/.test(value)) return false;
  return value.split("/").length - 1 <= value.length / 20;
}

/** The words of a script's text joined (`eval a b`), when all are static. */
export function staticText(words: ShellWord[]): string | undefined {
  const values = words.map((word) => word.value);
  return values.every((value) => value !== undefined) ? values.join(" ") : undefined;
}

const CONTAINER_TOOLS = new Set(["docker", "podman", "nerdctl"]);

/** The host's side of a container's mounts (`-v /:/host`, `--mount type=bind,source=/etc,…`). */
export function hostMounts(invocation: Invocation, resolve: (word: ShellWord) => string | undefined): { path: string; source: string }[] {
  if (!CONTAINER_TOOLS.has(invocation.name)) return [];
  const mounts: { path: string; source: string }[] = [];
  invocation.args.forEach((word, index) => {
    const option = invocation.args[index - 1]?.value;
    const text = resolve(word) ?? word.source;
    let host: string | undefined;
    if (option === "-v" || option === "--volume") host = text.split(":")[0];
    else if (text.startsWith("--volume=") || text.startsWith("-v=")) host = text.slice(text.indexOf("=") + 1).split(":")[0];
    else if (option === "--mount" || text.startsWith("--mount=")) host = /(?:^|,)(?:source|src)=([^,]+)/.exec(text.replace(/^--mount=/, ""))?.[1];
    // A named volume (no slash, no ~) is Docker's, not a host path.
    if (host === undefined || !/^[/~.]/.test(host)) return;
    mounts.push({ path: host.replace(/^\$\{HOME\}|^\$HOME/, "~"), source: word.source });
  });
  return mounts;
}

/** The text of a here-document, when it is static (quoted delimiter, or nothing in it expands). */
export function heredocBody(word: ShellWord): string | undefined {
  return word.value;
}

/** Whether a glob's last segment can match a secret's file name (`.env*`, `.e*`, `id_*`). */
export function globMatchesSecret(glob: string): boolean {
  const name = glob.split("/").at(-1) ?? "";
  // A glob matches a dot file only when it starts with the dot itself.
  if (!/[*?[]/.test(name) || /^[*?[]/.test(name)) return false;
  let pattern: RegExp;
  try {
    pattern = new RegExp(
      `^${name
        .replace(/[.+^${}()|\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".")}$`,
    );
  } catch {
    return false;
  }
  return [".env", ".env.local", ".env.production", "id_rsa", "id_ed25519", ".netrc", ".git-credentials"].some(
    (secret) => pattern.test(secret) && isSecret(secret),
  );
}

/** Where a decoder writes (`base64 -d x > f`, `-o f`). */
export function decodedTargets(invocation: Invocation): string[] {
  const values = valuesOf(invocation.args);
  const targets: string[] = [];
  values.forEach((value, index) => {
    if ((value === "-o" || value === "--output" || value === "-out") && values[index + 1]) targets.push(values[index + 1]!);
  });
  for (const redirect of invocation.command.redirects) if (OUTPUT_REDIRECTS.has(redirect.op) && redirect.target.value) targets.push(redirect.target.value);
  return targets;
}

/** Where a download saves: `-o F`, `--output F`, `wget -O F`, `> F`, or the URL's last segment (`curl -O`, `wget URL`). */
export function downloadTargets(invocation: Invocation): string[] {
  const values = valuesOf(invocation.args);
  const targets: string[] = [];
  const urls = values.filter((value) => /^[a-z]+:\/\//i.test(value) || /^[\w.-]+\.[a-z]{2,}\//i.test(value));
  const remoteName =
    invocation.name === "wget"
      ? !values.some((value) => value === "-O" || value.startsWith("--output-document") || value === "-qO-" || /^-[a-zA-Z]*O/.test(value))
      : values.some((value) => value === "--remote-name" || value === "--remote-name-all" || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(value));
  if (remoteName) for (const url of urls) targets.push(posix.basename(url.replace(/[?#].*$/, "")));
  values.forEach((value, index) => {
    const valued =
      ["-o", "-O", "--output", "--output-document"].includes(value) ||
      (invocation.name === "curl" && /^-[a-zA-Z]+o$/.test(value)) ||
      (invocation.name === "wget" && /^-[a-zA-Z]+O$/.test(value));
    if (valued && values[index + 1] && values[index + 1] !== "-") targets.push(values[index + 1]!);
    if (value.startsWith("--output-document=") || value.startsWith("--output=")) targets.push(value.slice(value.indexOf("=") + 1));
  });
  for (const redirect of invocation.command.redirects) if (OUTPUT_REDIRECTS.has(redirect.op) && redirect.target.value) targets.push(redirect.target.value);
  return targets;
}

/** The words that may name a file: operands and option values, not patterns, messages or code. */
export function pathWords(invocation: Invocation): ShellWord[] {
  const { name, args } = invocation;
  // A container's arguments and its side of a mount are no paths here (hostMounts reads the host's side).
  if (CONTAINER_TOOLS.has(name) && ["run", "create", "exec"].includes(valuesOf(args).find((value) => !value.startsWith("-")) ?? "")) return [];
  if (TEXT_COMMANDS.has(name) || (name === "git" && valuesOf(args).includes("commit") && !valuesOf(args).some((v) => v === "-F" || v === "--file")))
    return name === "git" ? args.filter((_, index) => !TEXT_OPTIONS.has(args[index - 1]?.value ?? "")) : [];
  const words: ShellWord[] = [];
  let patternSeen = !PATTERN_COMMANDS.has(name) || args.some((word) => word.value === "-e" || word.value === "-f" || word.value === "--regexp");
  args.forEach((word, index) => {
    if (TEXT_OPTIONS.has(args[index - 1]?.value ?? "") && (isInterpreter(name) || PATTERN_COMMANDS.has(name) || name === "git")) return;
    if (word.value?.startsWith("-") && !word.value.includes("=")) return;
    if (!patternSeen && !word.value?.startsWith("-")) {
      patternSeen = true;
      return;
    }
    words.push(word);
  });
  return words;
}

/** What a word names as a path: its value (`--opt=value` → value), `$HOME/…` as `~/…`; undefined when it is no path. */
export function pathText(word: ShellWord): string | undefined {
  let text = word.value;
  if (text === undefined && word.home) text = `~${word.source.replace(/^"?(\$HOME|\$\{HOME\})/, "").replace(/"$/, "")}`;
  if (text === undefined) return undefined;
  if (text.startsWith("--") && text.includes("=")) text = text.slice(text.indexOf("=") + 1);
  if (text === "" || text.startsWith("-") || text.includes("://") || text.includes("\n")) return undefined;
  return text;
}

/** The words a command writes: `tee` operands, the target of cp/mv/install/ln, `sed -i`'s files. */
export function writtenWords(invocation: Invocation): Set<ShellWord> {
  const { name, args } = invocation;
  const operands = args.filter((word) => !word.value?.startsWith("-"));
  if (name === "tee") return new Set(operands);
  if (["cp", "mv", "install", "ln", "rsync"].includes(name) && operands.length > 1) return new Set(operands.slice(-1));
  if ((name === "sed" || name === "perl") && valuesOf(args).some((value) => value.startsWith("-i") || value === "--in-place"))
    return new Set(operands.slice(1));
  if (name === "touch" || name === "mkdir") return new Set(operands);
  return new Set();
}
