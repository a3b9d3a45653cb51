// A command's risk flags, read from its parsed form (never from its raw text): each simple
// command behind its wrappers (command-risks.ts), the paths it names (path-risks.ts), what flows
// into a shell or interpreter (a download piped in, substituted into `bash -c`, `eval`, `python -c`,
// given as `<(…)`, or saved and then run), what hides its code ($'\x…', base64 -d into a shell, a long
// encoded blob), and the scripts it runs in turn (`bash -c`, `eval`, `su -c`, …), read again. Pure
// once given the parser.
import { commandRisks, DOWNLOADERS, interpreterInput, isDecoder, isInterpreter } from "./command-risks.ts";
import { invocationOf, valuesOf, type Invocation } from "./invocation.ts";
import { isOutside, pathRisks, resolvePath } from "./path-risks.ts";
import { orderFlags, type Place, type RiskCategory, type RiskFlag } from "./risk.ts";
import type { ShellParser, ShellWord, SimpleCommand } from "./shell-syntax.ts";

/** How deep `bash -c "bash -c '…'"` is read. */
const MAX_DEPTH = 4;
/** A single word this long, all in an encoding's alphabet, hides what it says. */
const BLOB_LENGTH = 160;
/** Commands whose operands are text, not paths. */
const TEXT_COMMANDS = new Set(["echo", "printf", "cd-", "git-commit", "gh", "say", "notify-send", "true", ":"]);
/** Commands whose first operand is a pattern or a program, not a path. */
const PATTERN_COMMANDS = new Set(["grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk", "gawk", "jq", "yq", "perl"]);
/** Options whose value is a pattern, a message or code. */
const TEXT_OPTIONS = new Set(["-e", "-m", "--message", "--regexp", "-c", "--eval", "-p", "--print", "--title", "--body", "-t", "-b"]);
const OUTPUT_REDIRECTS = new Set([">", ">>", "&>", "&>>", ">|", "<>"]);
const OVERWRITING_REDIRECTS = new Set([">", "&>", ">|"]);

/** The flags of a command line, most severe first. */
export function flagCommand(text: string, parse: ShellParser, place: Place): RiskFlag[] {
  const reader = new FlagReader(parse, place);
  reader.script(text, 0);
  return orderFlags(reader.flags);
}

class FlagReader {
  readonly flags: RiskFlag[] = [];

  /** Where the script stands: a `cd` moves relative paths after it. */
  private place: Place;

  constructor(
    private readonly parse: ShellParser,
    place: Place,
  ) {
    this.place = place;
  }

  script(text: string, depth: number): void {
    const parsed = this.parse(text);
    if (parsed.ok) this.commands(parsed.commands, depth);
    else this.add("unreadable", text);
  }

  commands(commands: SimpleCommand[], depth: number): void {
    const downloaded = new Set<string>();
    for (const command of commands) this.command(command, depth, downloaded);
  }

  add(category: RiskCategory, part: string): void {
    this.flags.push({ category, part });
  }

  command(command: SimpleCommand, depth: number, downloaded: Set<string>): void {
    const invocation = invocationOf(command);
    const part = command.source;
    for (const category of commandRisks(invocation)) this.add(category, part);
    for (const word of [...command.words, ...command.loose, ...command.redirects.map((redirect) => redirect.target)]) this.word(word, depth);
    this.paths(invocation);
    for (const script of invocation.scripts) {
      this.code(script, part);
      const text = staticText(script);
      if (text !== undefined && depth < MAX_DEPTH) this.script(text, depth + 1);
    }
    if (isInterpreter(invocation.name)) this.interpreter(invocation, downloaded);
    if (invocation.program) {
      this.code([invocation.program], part);
      if (invocation.program.value !== undefined && downloaded.has(this.key(invocation.program.value))) this.add("network-code", part);
    }
    if (DOWNLOADERS.has(invocation.name)) for (const file of downloadTargets(invocation)) downloaded.add(this.key(file));
    if (invocation.name === "cd" || invocation.name === "pushd") this.move(invocation);
  }

  /** `cd DIR`: later relative paths start there (`cd` alone or `cd -`: home or unknown, from the directory again). */
  move(invocation: Invocation): void {
    const target = invocation.args.find((word) => !word.value?.startsWith("-"));
    const path = target ? pathText(target) : undefined;
    const cwd = path === undefined ? undefined : resolvePath(path, this.place);
    this.place = { directory: this.place.directory, home: this.place.home, ...(cwd ? { cwd } : {}) };
  }

  /** Substitutions are commands too; escapes and blobs hide what runs. */
  word(word: ShellWord, depth: number): void {
    for (const substitution of word.substitutions) this.commands(substitution.commands, depth);
    if (word.escapes.length > 0) this.add("hidden", word.source);
    const value = word.value ?? "";
    if (isBlob(value)) this.add("hidden", `${value.slice(0, 40)}…`);
  }

