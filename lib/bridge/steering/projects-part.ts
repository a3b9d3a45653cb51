// A process' part of /new, as it arrives from another process over the relay: the project
// directories it serves. Untrusted until checked: at most MAX_PROJECTS absolute paths of at most
// MAX_PATH characters each; anything else drops the whole part; and the picker of the projects gathered. Pure.
import path from "node:path";
import { isRecord } from "../../util/is-record.ts";
import { shortKey } from "../core/short-key.ts";
import type { Strings } from "../../i18n/catalog.ts";
import { renderProjectPicker } from "../../telegram/render/render-new.ts";
import type { RenderedMessage } from "../../telegram/wire/rendered-message.ts";

const MAX_PROJECTS = 100;
const MAX_PATH = 4_096;

export interface ProjectsPart {
  directories: string[];
}

export function parseProjectsPart(value: unknown): ProjectsPart | undefined {
  if (!isRecord(value) || !Array.isArray(value.directories) || value.directories.length > MAX_PROJECTS) return undefined;
  const directories: string[] = [];
  for (const entry of value.directories) {
    if (typeof entry !== "string" || !path.isAbsolute(entry) || entry.length > MAX_PATH || entry.includes("\0")) return undefined;
    directories.push(entry);
  }
  return { directories };
}

/** Every directory the well-formed parts name, each once (a malformed part is dropped). */
export function gatheredDirectories(received: readonly unknown[]): string[] {
  return [...new Set(received.map(parseProjectsPart).flatMap((part) => part?.directories ?? []))];
}

/** The served directory a picker button's key names, if any. */
export function directoryWithKey(directories: readonly string[], key: string): string | undefined {
  return directories.find((directory) => projectKey(directory) === key);
}

/** A directory's key on a picker button. */
export function projectKey(directory: string): string {
  return shortKey(directory);
}

/** The picker of these projects, a button each keyed by projectKey (render-new.ts draws it): /new's, /diff's, /new --worktree's. */
export function projectPicker(directories: readonly string[], t: Strings, options: Parameters<typeof renderProjectPicker>[2]): RenderedMessage {
  return renderProjectPicker(
    directories.map((directory) => ({ key: projectKey(directory), directory })),
    t,
    options,
  );
}
