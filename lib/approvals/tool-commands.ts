// The whole command line a shell permission asks about. OpenCode 1.18 sends it as
// `metadata.command`; 1.1.53 sends no metadata and 2.0.15 only `resources`, and both split a line
// into its simple commands (`curl … | sh` asks for "curl …" and "sh": the pipe is lost; 2.0.15's lone
// resource for `(npm test) > log` is "npm test"). Both name
// the tool call that asks, whose input (seen on the run's tool events before the request) holds
// the line as the agent wrote it. Without it, the parts are read joined by pipes: the reading that
// lets each part feed the next, the most that the line could do. Pure.
import type { PermissionRequest, ToolStep } from "../hermes-events.ts";
import { commandOf } from "./permission-subject.ts";

/** Tool calls whose command is remembered; the oldest goes first. */
export const CALLS_KEPT = 500;

/** The line a request runs: whole (as the agent wrote it) or only its parts, joined by pipes. */
export interface CommandLine {
  text: string;
  whole: boolean;
}

export class ToolCommands {
  readonly #commands = new Map<string, string>();
  readonly #waiting = new Map<string, () => void>();

  /** A run's tool step: its `command` input, if it has one, is kept under its call. */
  note(step: ToolStep): void {
    const command = step.input?.command;
    if (typeof command !== "string" || command.trim() === "") return;
    this.#commands.delete(step.callID);
    this.#commands.set(step.callID, command);
    while (this.#commands.size > CALLS_KEPT) this.#commands.delete(this.#commands.keys().next().value!);
    this.#waiting.get(step.callID)?.();
  }

  /**
   * A request that sends only its parts and names its call, whose input has not been seen yet
   * (1.1.53 may publish the tool's running state after the request): waits for it, at most `ms`.
   */
  async awaitCall(request: PermissionRequest, ms: number): Promise<void> {
    const callID = request.tool?.callID;
    if (!request.partial || callID === undefined || this.#commands.has(callID) || this.#waiting.has(callID)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiting.delete(callID);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiting.set(callID, done);
    });
  }

  /** The command line of a shell request; undefined when it names none. */
  lineOf(request: PermissionRequest): CommandLine | undefined {
    const called = request.tool ? this.#commands.get(request.tool.callID) : undefined;
    if (called !== undefined) return { text: called, whole: true };
    const command = commandOf(request);
    if (command !== undefined) return { text: command, whole: request.partial !== true };
    return request.patterns.length === 0 ? undefined : { text: request.patterns.join(" | "), whole: false };
  }
}
