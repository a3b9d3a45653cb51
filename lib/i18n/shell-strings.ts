// The shape of the strings of the shell from the phone (`!command`, docs/phone.md): part of the
// catalogue (strings.ts' `shell`), filled in by shell-en.ts and shell-zh.ts. Parameters typed Html
// come escaped; plain strings are button labels and callback answers.
import type { Html } from "../text/html.ts";

export interface ShellStrings {
  /** /help's line. */
  help: Html;
  /** Why a command is not run. */
  off: Html;
  busy: Html;
  noRoute: Html;
  gone: Html;
  /** A flagged command's question (its ⚠️ lines follow), and what became of it. */
  ask: (command: Html) => Html;
  cancelled: (command: Html) => Html;
  /** While it runs, and after a minute. */
  running: (command: Html) => Html;
  stillRunning: (command: Html) => Html;
  /** The answer: its head line (the command as sent, its exit status), its tail, the note on a cut. */
  exit: (command: Html, status: number) => Html;
  exitUnknown: (command: Html) => Html;
  noOutput: Html;
  tailNote: (shown: number, total: number) => Html;
  outputCaption: Html;
  failed: (command: Html, why: Html) => Html;
  /** Buttons and callback answers (plain). */
  runButton: string;
  cancelButton: string;
  stopButton: string;
  stopping: string;
  starting: string;
  cancelling: string;
  stale: string;
}
