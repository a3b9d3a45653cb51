// A shell command read by a real parser: mvdan/sh's bash parser (the npm package mvdan-sh, one
// GopherJS file, no dependencies), imported on the first command Hermes has to read, never at
// start-up. Its tree is turned here into Hermes' own small model: the simple commands a script
// runs, each with its words (their static value when they have one, the commands substituted into
// them), its redirections and the commands that feed it through a pipe. Compound commands (if,
// for, while, case, functions, groups, subshells) are flattened into the commands they contain.

import type { Syntax } from "mvdan-sh";

/** A word as the shell sees it: its source text, and its value after quote removal when it is static. */
export interface ShellWord {
  source: string;
  /** The word's value, when nothing in it expands ($VAR, $(…), globs aside). */
  value?: string;
  /** It starts with `~` or `$HOME`. */
  home: boolean;
  /** Commands run to build it: `$(…)` and backticks ("command"), `<(…)`/`>(…)` ("process"). */
  substitutions: { kind: "command" | "process"; commands: SimpleCommand[] }[];
  /** Text inside `$'…'` that holds escapes (`\x41`, `\101`). */
  escapes: string[];
  /** The parameters it expands (`$X`, `${X:-d}`, `$@`), by name. */
  params: string[];
  /**
   * The word as literal text and plain parameters (`$X`, `${X}`, `${X:-default}`, `${X-default}`),
   * for resolving it with the line's own assignments; undefined when anything else expands in it.
   */
  template?: TemplatePart[];
}

/** A piece of a word's template: literal text, or a parameter with its static default. */
export type TemplatePart = string | { param: string; fallback?: string };

export interface ShellRedirect {
  /** The operator: `>`, `>>`, `<`, `&>`, `>|`, `<<<`, … */
  op: string;
  target: ShellWord;
}

export interface SimpleCommand {
  /** The command's own source text (the simple command, or the compound one for loose words). */
  source: string;
  /** argv; empty for the loose words and redirections of a compound command. */
  words: ShellWord[];
  /** Words that are no argv: a `for` list, a test, an assignment's value. */
  loose: ShellWord[];
  /** The assignments before the program (`X=1 npm test`), each as written; none on a compound command. */
  assigns: { name: string; source: string; value?: ShellWord }[];
  redirects: ShellRedirect[];
  /** Every command in the earlier stages of the pipelines around this one: they feed its standard input. */
  upstream: SimpleCommand[];
}

export type ParsedShell = { ok: true; commands: SimpleCommand[] } | { ok: false; error: string };

/** Parses a whole script (synchronous once the parser is loaded). */
export type ShellParser = (text: string) => ParsedShell;

// The parser's nodes are untyped GopherJS objects (mvdan-sh.d.ts): their fields are read only here.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Node = any;

let loading: Promise<ShellParser> | undefined;

/** The parser, loaded once, on first use; a parser that reports every command unreadable if it cannot be loaded. */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= import("mvdan-sh").then(
    (module) => parserOf(module.default.syntax),
    (error: unknown): ShellParser =>
      () => ({ ok: false, error: `the shell parser could not be loaded: ${String(error)}` }),
  );
  return loading;
}

function parserOf(syntax: Syntax): ShellParser {
  const parser = syntax.NewParser();
  const ops = operatorNames(parser);
  return (text) => {
    let file: Node;
    try {
      file = parser.Parse(text, "");
    } catch (error) {
      const shown = error && typeof (error as Node).Error === "function" ? String((error as Node).Error()) : String(error);
      return { ok: false, error: shown };
    }
    return { ok: true, commands: new Reader(syntax, text, ops).statements(file.Stmts, []) };
  };
}

/**
 * The parser's operator codes, learnt from the parser itself at load (they are Go enum values that
 * may move between versions): pipes, and each redirection's spelling.
 */
function operatorNames(parser: { Parse(text: string, name: string): Node }): Operators {
  const pipes = new Set<number>(["a | b", "a |& b"].map((text) => parser.Parse(text, "").Stmts[0].Cmd.Op as number));
  const redirects = new Map<number, string>();
  for (const op of [">", ">>", "<", "&>", "&>>", ">|", "<<<", "<>", ">&", "<&"]) redirects.set(parser.Parse(`a ${op} f`, "").Stmts[0].Redirs[0].Op, op);
  for (const op of ["<<", "<<-"]) redirects.set(parser.Parse(`a ${op}E\nx\nE\n`, "").Stmts[0].Redirs[0].Op, op);
  const defaults = new Set<number>(
    ["echo $" + "{a:-b}", "echo $" + "{a-b}"].map((text) => parser.Parse(text, "").Stmts[0].Cmd.Args[1].Parts[0].Exp.Op as number),
  );
  return { pipes, redirects, defaults };
}

