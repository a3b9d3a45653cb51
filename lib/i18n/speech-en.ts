// The strings of spoken answers in English.
import type { SpeechStrings } from "./speech-strings.ts";

export const speechEn: SpeechStrings = {
  command: "Spoken answers: /voice on, off or auto (auto: only to voice notes)",
  mode: {
    on: "🔊 Spoken answers: <b>on</b>. Every Done notice is followed by its answer as a voice message.",
    off: "🔇 Spoken answers: <b>off</b>.",
    auto: "🔊 Spoken answers: <b>auto</b>. A run you started or continued with a voice note gets its answer as a voice message too.",
  },
  usage: "Use <code>/voice on</code>, <code>/voice off</code> or <code>/voice auto</code>.",
  notConfigured: "⚠️ Spoken answers need a speech service. Set <code>HERMES_SPEECH_URL</code> in the environment OpenCode runs in (see docs/speech.md).",
  caption: "🔊 The answer, spoken",
  failed: (detail) => `⚠️ The answer could not be spoken (${detail}). It is in the text above.`,
  keyRefused: "⚠️ The answer could not be spoken: the speech service refused the key (check <code>HERMES_SPEECH_KEY</code>).",
  foreignListener: (address, uid) =>
    `⚠️ The answer was not spoken: ${address} is listened on by another user of this machine (uid ${uid}), so nothing was sent there.`,
  spoken: {
    codeBlock: (lines) => (lines === 1 ? "(a code block of one line)" : `(a code block of ${lines} lines)`),
    table: (rows) => (rows === 1 ? "(a table of one row)" : `(a table of ${rows} rows)`),
    link: "(a link)",
    restInText: "The rest is in the text.",
  },
};
