// The last step of `opencode-hermes setup`: offer to add Hermes to the plugin list of the user's
// global opencode.json. Shows the change, asks before writing (or takes --yes), keeps a backup of
// the old file, and writes the new one in one rename, so OpenCode never reads half a file. A config
// that is a symlink (kept in a dotfiles repository) stays one: the rename replaces its target.
import fs from "node:fs";
import path from "node:path";
import { globalConfigFile } from "../config/global-config.ts";
import { ask } from "./ask.ts";
import type { CliIo } from "./io.ts";
import { checkLine } from "./doctor-check.ts";
import { specCheck } from "./doctor-spec.ts";
import { addPluginEntry, lineDiff, replacePluginEntry } from "./opencode-config.ts";
import { ownEntry } from "./plugin-spec.ts";

/** As the kernel allows (Linux' MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;

export type EntryOutcome = "written" | "present" | "declined" | "failed";

/** `opencodeVersion`: the OpenCode on the PATH, when known (OpenCode 2 wants another entry). */
export async function offerPluginEntry(
  io: CliIo,
  options: { yes: boolean; now: () => number; opencodeVersion?: string },
  stop: AbortSignal,
): Promise<EntryOutcome> {
  const file = globalConfigFile(io.env);
  // What loads this Hermes from where setup runs: a clone's or an installed copy's plugin.ts, or the
  // published name; on OpenCode 2, which skips a file, the folder of that plugin.ts in `plugins`.
  const own = ownEntry(options.opencodeVersion);
  const { key, spec: entry } = own;
  const manual = `Add ${JSON.stringify(entry)} to the "${key}" list of ${file} (or of a project's opencode.json).`;
  let before = "";
  try {
    before = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") {
      io.err(`(Could not read ${file}: ${(error as Error).message}.) ${manual}`);
      return "failed";
    }
  }
  let edit = addPluginEntry(before, entry, key);
  if (edit.kind === "present") {
    // Listed is not loaded: a name that is not on the registry, or a path that is gone, loads nothing.
    const listed: unknown = JSON.parse(edit.spec);
    const spec = Array.isArray(listed) ? listed[0] : listed;
    const loads = typeof spec === "string" ? await specCheck(spec, file, io.env, fetch, own) : undefined;
    if (loads?.state !== "problem") {
      io.out(`✅ ${file} already loads Hermes (${edit.spec}).`);
      return "present";
    }
    io.out(checkLine(loads));
    edit = { kind: "add", text: replacePluginEntry(before, edit, entry, key) };
  }
  if (edit.kind === "invalid") {
    io.err(`(Left ${file} alone: ${edit.reason}.) ${manual}`);
    return "failed";
  }

  io.out(`OpenCode loads what its plugin list names; for this Hermes that is ${own.why}. The change to ${file}${before === "" ? " (a new file)" : ""}:`);
  if (own.note) io.out(own.note);
  io.out("");
  for (const line of lineDiff(before, edit.text)) io.out(`    ${line}`);
  io.out("");
  if (!options.yes) {
    if (!io.input?.isTTY) {
      io.out(`Not changed (no terminal to ask; --yes makes the change). ${manual}`);
      return "declined";
    }
    const answer = await ask(io.input, io.prompt, `Write this change to ${file}? [y/N] `, stop);
    if (!answer || !/^y(es)?$/i.test(answer.trim())) {
      io.out(`Not changed. ${manual}`);
      return "declined";
    }
  }
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const target = linkTarget(file);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    let backup: string | undefined;
    if (before !== "") {
      backup = `${file}.bak-${new Date(options.now()).toISOString().replace(/[:.]/g, "-")}`;
      fs.copyFileSync(file, backup, fs.constants.COPYFILE_EXCL);
    }
    const temporary = `${target}.hermes-${process.pid}.tmp`;
    const mode = before !== "" ? fs.statSync(target).mode & 0o777 : 0o644;
    fs.writeFileSync(temporary, edit.text, { mode });
    fs.renameSync(temporary, target);
    io.out(`✅ Added ${JSON.stringify(entry)} to ${file}${backup ? ` (the old file is kept as ${backup})` : ""}.`);
    return "written";
  } catch (error) {
    io.err(`(Could not write ${file}: ${(error as Error).message}.) ${manual}`);
    return "failed";
  }
}

/** The file a symlink finally points at (followed link by link, so a dangling one names the file to create); `file` itself otherwise. */
function linkTarget(file: string): string {
  let current = file;
  for (let hops = 0; hops < MAX_LINK_HOPS; hops++) {
    let link: string;
    try {
      link = fs.readlinkSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EINVAL" || (error as NodeJS.ErrnoException).code === "ENOENT") return current;
      throw error;
    }
    current = path.resolve(path.dirname(current), link);
  }
  throw new Error(`${file}: too many levels of symbolic links`);
}
