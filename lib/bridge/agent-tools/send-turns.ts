// One agent file in memory at a time, per process: a model's answer may carry many
// telegram_send_file calls and OpenCode runs them together, each reading its whole file (up to
// 50 MB) before its upload. A call takes its turn before it reads and gives it back when the upload
// is done (sent or not); the uploads go one at a time through the outbox anyway. After a large
// file the turn's end has Bun collect (the file, its Blob and the request body are garbage by
// then), or the next file's memory is taken beside theirs and the peak grows as before. At most
// MAX_WAITING calls wait; one more is refused as busy, naming the rule.
import { processGlobal } from "../../util/process-global.ts";
import { FileRefused } from "./file-rules.ts";

export const MAX_WAITING = 8;
/** After a file this large, the turn's end asks Bun for a collection, so the next file reuses its memory. */
const COLLECT_AFTER_BYTES = 4 * 1024 * 1024;

export class SendTurns {
  #busy = false;
  readonly #waiting: Array<() => void> = [];

  constructor(private readonly maxWaiting = MAX_WAITING) {}

  /** Resolves with the turn's release once it is this call's turn; throws FileRefused "busy" past the queue's length. */
  async take(requested: string): Promise<(bytes?: number) => void> {
    if (this.#busy) {
      if (this.#waiting.length >= this.maxWaiting)
        throw new FileRefused("busy", `${requested} was not read: ${this.maxWaiting + 1} files are being sent already; send it once they are done`);
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#busy = true;
    let released = false;
    return (bytes = 0) => {
      if (released) return;
      released = true;
      // The file, its Blob and the request body are garbage now; without a collection the next file would be allocated beside them.
      // Measured on 1.18.33: 3 to 40 ms; without it five 30 MB sends in a row grew the peak as much as five at once.
      if (bytes >= COLLECT_AFTER_BYTES) (globalThis as { Bun?: { gc(force: boolean): void } }).Bun?.gc(true);
      const next = this.#waiting.shift();
      if (next) next();
      else this.#busy = false;
    };
  }
}

/** The process' turns (every plugin instance, every copy of this module). */
export function processSendTurns(): SendTurns {
  return processGlobal(Symbol.for("hermes.sendTurns"), () => new SendTurns());
}