  /** A shell or interpreter fed by a download (network) or a decoder (hidden). */
  interpreter(invocation: Invocation, downloaded: Set<string>): void {
    const part = invocation.command.source;
    const input = interpreterInput(invocation);
    if (input.stdin) {
      const upstream = invocation.command.upstream.map(invocationOf);
      const download = upstream.find((feeder) => DOWNLOADERS.has(feeder.name));
      if (download) this.add("network-code", `${download.command.source} | … ${part}`);
      const decoder = upstream.find(isDecoder);
      if (decoder) this.add("hidden", `${decoder.command.source} | … ${part}`);
    }
    const code = input.inline ?? input.operand;
    const word = code === undefined ? undefined : invocation.args[code];
    if (!word) return;
    this.code([word], part);
    if (input.operand !== undefined && word.value !== undefined && downloaded.has(this.key(word.value))) this.add("network-code", part);
  }

  /** Words whose text is run as code: a download or a decoder substituted into them. */
  code(words: ShellWord[], part: string): void {
    for (const word of words)
      for (const substitution of word.substitutions) {
        const feeders = substitution.commands.map(invocationOf);
        if (feeders.some((feeder) => DOWNLOADERS.has(feeder.name))) this.add("network-code", part);
        if (feeders.some(isDecoder)) this.add("hidden", part);
      }
  }

  /** The paths a command names: outside the project, secrets, files that run later, overwrites outside. */
  paths(invocation: Invocation): void {
    const written = writtenWords(invocation);
    for (const word of pathWords(invocation)) {
      const text = pathText(word);
      if (text === undefined) continue;
      for (const category of pathRisks(text, this.place, written.has(word))) this.add(category, word.source);
    }
    for (const redirect of invocation.command.redirects) {
      const text = pathText(redirect.target);
      if (text === undefined || (!OUTPUT_REDIRECTS.has(redirect.op) && !redirect.op.startsWith("<"))) continue;
      if (redirect.op === "<<" || redirect.op === "<<-" || redirect.op === "<<<" || redirect.op === ">&" || redirect.op === "<&") continue;
      const output = OUTPUT_REDIRECTS.has(redirect.op);
      for (const category of pathRisks(text, this.place, output)) this.add(category, `${redirect.op} ${redirect.target.source}`);
      if (OVERWRITING_REDIRECTS.has(redirect.op) && isOutside(text, this.place)) this.add("deletes", `${redirect.op} ${redirect.target.source}`);
    }
  }

  key(path: string): string {
    return path.replace(/^\.\//, "");
  }
}

/** A long single word in an encoding's alphabet (a path, with a slash every few characters, is none). */
function isBlob(value: string): boolean {
  if (value.length < BLOB_LENGTH || !/^[A-Za-z0-9+/=_-]+$/.test(value)) return false;
  return value.split("/").length - 1 <= value.length / 20;
}

/** The words of a script's text joined (`eval a b`), when all are static. */
function staticText(words: ShellWord[]): string | undefined {
  const values = words.map((word) => word.value);
  return values.every((value) => value !== undefined) ? values.join(" ") : undefined;
}

/** Where a download saves: `-o F`, `--output F`, `wget -O F`, or `> F`. */
function downloadTargets(invocation: Invocation): string[] {
  const values = valuesOf(invocation.args);
  const targets: string[] = [];
  values.forEach((value, index) => {
    if (["-o", "-O", "--output", "--output-document"].includes(value) && values[index + 1] && values[index + 1] !== "-") targets.push(values[index + 1]!);
    if (value.startsWith("--output-document=") || value.startsWith("--output=")) targets.push(value.slice(value.indexOf("=") + 1));
  });
  for (const redirect of invocation.command.redirects) if (OUTPUT_REDIRECTS.has(redirect.op) && redirect.target.value) targets.push(redirect.target.value);
  return targets;
}

/** The words that may name a file: operands and option values, not patterns, messages or code. */
function pathWords(invocation: Invocation): ShellWord[] {
  const { name, args } = invocation;
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
function pathText(word: ShellWord): string | undefined {
  let text = word.value;
  if (text === undefined && word.home) text = `~${word.source.replace(/^"?(\$HOME|\$\{HOME\})/, "").replace(/"$/, "")}`;
  if (text === undefined) return undefined;
  if (text.startsWith("--") && text.includes("=")) text = text.slice(text.indexOf("=") + 1);
  if (text === "" || text.startsWith("-") || text.includes("://") || text.includes("\n")) return undefined;
  return text;
}

/** The words a command writes: `tee` operands, the target of cp/mv/install/ln, `sed -i`'s files. */
function writtenWords(invocation: Invocation): Set<ShellWord> {
  const { name, args } = invocation;
  const operands = args.filter((word) => !word.value?.startsWith("-"));
  if (name === "tee") return new Set(operands);
  if (["cp", "mv", "install", "ln", "rsync"].includes(name) && operands.length > 1) return new Set(operands.slice(-1));
  if ((name === "sed" || name === "perl") && valuesOf(args).some((value) => value.startsWith("-i") || value === "--in-place"))
    return new Set(operands.slice(1));
  if (name === "touch" || name === "mkdir") return new Set(operands);
  return new Set();
}
