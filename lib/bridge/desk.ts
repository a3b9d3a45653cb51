// What the prompt-kind handlers (questions, permissions) may do: the bridge's shared services.
// Handlers decide; the desk sends, edits, settles and waits.
import type { Strings, Text } from "../i18n/catalog.ts";
import type { Logger } from "../log.ts";
import type { OpencodeEndpoint } from "../opencode/endpoint.ts";
import type { PromptState } from "../registry/prompt.ts";
import type { Prompt, Registry } from "../registry/registry.ts";
import type { TelegramApi } from "../telegram/api.ts";

/** One OpenCode instance (a project directory) the bridge can answer through. */
export interface InstanceLink {
  directory: string;
  opencode: OpencodeEndpoint;
}

/** The reaction to a button tap: the callback answer, and the work to run (in order) if any. */
export interface Tap {
  ok: boolean;
  note: Text;
  alert?: boolean;
  then?: () => Promise<void>;
}

export interface Desk {
  readonly telegram: TelegramApi;
  readonly registry: Registry;
  readonly log: Logger;
  readonly chatId: number;
  /** The chat's language. */
  readonly t: Strings;
  linkFor(directory: string): InstanceLink | undefined;
  /** Re-renders the prompt's message. */
  refresh(prompt: Prompt): Promise<void>;
  /** Final state: the message shows the outcome with no live buttons, and the prompt is forgotten. */
  settle(prompt: Prompt, state: PromptState): Promise<void>;
  /** A short message in reply to `replyTo` (a problem with what the user typed). */
  reply(text: string, replyTo: number): Promise<void>;
  /** Sends a force-reply message; the user's reply to it comes back as typed text. */
  askForText(prompt: Prompt, questionIndex: number, label: string): Promise<void>;
  /**
   * Sends a reply to OpenCode; "Sending…" appears on the phone only if it takes long enough to be
   * noticed (a quick reply goes straight to its final state: one edit, not two).
   */
  sending<T>(prompt: Prompt, work: () => Promise<T>): Promise<T>;
  /**
   * After OpenCode accepted a reply: waits for OpenCode's own event confirming it. OpenCode 1.1.53
   * answers 200 even for a request it doesn't know, so the event (or its absence from the
   * pending list) is the proof. False means the reply did not take.
   */
  confirm(prompt: Prompt): Promise<boolean>;
}
