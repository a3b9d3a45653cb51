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
