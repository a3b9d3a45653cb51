// What the `opencode-hermes` commands see of the terminal, injectable so tests can drive them. Only code
// under lib/cli/ writes to stdout/stderr: the plugin never does (it would corrupt OpenCode's TUI).
import type { AttachOptions } from "../attach/attach-mode.ts";
import type { SetupTuning } from "./setup-tuning.ts";

export const EXIT = { ok: 0, error: 1, pluginLoaded: 2, usage: 64, interrupted: 130 } as const;

export interface CliIo {
  env: Record<string, string | undefined>;
  /** One line for the user (no trailing newline). */
  err(line: string): void;
  out(line: string): void;
  /** Calls `stop` on SIGINT/SIGTERM; returns a function that removes the handlers. */
  onSignal(stop: () => void): () => void;
  /** Where the user types (setup asks for the token there when none is given, if it is a TTY). */
  readonly input?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where a question to the user is written (no newline after it). */
  readonly prompt?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Tests: adjust what startAttach gets. */
  tune?(options: AttachOptions): AttachOptions;
  /** Tests: the Bot API client, timeouts and paths `opencode-hermes setup` uses. */
  setup?: SetupTuning;
}

export const processIo: CliIo = {
  env: process.env,
  err: (line) => process.stderr.write(`${line}\n`),
  out: (line) => process.stdout.write(`${line}\n`),
  onSignal(stop) {
    const handler = () => stop();
    process.on("SIGINT", handler);
    process.on("SIGTERM", handler);
    return () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    };
  },
  // Getters: process.stdin is only created when a command actually reads it.
  get input() {
    return process.stdin;
  },
  get prompt() {
    return process.stdout;
  },
};
