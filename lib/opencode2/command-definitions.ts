// What a custom command of OpenCode 2.0.15 sends (issue 49, item 10), its pure half. 2.0.15's `GET
// /api/command` gives names and descriptions only; its `GET /api/config` gives the entries it reads
// commands from, in its order (a later definition of a name wins): config documents with their
// `commands` (templates and all) and directories, in which it reads `{command,commands}/**/*.md`
// (sorted; the name is the path below `command/` without `.md`; the template is the markdown body
// after the frontmatter, trimmed). Measured on the binary (docs/compatibility.md). Hermes reads
// those files the same way (lib/opencode2/command-files.ts) and judges here what it can be sure of.
import { isRecord } from "../util/is-record.ts";

/** A definition of a command: `template` undefined when it is there but Hermes would not read it (too large, a link out). */
export interface CommandDefinition {
  name: string;
  template?: string;
}

/** One of OpenCode's config entries, read: its definitions, and whether they are all of them (a directory cut by the caps is not). */
export interface DefinitionSource {
  definitions: CommandDefinition[];
  complete: boolean;
}

/** What Hermes knows of a command's template. */
export interface KnownTemplate {
  /** The definition OpenCode runs, when Hermes could read it. */
  template?: string;
  /** Other definitions of the name: their shell lines are shown too when Hermes cannot be sure which one runs. */
  others: string[];
  /** Why Hermes cannot be sure what runs: no definition it could read, or definitions that differ. */
  unsure?: "unknown" | "ambiguous";
}

/**
 * 2.0.15's own commands (name → description, as `GET /api/command` lists them). They send a prompt
 * built into OpenCode and run no shell line; a definition of the same name in the config wins.
 */
const BUILT_IN: Readonly<Record<string, string>> = {
  init: "guided AGENTS.md setup",
  review: "review changes [commit|branch|pr], defaults to uncommitted",
};

/** What runs for `name` (listed with `description`), from the sources in OpenCode's order. */
export function knownTemplate(name: string, description: string | undefined, sources: readonly DefinitionSource[]): KnownTemplate {
  const found = sources.flatMap((source, index) => source.definitions.filter((d) => d.name === name).map((d) => ({ ...d, index })));
  const last = found.at(-1);
  const after = last === undefined ? sources : sources.slice(last.index + 1);
  // A source cut short after the last definition found (or anywhere, when none was) may hold a later one.
  const cut = after.some((source) => !source.complete);
  if (last === undefined) return !cut && Object.hasOwn(BUILT_IN, name) && BUILT_IN[name] === description ? { others: [] } : { others: [], unsure: "unknown" };
  const others = [...new Set(found.slice(0, -1).flatMap((d) => (d.template !== undefined && d.template !== last.template ? [d.template] : [])))];
  const unreadable = found.some((d) => d.template === undefined);
  if (last.template === undefined) return { others, unsure: "unknown" };
  // OpenCode drops a definition whose frontmatter it cannot read, and an earlier one then runs: differing ones leave Hermes unsure.
  return {
    template: last.template,
    others,
    ...(cut || unreadable ? { unsure: "unknown" as const } : others.length > 0 ? { unsure: "ambiguous" as const } : {}),
  };
}

/** The commands of one config document (`info.commands`: name → `{ template }`). */
export function documentDefinitions(info: unknown): CommandDefinition[] {
  const commands = isRecord(info) ? info.commands : undefined;
  if (!isRecord(commands)) return [];
  return Object.entries(commands).map(([name, command]) =>
    isRecord(command) && typeof command.template === "string" ? { name, template: command.template } : { name },
  );
}

/** A command's name from its file's path below the directory (`command/sub/x.md` → `sub/x`), as 2.0.15 makes it. */
export function commandName(relative: string): string {
  return relative
    .replaceAll("\\", "/")
    .replace(/^(command|commands)\//, "")
    .replace(/\.md$/, "");
}

const DELIMITER = "---";
const CLOSING = `\n${DELIMITER}`;

/**
 * A command file's template: the body after its frontmatter, trimmed, as gray-matter (which 2.0.15
 * uses) splits it: frontmatter only when the file starts with `---` (not `----`), up to the first
 * line that starts with `---`; a byte-order mark is dropped first.
 */
export function markdownTemplate(text: string): string {
  const file = text.startsWith("\uFEFF") ? text.slice(1) : text;
  if (!file.startsWith(DELIMITER) || file.charAt(DELIMITER.length) === "-") return file.trim();
  const rest = file.slice(DELIMITER.length);
  const firstLineEnd = rest.search(/\r?\n/);
  const afterLanguage = firstLineEnd === -1 ? "" : rest.slice(firstLineEnd);
  const close = afterLanguage.indexOf(CLOSING);
  if (close === -1) return "";
  let body = afterLanguage.slice(close + CLOSING.length);
  if (body.startsWith("\r")) body = body.slice(1);
  if (body.startsWith("\n")) body = body.slice(1);
  return body.trim();
}
