// The strings of the shell from the phone in English.
import { html } from "../text/html.ts";
import type { ShellStrings } from "./shell-strings.ts";

export const shellEn: ShellStrings = {
  help: html`• <code>!</code><i>command</i> as a reply to a session's message (or in its topic) runs it in the session's directory through OpenCode's shell, as the desk does; a flagged command asks first (<code>HERMES_SHELL=off</code> turns it off).`,
  off: html`The shell from the phone is off (<code>HERMES_SHELL=off</code>).`,
  busy: html`The session is working: send the command once it is done.`,
  noRoute: html`This OpenCode has no shell route.`,
  gone: html`OpenCode no longer has this session.`,
  ask: (command) => html`⚠️ <b>Run this command?</b>\n<pre>${command}</pre>`,
  cancelled: (command) => html`✖ Not run: <code>${command}</code>`,
  running: (command) => html`⏳ Running <code>${command}</code>…`,
  stillRunning: (command) => html`⏳ Still running after a minute: <code>${command}</code>`,
  exit: (command, status) => html`💻 <code>${command}</code>\nExit status <b>${status}</b>`,
  exitUnknown: (command) => html`💻 <code>${command}</code>\nExit status unknown (OpenCode recorded none)`,
  noOutput: html`(no output)`,
  tailNote: (shown, total) => html`The last ${shown} of ${total} lines; the whole output is in output.txt.`,
  outputCaption: html`The whole output`,
  failed: (command, why) => html`⚠️ <code>${command}</code> could not run: ${why}`,
  runButton: "▶ Run",
  cancelButton: "✖ Cancel",
  stopButton: "⏹ Stop",
  stopping: "Stopping…",
  starting: "Running…",
  cancelling: "Cancelled",
  stale: "This command is no longer waiting.",
};