interface Operators {
  pipes: Set<number>;
  redirects: Map<number, string>;
  /** `${a:-b}` and `${a-b}`: a default when the parameter is unset. */
  defaults: Set<number>;
}

class Reader {
  /** The parser's offsets count bytes of UTF-8. */
  readonly #bytes: Uint8Array;
  readonly #decoder = new TextDecoder();

  constructor(
    private readonly syntax: Syntax,
    text: string,
    private readonly ops: Operators,
  ) {
    this.#bytes = new TextEncoder().encode(text);
  }

  statements(stmts: Node[] | null, upstream: SimpleCommand[]): SimpleCommand[] {
    return (stmts ?? []).flatMap((stmt) => this.statement(stmt, upstream));
  }

  statement(stmt: Node, upstream: SimpleCommand[]): SimpleCommand[] {
    const redirects = (stmt.Redirs ?? []).map((redirect: Node) => this.redirect(redirect));
    const cmd = stmt.Cmd;
    if (!cmd) return redirects.length > 0 ? [this.command(stmt, [], [], redirects, upstream)] : [];
    const type = this.syntax.NodeType(cmd);
    if (type === "CallExpr") {
      const assigns = (cmd.Assigns ?? []).map((assign: Node) => ({
        name: String(assign.Name?.Value ?? ""),
        source: this.sourceOf(assign),
        ...(assign.Value ? { value: this.word(assign.Value) } : {}),
      }));
      const loose = assigns.flatMap((assign: { value?: ShellWord }) => (assign.value ? [assign.value] : []));
      const made = this.command(
        stmt,
        (cmd.Args ?? []).map((word: Node) => this.word(word)),
        loose,
        redirects,
        upstream,
      );
      made.assigns = assigns;
      return [made];
    }
    if (type === "DeclClause") {
      // `export X=v`, `declare -x X=v`, `local X`: a command whose arguments are its assignments, as written.
      const variant = String(cmd.Variant?.Value ?? "export");
      const words: ShellWord[] = [this.literal(variant)];
      const assigns: SimpleCommand["assigns"] = [];
      for (const assign of cmd.Args ?? []) {
        const value = assign.Value ? this.word(assign.Value) : undefined;
        if (assign.Naked) {
          words.push(value ?? this.literal(String(assign.Name?.Value ?? "")));
          continue;
        }
        const name = String(assign.Name?.Value ?? "");
        const source = this.sourceOf(assign);
        assigns.push({ name, source, ...(value ? { value } : {}) });
        words.push({
          ...(value ?? this.literal("")),
          source,
          ...(value?.value !== undefined || !value ? { value: `${name}=${value?.value ?? ""}` } : {}),
          ...(value?.template ? { template: [`${name}=`, ...value.template] } : value ? {} : { template: [`${name}=`] }),
        });
      }
      const made = this.command(stmt, words, [], redirects, upstream);
      made.assigns = assigns;
      return [made];
    }
    if (type === "BinaryCmd") {
      const left = this.statement(cmd.X, upstream);
      const right = this.statement(cmd.Y, this.ops.pipes.has(cmd.Op) ? [...upstream, ...left] : upstream);
      return [...left, ...right, ...(redirects.length > 0 ? [this.command(stmt, [], [], redirects, upstream)] : [])];
    }
    // Any compound command: the statements inside it, and its own words (a `for` list, a test) and redirections.
    const inner: SimpleCommand[] = [];
    const loose: ShellWord[] = [];
    this.syntax.Walk(cmd, (node: Node) => {
      if (!node || node === cmd) return true;
      const kind = this.syntax.NodeType(node);
      if (kind === "Stmt") {
        inner.push(...this.statement(node, upstream));
        return false;
      }
      if (kind === "Word") {
        loose.push(this.word(node));
        return false;
      }
      return true;
    });
    return loose.length > 0 || redirects.length > 0 ? [this.command(stmt, [], loose, redirects, upstream), ...inner] : inner;
  }

  command(node: Node, words: ShellWord[], loose: ShellWord[], redirects: ShellRedirect[], upstream: SimpleCommand[]): SimpleCommand {
    return { source: this.sourceOf(node), words, loose, assigns: [], redirects, upstream };
  }

