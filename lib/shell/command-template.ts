// What a custom OpenCode command runs before its prompt (issue 49, item 10), its pure half: the
// `` !`…` `` shell lines of a command's template. OpenCode 1.18.33, 1.1.53 and 2.0.15 find them with
// the same pattern, /!`([^`]+)`/g, run each on this machine when the command runs, unasked, and put
// the output in the prompt. lib/bridge/shell/template-flags.ts flags each one.

/** OpenCode's own pattern for a template's shell lines. */
const SHELL_LINE = /!`([^`]+)`/g;

/** The shell lines of `template`, in order, as OpenCode will run them. */
export function templateShellLines(template: string): string[] {
  return Array.from(template.matchAll(SHELL_LINE), (match) => match[1]!);
}

/** OpenCode's argument words (quotes kept together, then stripped), `$1`…`$9…` placeholders, and its quote stripper. */
const ARGUMENT_WORD = /(?:\[Image\s+\d+\]|"[^"]*"|'[^']*'|[^\s"']+)/gi;
const POSITIONAL = /\$(\d+)/g;
const QUOTES = /^["']|["']$/g;

/**
 * The text OpenCode makes of `template` and the typed arguments before it looks for shell lines
 * (1.18.33 and 2.0.15 alike): `$N` is the Nth argument word (the highest `$N` takes the rest),
 * `$ARGUMENTS` all of them, and without any placeholder the arguments are appended. Shell lines in
 * the arguments themselves run too.
 */
export function expandCommandTemplate(template: string, args: string): string {
  const words = (args.match(ARGUMENT_WORD) ?? []).map((word) => word.replace(QUOTES, ""));
  const placeholders = template.match(POSITIONAL) ?? [];
  const last = Math.max(0, ...placeholders.map((placeholder) => Number(placeholder.slice(1))));
  const expanded = template
    .replaceAll(POSITIONAL, (_, digits: string) => {
      const position = Number(digits);
      if (position - 1 >= words.length) return "";
      return position === last ? words.slice(position - 1).join(" ") : words[position - 1]!;
    })
    .replaceAll("$ARGUMENTS", () => args);
  return placeholders.length === 0 && !template.includes("$ARGUMENTS") && args.trim() ? `${expanded}\n\n${args}` : expanded;
}
