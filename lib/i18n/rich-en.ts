// The strings of rich messages in English.
import { escapeHtml, html } from "../text/html.ts";
import type { RichStrings } from "./rich-strings.ts";

export const richEn: RichStrings = {
  answerCut: (shown, total, file) =>
    html`<i>✂️ Only the end of the answer fits in one message (${shown} of its ${total} characters): the whole answer is in the file <code>${file}</code> below.</i>`,
  diffSummary: (file, added, removed) => html`📄 The whole diff of <code>${file}</code> (+${added} −${removed}): tap to open`,
  fileSummary: (file, kind, added, removed) => html`📄 <code>${file}</code>${kind} +${added} −${removed}`,
  diffLeftOut: (count, file) =>
    html`✂️ ${escapeHtml(count === 1 ? "One file's change does" : `${count} files' changes do`)} not fit in this message: the whole diff is in the file <code>${file}</code> below.`,
  scheduleColumns: ["#", "When", "Project", "Next run", "Instruction"],
  historyColumns: ["#", "Prompt", "Files it changed"],
};
