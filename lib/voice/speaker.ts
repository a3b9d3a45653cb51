// What the bridge knows of speech: words in, OGG/Opus audio out (a voice message), or a
// SpeechError that says why not. The one implementation that speaks HTTP is openai-speech.ts,
// loaded on first use by load-speaker.ts (speech is off for most users).

export interface Speaker {
  /** The words spoken, as OGG/Opus bytes, or a SpeechError. Never retried. */
  speak(text: string): Promise<Uint8Array>;
}

/** How long Hermes waits for the service's audio before it tells the phone it gave up. */
export const SPEECH_TIMEOUT_MS = 90_000;
/**
 * The audio's size, at most: two minutes of Opus speech are well under 2 MB; 20 MB leaves room for
 * a generous bitrate and stays far below Telegram's 50 MB for a voice message a bot sends.
 */
export const SPEECH_LIMIT_BYTES = 20 * 1024 * 1024;

export type SpeechFailure =
  /** The service refused the key (401 or 403). */
  | { kind: "refused"; status: number }
  /** Nothing was sent: a loopback service's port is listened on by another user of the machine. */
  | { kind: "foreignListener"; address: string; uid: number }
  /** Anything else: a status and what the service said, or why it could not be reached (untrusted text). */
  | { kind: "failed"; detail: string };

export class SpeechError extends Error {
  constructor(readonly failure: SpeechFailure) {
    super(
      failure.kind === "failed"
        ? failure.detail
        : failure.kind === "refused"
          ? `key refused (${failure.status})`
          : `${failure.address} is listened on by another user (uid ${failure.uid}): nothing sent`,
    );
    this.name = "SpeechError";
  }
}
