// What Undo looks like: the ⏪ Undo button on a Done notice, the red confirmation naming the files
// that go back, the outcome with ↪ Redo, and the refusals. Pure. File names and titles are the
// LLM's text: escaped and marked (reveal) like the changed-files list.
import type { Strings } from "../../i18n/catalog.ts";
import type { FileChange } from "../../hermes-events.ts";
import { encodeCallback, type UndoAction } from "../codec.ts";
import { escapeHtml, escapeWithin, html, type Html, joinHtml, trustedHtml } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import { contextLine, type PromptContext } from "./render-context.ts";
import type { InlineButton, RenderedMessage } from "../wire/rendered-message.ts";

/** Files named in the confirmation; the rest are counted. */
const LISTED_FILES = 12;
const FILE_NAME_LIMIT = 120;

function button(key: string, action: UndoAction, text: string, danger = false): InlineButton {
  return { text, callback_data: encodeCallback({ key, action, question: 0, option: 0 }), ...(danger ? { style: "danger" as const } : {}) };
}

/** The button a Done notice carries when its run changed files. */
export function undoButton(key: string, t: Strings): InlineButton {
  return button(key, "undo", t.undo.button);
}

export type UndoView =
  | { kind: "confirm"; files: readonly FileChange[] }
  | { kind: "undone"; restored: number }
  | { kind: "redone" }
  | { kind: "final"; restored: number }
  | { kind: "failed"; error: string; retry: "undoConfirm" | "redo" }
  | { kind: "noGit" };

/** One of Undo's own messages for a run. `failed.error` is plain text (escaped here). */
export function renderUndo(view: UndoView, key: string, session: PromptContext & { t: Strings }): RenderedMessage {
  const { t } = session;
  const title = contextLine(session);
  switch (view.kind) {
    case "confirm":
      return { text: t.undo.confirm(title, fileList(view.files, t)), keyboard: [[button(key, "undoConfirm", t.undo.confirmButton, true)]] };
    case "undone":
      return { text: t.undo.undone(title, view.restored), keyboard: [[button(key, "redo", t.undo.redoButton)]] };
    case "redone":
      return { text: t.undo.redone(title), keyboard: [[undoButton(key, t)]] };
    case "final":
      // Its first line only (no Redo line): each line of the catalog's text and of contextLine closes its own tags.
      return { text: html`${trustedHtml(t.undo.undone(title, view.restored).split("\n")[0]!)}\n${t.undo.final}`, keyboard: [] };
    case "failed": {
      const again = view.retry === "redo" ? button(key, "redo", t.undo.redoButton) : button(key, "undoConfirm", t.undo.confirmButton, true);
      return { text: t.undo.failed(title, escapeWithin(reveal(view.error, t), 300)), keyboard: [[again]] };
    }
    case "noGit":
      return { text: t.undo.noGit(title), keyboard: [] };
  }
}

/** The files that go back, one per line; a file the run created is marked (undoing removes it). */
function fileList(files: readonly FileChange[], t: Strings): Html {
  const lines = files
    .slice(0, LISTED_FILES)
    .map((change) => html`<code>${escapeWithin(reveal(change.file, t), FILE_NAME_LIMIT)}</code>${escapeHtml(change.status === "added" ? t.undo.created : "")}`);
  if (files.length > LISTED_FILES) lines.push(t.changes.more(files.length - LISTED_FILES));
  return joinHtml(lines, "\n");
}
