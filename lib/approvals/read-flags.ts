// A command's risk flags, read from its parsed form (never from its raw text): each simple
// command behind its wrappers (command-risks.ts), the paths it names (path-risks.ts), what flows
// into a shell or interpreter (a download piped in, substituted into `bash -c`, `eval`, `python -c`,
// given as `<(…)`, or saved and then run), what hides its code ($'\x…', base64 -d into a shell, a long
// encoded blob), and the scripts it runs in turn (`bash -c`, `eval`, `su -c`, …), read again. Pure
// once given the parser.
import { posix } from "node:path";
import {
  decodedTargets,
  downloadTargets,
  globMatchesSecret,
  heredocBody,
  hostMounts,
  isBlob,
  OUTPUT_REDIRECTS,
  pathText,
  pathWords,
  staticText,
  writtenWords,
} from "./command-words.ts";
import { commandRisks, DOWNLOADERS, interpreterInput, isDecoder, isInterpreter } from "./command-risks.ts";
import { inlineCode, inlineCodeRisks, SECRET_NAME, sedWrites } from "./inline-code.ts";
import { invocationOf, SHELLS, valuesOf, type Invocation } from "./invocation.ts";
import { assignmentRisks } from "./environment-risks.ts";
import { NETWORK_TOOLS, optionRisks } from "./option-risks.ts";
import { isOutside, pathRisks, resolvePath } from "./path-risks.ts";
import { orderFlags, type Place, type RiskCategory, type RiskFlag } from "./risk.ts";
import type { ShellParser, ShellWord, SimpleCommand } from "./shell-syntax.ts";

