// The shape of the strings of spoken answers (/voice, the voice message after a Done notice): part
// of the catalogue (strings.ts' `speech`), filled in by speech-en.ts and speech-zh.ts. Parameters
// named `detail` come escaped; the rest are numbers. `spoken` strings are read aloud: plain words.
import type { Html } from "../text/html.ts";

export interface SpeechStrings {
  /** The menu's line for /voice. */
  command: string;
  /** The answer to /voice: the mode now, what it means. */
  mode: { on: Html; off: Html; auto: Html };
  /** /voice with an argument it does not know. */
  usage: Html;
  /** /voice on while no service is set: where to set it. */
  notConfigured: Html;
  /** The voice message's caption. */
  caption: Html;
  /** The spoken answer could not be made or sent: once, with the service's status (never the key). */
  failed: (detail: Html) => Html;
  keyRefused: Html;
  foreignListener: (address: Html, uid: number) => Html;
  /** Read aloud instead of what is not worth reading character by character. */
  spoken: {
    codeBlock: (lines: number) => string;
    table: (rows: number) => string;
    link: string;
    /** At the end of a voice that stopped before the answer did. */
    restInText: string;
  };
}
