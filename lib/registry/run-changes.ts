// What each session's current (or last) run changed, from its user messages' `summary.diffs` as
// OpenCode updates them. A run is every user message from the first after an idle to the next
// idle; a summary that arrives just after the idle still counts for the run it belongs to. Pure.
// Bounded: only the last runs of the RUNS_KEPT sessions that started one last are kept (a run is
// reported seconds after its idle; its diffs, on 1.1.53 whole files, are not kept for days).
import type { FileChange } from "../hermes-events.ts";

interface Run {
  ended: boolean;
  /** Per user message, in order. */
  messages: Map<string, FileChange[]>;
}

/** Sessions whose last run's changes are kept. */
export const RUNS_KEPT = 50;

export class RunChanges {
  readonly #runs = new Map<string, Run>();

  /** A user message was created or updated (`changes`: its summary, once OpenCode has one). */
  note(sessionID: string, messageID: string, changes: FileChange[] | undefined): void {
    let run = this.#runs.get(sessionID);
    if (!run || (run.ended && !run.messages.has(messageID))) {
      run = { ended: false, messages: new Map() };
      this.#runs.delete(sessionID);
      this.#runs.set(sessionID, run);
      if (this.#runs.size > RUNS_KEPT) this.#runs.delete(this.#runs.keys().next().value!);
    }
    if (changes) run.messages.set(messageID, changes);
    else if (!run.messages.has(messageID)) run.messages.set(messageID, []);
  }

  /** The session went idle: its next user message starts a new run. */
  end(sessionID: string): void {
    const run = this.#runs.get(sessionID);
    if (run) run.ended = true;
  }

  /** Every file the run changed, one entry per file (counts added up over its messages). */
  of(sessionID: string): FileChange[] {
    const byFile = new Map<string, FileChange>();
    for (const changes of this.#runs.get(sessionID)?.messages.values() ?? []) {
      for (const change of changes) {
        const seen = byFile.get(change.file);
        byFile.set(change.file, seen ? combine(seen, change) : { ...change });
      }
    }
    return [...byFile.values()];
  }

  /** The user message that started the session's current (or last) run: what Undo reverts to. */
  firstMessage(sessionID: string): string | undefined {
    return this.#runs.get(sessionID)?.messages.keys().next().value;
  }

  /** The last user message of the session's current (or last) run. */
  lastMessage(sessionID: string): string | undefined {
    const messages = [...(this.#runs.get(sessionID)?.messages.keys() ?? [])];
    return messages[messages.length - 1];
  }

  forget(sessionID: string): void {
    this.#runs.delete(sessionID);
  }

  /** How many sessions' runs are kept. */
  get size(): number {
    return this.#runs.size;
  }
}

/** The same file changed again later in the run. */
function combine(first: FileChange, later: FileChange): FileChange {
  const combined: FileChange = { file: first.file, additions: first.additions + later.additions, deletions: first.deletions + later.deletions };
  const status = first.status ?? later.status;
  if (status !== undefined) combined.status = status;
  if (first.patch !== undefined || later.patch !== undefined) combined.patch = [first.patch, later.patch].filter((patch) => patch !== undefined).join("\n");
  const before = first.before ?? later.before;
  const after = later.after ?? first.after;
  if (before !== undefined) combined.before = before;
  if (after !== undefined) combined.after = after;
  return combined;
}