/** How deep `bash -c "bash -c '…'"` is read. */
const MAX_DEPTH = 4;
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
    const downloaded = new Map<string, RiskCategory>();
    for (const command of commands) this.command(command, depth, downloaded);
  }

  add(category: RiskCategory, part: string): void {
    this.flags.push({ category, part });
  }

  command(command: SimpleCommand, depth: number, downloaded: Map<string, RiskCategory>): void {
    const part = command.source;
    for (const word of [...command.words, ...command.loose, ...command.redirects.map((redirect) => redirect.target)]) this.word(word, depth);
    this.assignments(command, part);
    // A program that is no static word: resolved with the line's own assignments, `$PWD`, `${X:-default}`; else unseen.
    const program = command.words[0];
    if (program && program.value === undefined) {
      const resolved = this.resolved(command);
      if (!resolved) {
        this.add("runs-code", part);
        return;
      }
      command = resolved;
    }
    const invocation = invocationOf(command);
    for (const category of commandRisks(invocation)) this.add(category, part);
    this.options(invocation, part, depth, downloaded);
    this.inline(invocation, part);
    this.redirections(command, part, depth);
    this.paths(invocation);
    for (const script of invocation.scripts) {
      this.code(script, part);
      const text = staticText(script);
      if (text !== undefined && depth < MAX_DEPTH) this.script(text, depth + 1);
      // `bash -c "$X"`: code Hermes can't see, unless what builds it was read (a download, a decoder).
      else if (text === undefined && !script.some((word) => word.substitutions.length > 0)) this.add("runs-code", part);
    }
    if (invocation.wrappers.includes("xargs") && (SHELLS.has(invocation.name) || isInterpreter(invocation.name))) this.add("runs-code", part);
    if (isInterpreter(invocation.name)) this.interpreter(invocation, downloaded, depth);
    if (NETWORK_TOOLS.has(invocation.name) && command.upstream.some((feeder) => SHELLS.has(invocationOf(feeder).name))) this.add("network-code", part);
    if (invocation.program) {
      this.code([invocation.program], part);
      const ran = invocation.program.value === undefined ? undefined : downloaded.get(this.key(invocation.program.value));
      if (ran) this.add(ran, part);
    }
    if (DOWNLOADERS.has(invocation.name)) for (const file of downloadTargets(invocation)) downloaded.set(this.key(file), "network-code");
    if (isDecoder(invocation)) for (const file of decodedTargets(invocation)) downloaded.set(this.key(file), "hidden");
    if (invocation.name === "cd" || invocation.name === "pushd") this.move(invocation);
    if (command.words.length === 0 || ["export", "declare", "local", "readonly", "typeset"].includes(invocation.name)) this.remember(command);
  }

  /** Variables the line sets before using them (`X=rm; $X -rf build`), with `$PWD`, `$OLDPWD` and `$HOME` known. */
  readonly vars = new Map<string, string>();

  remember(command: SimpleCommand): void {
    for (const assign of command.assigns) {
      const value = assign.value ? this.resolve(assign.value) : "";
      if (value === undefined) this.vars.delete(assign.name);
      else this.vars.set(assign.name, value);
    }
  }

  /** A word's value with the line's variables; undefined when anything in it can't be known. */
  resolve(word: ShellWord, keepUnknown = false): string | undefined {
    if (word.value !== undefined) return word.value;
    if (!word.template) return undefined;
    const known: Record<string, string> = { PWD: this.place.cwd ?? this.place.directory, HOME: this.place.home };
    let text = "";
    for (const piece of word.template) {
      if (typeof piece === "string") {
        text += piece;
        continue;
      }
      const value = this.vars.get(piece.param) ?? known[piece.param] ?? piece.fallback;
      if (value === undefined && !keepUnknown) return undefined;
      text += value ?? `\${${piece.param}}`;
    }
    return text;
  }

  /** The command with its words resolved; undefined when its program can't be. */
  resolved(command: SimpleCommand): SimpleCommand | undefined {
    const words: ShellWord[] = [];
    for (const word of command.words) {
      const value = this.resolve(word);
      if (value === undefined && words.length === 0) return undefined;
      words.push(value === undefined ? word : { ...word, value });
    }
    // A resolved program may be several words (`c="rm -rf"; $c x` is one word: the shell splits it).
    const first = words[0]!;
    const split = command.words[0]!.source.startsWith('"')
      ? [first]
      : first
          .value!.split(/\s+/)
          .filter(Boolean)
          .map((value) => ({ ...first, value }));
    return split.length === 0 ? undefined : { ...command, words: [...split, ...words.slice(1)] };
  }

  /** Assignments before the program, `env X=v`'s and `export X=v`'s, that make programs load code. */
  assignments(command: SimpleCommand, part: string): void {
    const pairs: { name: string; value: string }[] = [];
    for (const assign of command.assigns) {
      const value = assign.value ? this.resolve(assign.value, true) : "";
      pairs.push({ name: assign.name, value: value ?? assign.value?.source ?? "" });
    }
    const first = command.words[0]?.value;
    if (first === "env" || first === "export" || first === "declare" || first === "typeset" || first === "sudo")
      for (const word of command.words.slice(1)) {
        const text = this.resolve(word, true) ?? word.source;
        const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(text);
        if (match) pairs.push({ name: match[1]!, value: match[2]! });
        else if (first === "env" && !text.startsWith("-")) break;
      }
    // Scratch space counts here: a program put first on PATH from /tmp runs instead of the real one.
    const directory = posix.resolve(this.place.directory);
    const leaves = (path: string) => {
      const absolute = resolvePath(path.replace(/^\$\{HOME\}/, "~"), this.place);
      return absolute !== undefined && absolute !== directory && !absolute.startsWith(`${directory}/`);
    };
    for (const pair of pairs) for (const category of assignmentRisks(pair.name, pair.value, leaves)) this.add(category, part);
  }

  /** What the command's options run (`find -exec`, `ssh -o ProxyCommand=`, `git -c alias.x=…`, …): read again. */
  options(invocation: Invocation, part: string, depth: number, downloaded: Map<string, RiskCategory>): void {
    const reading = optionRisks(invocation);
    for (const category of reading.categories) this.add(category, part);
    if (depth >= MAX_DEPTH) return;
    for (const script of reading.scripts) this.script(script, depth + 1);
    for (const argv of reading.commands) {
      if (argv.length === 0) continue;
      const words = argv.map((value): ShellWord => ({ source: value, value, home: false, substitutions: [], escapes: [], params: [], template: [value] }));
      this.command({ source: argv.join(" "), words, loose: [], assigns: [], redirects: [], upstream: [] }, depth + 1, downloaded);
    }
  }

  /** Inline code of an interpreter, an awk program, a sed script. */
  inline(invocation: Invocation, part: string): void {
    const found = inlineCode(invocation);
    if (!found) return;
    for (const category of inlineCodeRisks(found.language, found.code)) this.add(category, part);
    if (found.language === "sed")
      for (const file of sedWrites(found.code)) for (const category of pathRisks(file, this.place, true)) this.add(category, `w ${file}`);
  }

  /** Redirections to a network device (`/dev/tcp/host/port`), and here-documents a shell runs. */
  redirections(command: SimpleCommand, part: string, depth: number): void {
    for (const redirect of command.redirects) {
      const target = redirect.target.value ?? redirect.target.source;
      if (/^\/dev\/(tcp|udp)\//.test(target) && !redirect.op.startsWith("<<")) this.add("network-code", `${redirect.op} ${target}`);
    }
    const name = invocationOf(command).name;
    if (!SHELLS.has(name) || interpreterInput(invocationOf(command)).inline !== undefined) return;
    for (const redirect of command.redirects) {
      if (redirect.op !== "<<" && redirect.op !== "<<-" && redirect.op !== "<<<") continue;
      this.code([redirect.target], part);
      const text = redirect.op === "<<<" ? redirect.target.value : heredocBody(redirect.target);
      if (text !== undefined && depth < MAX_DEPTH) this.script(text, depth + 1);
      else if (
        !redirect.target.substitutions.some((substitution) =>
          substitution.commands.map(invocationOf).some((feeder) => isDecoder(feeder) || DOWNLOADERS.has(feeder.name)),
        )
      )
        this.add("runs-code", part);
    }
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
    // A secret's variable (`$GITHUB_TOKEN`), the environment of a process in any spelling, a glob that can match `.env`.
    if (word.params.some((name) => SECRET_NAME.test(name))) this.add("secrets", word.source);
    if (/\/proc\/.*environ/.test(word.source) || /\/proc\/.*environ/.test(value)) this.add("secrets", word.source);
    if (value !== "" && /[*?[]/.test(value) && globMatchesSecret(value)) this.add("secrets", word.source);
  }

  /** A shell or interpreter fed by a download (network) or a decoder (hidden), or reading text as its program. */
  interpreter(invocation: Invocation, downloaded: Map<string, RiskCategory>, depth: number): void {
    const part = invocation.command.source;
    const input = interpreterInput(invocation);
    const shell = SHELLS.has(invocation.name) || invocation.name === "source" || invocation.name === ".";
    if (input.stdin) {
      const upstream = invocation.command.upstream.map((feeder) =>
        invocationOf(feeder.words[0]?.value === undefined ? (this.resolved(feeder) ?? feeder) : feeder),
      );
      const download = upstream.find((feeder) => DOWNLOADERS.has(feeder.name) || NETWORK_TOOLS.has(feeder.name));
      if (download) this.add("network-code", `${download.command.source} | … ${part}`);
      const decoder = upstream.find(isDecoder);
      if (decoder) this.add("hidden", `${decoder.command.source} | … ${part}`);
      // Text piped into a shell is its program: read like `bash -c`.
      if (shell && !download && !decoder) this.piped(upstream, part, depth);
    }
    if (
      shell &&
      valuesOf(invocation.args).some((value) => /^-[a-zA-Z]*i[a-zA-Z]*$/.test(value)) &&
      invocation.command.upstream.some((feeder) => NETWORK_TOOLS.has(invocationOf(feeder).name))
    )
      this.add("network-code", part);
    const code = input.inline ?? input.operand;
    const word = code === undefined ? undefined : invocation.args[code];
    if (!word) return;
    this.code([word], part);
    // `bash <(echo '…')`, `source <(printf …)`: the text it reads.
    if (input.operand !== undefined && shell)
      for (const substitution of word.substitutions) if (substitution.kind === "process") this.piped(substitution.commands.map(invocationOf), part, depth);
    const ran = input.operand !== undefined && word.value !== undefined ? downloaded.get(this.key(word.value)) : undefined;
    if (ran) this.add(ran, part);
  }

  /** What writes a shell's program: static text (`echo '…'`, `printf …`, `cat <<EOF`) is read as a script; anything else is unseen. */
  piped(feeders: Invocation[], part: string, depth: number): void {
    for (const feeder of feeders) {
      let text: string | undefined;
      if (feeder.name === "echo" || feeder.name === "printf") {
        const words = feeder.args.filter((word, index) => !(index === 0 && /^-[neE]+$/.test(word.value ?? "")));
        const values = words.map((word) => this.resolve(word));
        if (values.some((value) => value === undefined)) {
          this.add("runs-code", part);
          continue;
        }
        text = values.join(" ").replace(/\\n/g, "\n");
      } else if (feeder.name === "cat" && feeder.args.length === 0) {
        const heredoc = feeder.command.redirects.find((redirect) => redirect.op === "<<" || redirect.op === "<<-" || redirect.op === "<<<");
        if (!heredoc) continue;
        text = heredoc.op === "<<<" ? heredoc.target.value : heredocBody(heredoc.target);
        if (text === undefined) {
          this.add("runs-code", part);
          continue;
        }
      } else continue;
      if (depth < MAX_DEPTH) this.script(text, depth + 1);
    }
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
    // What curl and wget send: `-d @file`, `-F name=@file`, `name=<file`, `--post-file=f`.
    if (DOWNLOADERS.has(invocation.name))
      for (const word of invocation.args) {
        const text = this.resolve(word, true) ?? word.source;
        const sent = /(?:^|=)[@<]([^;,]+)$/.exec(text)?.[1]?.replace(/^\$\{HOME\}|^\$HOME/, "~");
        if (sent && sent !== "-") for (const category of pathRisks(sent, this.place, false)) this.add(category, word.source);
      }
    for (const word of hostMounts(invocation, (word) => this.resolve(word, true))) {
      for (const category of pathRisks(word.path, this.place, false)) this.add(category, word.source);
    }
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