  /** A word made of static text. */
  literal(text: string): ShellWord {
    return { source: text, value: text, home: false, substitutions: [], escapes: [], params: [], template: [text] };
  }

  redirect(redirect: Node): ShellRedirect {
    return { op: this.ops.redirects.get(redirect.Op) ?? "?", target: this.word(redirect.Hdoc ?? redirect.Word) };
  }

  word(word: Node): ShellWord {
    const shown: ShellWord = { source: this.sourceOf(word), home: false, substitutions: [], escapes: [], params: [] };
    let value: string | undefined = "";
    let template: TemplatePart[] | undefined = [];
    const parts: Node[] = word.Parts ?? [];
    parts.forEach((part, index) => {
      const piece = this.part(part, shown, false);
      if (index === 0) shown.home = piece.home;
      value = value === undefined || piece.value === undefined ? undefined : value + piece.value;
      template = template === undefined || piece.template === undefined ? undefined : [...template, ...piece.template];
    });
    if (value !== undefined) shown.value = value;
    if (template !== undefined) shown.template = template;
    return shown;
  }

  /** One part of a word: its static value if it has one; substitutions and escapes recorded on the word. */
  part(part: Node, word: ShellWord, quoted: boolean): { value?: string; home: boolean; template?: TemplatePart[] } {
    switch (this.syntax.NodeType(part)) {
      case "Lit": {
        const raw = String(part.Value);
        const value = quoted ? unescapeQuoted(raw) : unescapeBare(raw);
        return { value, home: !quoted && raw.startsWith("~"), template: [value] };
      }
      case "SglQuoted": {
        const raw = String(part.Value);
        if (part.Dollar && raw.includes("\\")) {
          word.escapes.push(raw);
          return { home: false };
        }
        return { value: raw, home: false, template: [raw] };
      }
      case "DblQuoted": {
        let value: string | undefined = "";
        let template: TemplatePart[] | undefined = [];
        let home = false;
        (part.Parts ?? []).forEach((inner: Node, index: number) => {
          const piece = this.part(inner, word, true);
          if (index === 0) home = piece.home;
          value = value === undefined || piece.value === undefined ? undefined : value + piece.value;
          template = template === undefined || piece.template === undefined ? undefined : [...template, ...piece.template];
        });
        return { home, ...(value === undefined ? {} : { value }), ...(template === undefined ? {} : { template }) };
      }
      case "ParamExp": {
        const name = String(part.Param?.Value ?? "");
        word.params.push(name);
        const home = name === "HOME";
        // What runs inside a default (`${X:-$(…)}`) is read too.
        for (const inner of part.Exp?.Word?.Parts ?? []) this.part(inner, word, true);
        if (part.Length || part.Index || part.Repl || part.Slice || part.Excl || part.Names) return { home };
        if (!part.Exp) return { home, template: [{ param: name }] };
        const fallback = this.ops.defaults.has(part.Exp.Op) && part.Exp.Word ? this.word(part.Exp.Word).value : undefined;
        return fallback === undefined ? { home } : { home, template: [{ param: name, fallback }] };
      }
      case "CmdSubst":
        word.substitutions.push({ kind: "command", commands: this.statements(part.Stmts, []) });
        return { home: false };
      case "ProcSubst":
        word.substitutions.push({ kind: "process", commands: this.statements(part.Stmts, []) });
        return { home: false };
      default:
        // Arithmetic, brace and extended-glob parts: no static value; any substitution inside is still read.
        this.syntax.Walk(part, (node: Node) => {
          const kind = node ? this.syntax.NodeType(node) : "";
          if (kind !== "CmdSubst" && kind !== "ProcSubst") return true;
          this.part(node, word, quoted);
          return false;
        });
        return { home: false };
    }
  }

  sourceOf(node: Node): string {
    return this.#decoder.decode(this.#bytes.subarray(node.Pos().Offset(), node.End().Offset()));
  }
}

/** An unquoted literal's value: each backslash quotes the character after it (a backslash-newline disappears). */
function unescapeBare(raw: string): string {
  return raw.replace(/\\\n/g, "").replace(/\\(.)/gs, "$1");
}

/** Inside double quotes a backslash quotes only `$`, `` ` ``, `"`, `\` and a newline. */
function unescapeQuoted(raw: string): string {
  return raw.replace(/\\\n/g, "").replace(/\\([$`"\\])/g, "$1");
}
