// What the bridge knows of transcription: bytes and their audio type in, text out, or a
// TranscriptionError that says why not. The one implementation that speaks HTTP is
// openai-compatible.ts, loaded on first use by load-transcriber.ts (transcription is off for most users).
import type { AudioType } from "./audio-type.ts";

export interface Transcriber {
  /** The text heard in `bytes` (empty when nothing was), or a TranscriptionError. Never retried. */
  transcribe(bytes: Uint8Array, audio: AudioType): Promise<string>;
}

/** How long Hermes waits for the service's answer before it tells the phone it gave up. */
export const TRANSCRIBE_TIMEOUT_MS = 60_000;

export type TranscriptionFailure =
  /** The service refused the key (401 or 403). */
  | { kind: "refused"; status: number }
  /** Nothing was sent: a loopback service's port is listened on by another user of the machine. */
  | { kind: "foreignListener"; address: string; uid: number }
  /** The answer or its transcript passed `limit` (a service that is broken, or not one): nothing goes on. */
  | { kind: "tooLong"; limit: string }
  /** No answer within `ms`. */
  | { kind: "timeout"; ms: number }
  /** Anything else: a status and what the service said, or why it could not be reached (untrusted text). */
  | { kind: "failed"; detail: string };

export class TranscriptionError extends Error {
  constructor(readonly failure: TranscriptionFailure) {
    super(messageOf(failure));
    this.name = "TranscriptionError";
  }
}

function messageOf(failure: TranscriptionFailure): string {
  if (failure.kind === "failed") return failure.detail;
  if (failure.kind === "refused") return `key refused (${failure.status})`;
  if (failure.kind === "foreignListener") return `${failure.address} is listened on by another user (uid ${failure.uid}): nothing sent`;
  if (failure.kind === "tooLong") return `the answer is longer than ${failure.limit}`;
  return `no answer within ${failure.ms} ms`;
}
