// A simple command seen through its wrappers: `sudo`, `env X=1`, `xargs`, `nohup`, `timeout 5`,
// `nice -n 5`, … are taken off (remembered), and what a shell runs as code (`bash -c S`, `eval`,
// `su -c S`, `watch …`, `env -S S`) is named so it can be read in turn. Pure.
import { posix } from "node:path";
import type { ShellWord, SimpleCommand } from "./shell-syntax.ts";

export interface Invocation {
  command: SimpleCommand;
  /** The program's base name (`/usr/bin/rm` → `rm`); "" when it is not static. */
  name: string;
  /** The word that names the program. */
  program?: ShellWord;
  /** Its arguments, after the name. */
  args: ShellWord[];
  /** The wrappers taken off, outermost first (`sudo`, `env`, `xargs`, …). */
  wrappers: string[];
  /** Text run as shell code: `bash -c S`, `eval …`, `su -c S`, `watch …`, `env -S S`. */
  scripts: ShellWord[][];
}

/** Options of each wrapper that take a value (so the value is not taken for the command). */
const WRAPPERS: Record<string, { valued: string[]; operands?: number }> = {
  sudo: { valued: ["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--chdir"] },
  doas: { valued: ["-u", "-C"] },
  env: { valued: ["-u", "-C", "--unset", "--chdir"] },
  xargs: { valued: ["-I", "-n", "-L", "-P", "-d", "-a", "-E", "-s", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--replace"] },
  nohup: { valued: [] },
  time: { valued: ["-f", "-o", "--format", "--output"] },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  setsid: { valued: [] },
  stdbuf: { valued: ["-i", "-o", "-e"] },
  nice: { valued: ["-n", "--adjustment"] },
  ionice: { valued: ["-c", "-n", "--class", "--classdata"] },
  timeout: { valued: ["-s", "-k", "--signal", "--kill-after"], operands: 1 },
  taskset: { valued: [], operands: 1 },
  unbuffer: { valued: [] },
  caffeinate: { valued: ["-t", "-w"] },
  flock: { valued: ["-w", "-E", "--timeout", "--conflict-exit-code"], operands: 1 },
  chronic: { valued: [] },
  pkexec: { valued: ["--user"] },
  busybox: { valued: [] },
};

/** Shells: `-c S` runs S. */
export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "posh", "rbash"]);

const MAX_WRAPPERS = 8;

/** The command behind its wrappers. */
export function invocationOf(command: SimpleCommand): Invocation {
  let words = command.words;
  const wrappers: string[] = [];
  const scripts: ShellWord[][] = [];
  while (words.length > 0 && wrappers.length < MAX_WRAPPERS) {
    const name = baseName(words[0]!);
    const wrapper = WRAPPERS[name];
    if (name === "env") {
      const split = words.findIndex((word) => word.value === "-S" || word.value?.startsWith("--split-string"));
      if (split > 0 && words[split + 1]) scripts.push([words[split + 1]!]);
    }
    if (!wrapper) break;
    const rest = afterOptions(words.slice(1), wrapper.valued, name === "env");
    // A wrapper with nothing to run (`env`, `sudo -l`) is the program itself.
    if (rest.length <= (wrapper.operands ?? 0)) break;
    wrappers.push(name);
    words = rest.slice(wrapper.operands ?? 0);
  }
  const program = words[0];
  const name = program ? baseName(program) : "";
  const args = words.slice(1);
  if (SHELLS.has(name) || name === "su") {
    const script = shellScript(args);
    if (script) scripts.push([script]);
  }
  if (name === "eval" || name === "watch") scripts.push(name === "watch" ? afterOptions(args, ["-n", "-d", "--interval"], false) : args);
  return { command, name, ...(program ? { program } : {}), args, wrappers, scripts };
}

/** The words after the wrapper's options (and, for env, its NAME=value words). */
function afterOptions(words: ShellWord[], valued: string[], assignments: boolean): ShellWord[] {
  let index = 0;
  while (index < words.length) {
    const value = words[index]!.value ?? "";
    if (value === "--") return words.slice(index + 1);
    if (assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(value)) {
      index += 1;
      continue;
    }
    if (!value.startsWith("-") || value === "-") {
      // `nice -5`, `timeout 5s`: a number-like first word belongs to the wrapper (handled by `operands`).
      return words.slice(index);
    }
    index += valued.includes(value) ? 2 : 1;
  }
  return [];
}

/** The script of `bash -c S`, `bash -lc S`, `su -c S`, `su --command=S`. */
function shellScript(args: ShellWord[]): ShellWord | undefined {
  for (let index = 0; index < args.length; index += 1) {
    const value = args[index]!.value ?? "";
    if (value.startsWith("--command=")) return { ...args[index]!, value: value.slice("--command=".length) };
    if (value === "--command" || (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(value) && !value.startsWith("--"))) return args[index + 1];
  }
  return undefined;
}

/** A word's program name: its static value's last path segment ("" when not static). */
export function baseName(word: ShellWord): string {
  return word.value === undefined ? "" : posix.basename(word.value);
}

/** The static values of the words (the source text where a word expands). */
export function valuesOf(words: ShellWord[]): string[] {
  return words.map((word) => word.value ?? word.source);
}

/** Whether a short-option cluster or a long option among `args` is one of `options` (`-rf` has `-r`). */
export function hasOption(args: ShellWord[], short: string, long: string[] = []): boolean {
  return valuesOf(args).some(
    (value) => long.includes(value.split("=")[0]!) || (short !== "" && /^-[A-Za-z0-9]+$/.test(value) && [...value.slice(1)].some((c) => short.includes(c))),
  );
}
