// What an upload reads: bytes in memory, or bytes read a chunk at a time (a file of the project the
// agent sends: never held whole, disk-upload.ts), and the error when they could not be read.

/**
 * Bytes read a chunk at a time, from the start each time `chunks()` is called (an upload tried
 * again reads them again). A chunk is valid until the next is asked for (its buffer may be reused).
 */
export interface ChunkedBytes {
  /** How many bytes the chunks hold at most (a scrubbed secret makes them fewer). */
  readonly size: number;
  chunks(): AsyncIterable<Uint8Array>;
}

/** How many bytes a file holds (at most, for chunked bytes). */
export function fileSize(bytes: Uint8Array | ChunkedBytes): number {
  return bytes instanceof Uint8Array ? bytes.length : bytes.size;
}

/** A call that failed before Telegram was asked (what to upload could not be read): trying again would fail the same way. `cause`: why. */
export class NotSentError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = "NotSentError";
  }
}
