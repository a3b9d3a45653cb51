// The shape of the strings of spoken answers (/voice, the voice message after a Done notice): part
// of the catalogue (strings.ts' `speech`), filled in by speech-en.ts and speech-zh.ts. Parameters
// named `detail` come escaped; the rest are numbers. `spoken` strings are read aloud: plain words.
export interface SpeechStrings {
  /** The menu's line for /voice. */
  command: string;
  /** The answer to /voice: the mode now, what it means. */
  mode: { on: string; off: string; auto: string };
  /** /voice with an argument it does not know. */
  usage: string;
  /** /voice on while no service is set: where to set it. */
  notConfigured: string;
  /** The voice message's caption. */
  caption: string;
  /** The spoken answer could not be made or sent: once, with the service's status (never the key). */
  failed: (detail: string) => string;
  keyRefused: string;
  foreignListener: (address: string, uid: number) => string;
  /** Read aloud instead of what is not worth reading character by character. */
  spoken: {
    codeBlock: (lines: number) => string;
    table: (rows: number) => string;
    link: string;
    /** At the end of a voice that stopped before the answer did. */
    restInText: string;
  };
}
