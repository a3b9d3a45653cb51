// One agent file sent at a time, per process: a model's answer may carry many telegram_send_file
// calls and OpenCode runs them together. A call takes its turn before it opens its file and gives it
// back when the upload is done (sent or not); the uploads go one at a time through the outbox
// anyway, and so at most one file is open and one private copy on disk (the file is read a chunk at
// a time, never held whole: lib/telegram/wire/disk-upload.ts). At most MAX_WAITING calls wait; one
// more is refused as busy, naming the rule.
import { processGlobal } from "../../util/process-global.ts";
import { FileRefused } from "./file-rules.ts";

export const MAX_WAITING = 8;
export class SendTurns {
  #busy = false;
  readonly #waiting: Array<() => void> = [];

  constructor(private readonly maxWaiting = MAX_WAITING) {}

  /** Resolves with the turn's release once it is this call's turn; throws FileRefused "busy" past the queue's length. */
  async take(requested: string): Promise<() => void> {
    if (this.#busy) {
      if (this.#waiting.length >= this.maxWaiting)
        throw new FileRefused("busy", `${requested} was not read: ${this.maxWaiting + 1} files are being sent already; send it once they are done`);
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    this.#busy = true;
    let released = false;
    return () => {
      if (released) return;
      released = true;
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
