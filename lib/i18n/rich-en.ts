// The strings of rich messages in English.
import { html } from "../text/html.ts";
import type { RichStrings } from "./rich-strings.ts";

export const richEn: RichStrings = {
  answerCut: (shown, total, file) =>
    html`<i>✂️ Only the end of the answer fits in one message (${shown} of its ${total} characters): the whole answer is in the file <code>${file}</code> below.</i>`,
  diffSummary: (file, added, removed) => html`📄 The whole diff of <code>${file}</code> (+${added} −${removed}): tap to open`,
};
