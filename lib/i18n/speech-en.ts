// The strings of spoken answers in English.
import { html } from "../text/html.ts";
import type { SpeechStrings } from "./speech-strings.ts";

export const speechEn: SpeechStrings = {
  command: "Spoken answers: /voice on, off or auto (auto: only to voice notes)",
  mode: {
    on: html`🔊 Spoken answers: <b>on</b>. Every Done notice is followed by its answer as a voice message.`,
    off: html`🔇 Spoken answers: <b>off</b>.`,
    auto: html`🔊 Spoken answers: <b>auto</b>. A run you started or continued with a voice note gets its answer as a voice message too.`,
  },
  usage: html`Use <code>/voice on</code>, <code>/voice off</code> or <code>/voice auto</code>.`,
  notConfigured: html`⚠️ Spoken answers need a speech service. Set <code>HERMES_SPEECH_URL</code> in the environment OpenCode runs in (see docs/speech.md).`,
  caption: html`🔊 The answer, spoken`,
  failed: (detail) => html`⚠️ The answer could not be spoken (${detail}). It is in the text above.`,
  keyRefused: html`⚠️ The answer could not be spoken: the speech service refused the key (check <code>HERMES_SPEECH_KEY</code>).`,
  foreignListener: (address, uid) =>
    html`⚠️ The answer was not spoken: ${address} is listened on by another user of this machine (uid ${uid}), so nothing was sent there.`,
  spoken: {
    codeBlock: (lines) => (lines === 1 ? "(a code block of one line)" : `(a code block of ${lines} lines)`),
    table: (rows) => (rows === 1 ? "(a table of one row)" : `(a table of ${rows} rows)`),
    link: "(a link)",
    restInText: "The rest is in the text.",
  },
};
