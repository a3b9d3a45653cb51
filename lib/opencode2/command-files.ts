// OpenCode 2.0.15's custom commands read from disk as it reads them (issue 49, item 10), the I/O half
// of lib/opencode2/command-definitions.ts: for each directory of its config entries (`GET
// /api/config`: the owner's config dir, each `.opencode` from the filesystem root down to the
// project), the `.md` files below its `command/` and `commands/`, sorted. Read-only and capped: at
// most FILES files of BYTES each, DEPTH folders deep; a file or folder that links out of the
// directory is not read (its command is then one Hermes cannot be sure of), nor is one past a cap.
import fs from "node:fs/promises";
import path from "node:path";
import { isRecord } from "../util/is-record.ts";
import { type CommandDefinition, commandName, type DefinitionSource, documentDefinitions, markdownTemplate } from "./command-definitions.ts";
import { isInside } from "../util/is-inside.ts";

export interface CommandFileCaps {
  files: number;
  bytes: number;
  depth: number;
}

export const COMMAND_FILE_CAPS: CommandFileCaps = { files: 200, bytes: 64 * 1024, depth: 8 };

/** The folders 2.0.15 reads below each config directory. */
const FOLDERS = ["command", "commands"];

/** The sources of `GET /api/config`'s answer (a list of `{ type: "document", info }` and `{ type: "directory", path }`), in its order. */
export async function readConfigSources(body: unknown, caps: CommandFileCaps = COMMAND_FILE_CAPS): Promise<DefinitionSource[]> {
  const entries = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body.data) ? body.data : undefined;
  if (!entries) return [{ definitions: [], complete: false }];
  return Promise.all(
    entries.map((entry): DefinitionSource | Promise<DefinitionSource> => {
      if (isRecord(entry) && entry.type === "document") return { definitions: documentDefinitions(entry.info), complete: true };
      if (isRecord(entry) && entry.type === "directory" && typeof entry.path === "string" && path.isAbsolute(entry.path))
        return readDirectorySource(entry.path, caps);
      return { definitions: [], complete: false };
    }),
  );
}

/** The commands of one config directory; a directory that is not there has none. */
export async function readDirectorySource(directory: string, caps: CommandFileCaps = COMMAND_FILE_CAPS): Promise<DefinitionSource> {
  const root = await fs.realpath(directory).catch(() => undefined);
  if (root === undefined) return { definitions: [], complete: true };
  const walk = new Walk(root, caps);
  for (const folder of FOLDERS) await walk.folder(path.join(root, folder), folder, 0);
  walk.files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  const definitions = await Promise.all(walk.files.map((file) => readDefinition(file, caps)));
  return { definitions, complete: walk.complete };
}

interface Found {
  relative: string;
  /** The file's real path, when it is inside the directory. */
  real?: string;
}

class Walk {
  readonly files: Found[] = [];
  complete = true;
  readonly #root: string;
  readonly #caps: CommandFileCaps;
  readonly #seen = new Set<string>();

  constructor(root: string, caps: CommandFileCaps) {
    this.#root = root;
    this.#caps = caps;
  }

  async folder(absolute: string, relative: string, depth: number): Promise<void> {
    const real = await fs.realpath(absolute).catch(() => undefined);
    if (real === undefined) return; // not there
    if (!isInside(real, this.#root)) return this.#cut();
    if (this.#seen.has(real)) return;
    this.#seen.add(real);
    if (depth > this.#caps.depth) return this.#cut();
    const entries = await fs.readdir(real, { withFileTypes: true }).catch(() => undefined);
    if (!entries) return this.#cut();
    for (const entry of entries) {
      const childRelative = `${relative}/${entry.name}`;
      const child = path.join(real, entry.name);
      if (entry.isDirectory()) await this.folder(child, childRelative, depth + 1);
      else if (entry.isSymbolicLink()) await this.#link(child, childRelative, depth);
      else if (entry.isFile() && entry.name.endsWith(".md")) this.#file({ relative: childRelative, real: child });
    }
  }

  async #link(absolute: string, relative: string, depth: number): Promise<void> {
    const real = await fs.realpath(absolute).catch(() => undefined);
    const stat = real === undefined ? undefined : await fs.stat(real).catch(() => undefined);
    if (stat?.isDirectory()) return this.folder(absolute, relative, depth + 1);
    if (!relative.endsWith(".md")) return;
    if (stat === undefined) return; // a dangling link: OpenCode reads nothing there either
    this.#file(real !== undefined && isInside(real, this.#root) ? { relative, real } : { relative });
  }

  #file(found: Found): void {
    if (this.files.length < this.#caps.files) this.files.push(found);
    else this.#cut();
  }

  /** Something Hermes would not read: names below it are unknown. */
  #cut(): void {
    this.complete = false;
  }
}

async function readDefinition(file: Found, caps: CommandFileCaps): Promise<CommandDefinition> {
  const name = commandName(file.relative);
  if (file.real === undefined) return { name };
  const handle = await fs.open(file.real, "r").catch(() => undefined);
  if (!handle) return { name };
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size > caps.bytes) return { name };
    return { name, template: markdownTemplate(await handle.readFile("utf8")) };
  } catch {
    return { name };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
