// What /new looks like: the project picker, the picked project, and the request for the first
// instruction. Pure. Project names come from directory names (a local user chose them): shown
// through reveal, escaped in message text, cut on graphemes in button labels.
import path from "node:path";
import type { Strings } from "../../i18n/catalog.ts";
import { encodeCallback, type ProjectAction } from "../codec.ts";
import { cutText, EMPTY_HTML, escapeHtml, html, type Html } from "../../text/html.ts";
import { projectName } from "./render-context.ts";
import type { RenderedMessage } from "../wire/rendered-message.ts";
import { reveal } from "../../text/reveal.ts";

/** A picker button's label, in characters the user sees. */
const LABEL_LIMIT = 60;
/** Telegram allows 100 buttons; a picker longer than this says how many it left out. */
export const PROJECT_ROWS = 20;

export interface ProjectChoice {
  key: string;
  directory: string;
}

/** Each directory's name: its base name, with its parent's name added where two base names collide. */
export function projectLabels(directories: readonly string[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const directory of directories) count.set(projectName(directory), (count.get(projectName(directory)) ?? 0) + 1);
  const labels = new Map<string, string>();
  for (const directory of directories) {
    const name = projectName(directory);
    const parent = path.basename(path.dirname(directory));
    labels.set(directory, (count.get(name) ?? 0) > 1 && parent ? `${parent}/${name}` : name);
  }
  return labels;
}

/**
 * One button per project, sorted by name; `action`: what a tap does (/new's by default, /diff's,
 * /new --worktree's); `worktree`: each project also gets 🌿 (the new session in a new worktree).
 */
export function renderProjectPicker(
  choices: readonly ProjectChoice[],
  t: Strings,
  { action = "newIn", worktree = false }: { action?: ProjectAction; worktree?: boolean } = {},
): RenderedMessage {
  const labels = projectLabels(choices.map((choice) => choice.directory));
  const sorted = [...choices].sort((a, b) => labels.get(a.directory)!.localeCompare(labels.get(b.directory)!));
  const shown = sorted.slice(0, PROJECT_ROWS);
  const keyboard = shown.map(({ key, directory }) => [
    { text: `📁 ${cutText(reveal(labels.get(directory)!, t), LABEL_LIMIT)}`, callback_data: encodeCallback({ key, action, question: 0, option: 0 }) },
    ...(worktree ? [{ text: t.git.worktreeButton, callback_data: encodeCallback({ key, action: "worktreeIn", question: 0, option: 0 }) }] : []),
  ]);
  const rest = sorted.length - shown.length;
  return { text: html`${t.steer.pick}${rest > 0 ? html`\n${escapeHtml(t.status.andMore(rest))}` : EMPTY_HTML}`, keyboard };
}

/** The picker once a project is chosen: its name, no buttons. */
export function renderPicked(directory: string, t: Strings): RenderedMessage {
  return { text: t.steer.picked(escapeHtml(cutText(reveal(projectName(directory), t), LABEL_LIMIT))), keyboard: [] };
}

/** The force-reply request for the new session's first instruction. */
export function renderAskText(directory: string, t: Strings): Html {
  return t.steer.askText(escapeHtml(cutText(reveal(projectName(directory), t), LABEL_LIMIT)));
}
