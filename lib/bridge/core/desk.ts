// What the prompt-kind handlers (lib/bridge/prompts/questions.ts, lib/bridge/prompts/permissions.ts) may do, and the shapes they share
// with the bridge. Handlers decide what a tap or a typed text means (changing a question's draft
// only through the registry's transitions); the desk (lib/bridge/prompts/prompt-life.ts) talks to OpenCode and
// Telegram, and settles the prompt.
import type { Strings, Text } from "../../i18n/catalog.ts";
import type { OpencodeEndpoint } from "../../opencode/endpoint.ts";
import type { PermissionDecision, PermissionPrompt } from "../../registry/permission-prompt.ts";
import type { QuestionPrompt } from "../../registry/question-prompt.ts";
import type { Prompt } from "../../registry/registry.ts";
import type { CallbackData } from "../../telegram/codec.ts";
import type { Html } from "../../text/html.ts";

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
  /** Named `next`, not `then`: an object with a `then` method is a thenable, and `await` would call it. */
  next?: () => Promise<void>;
}

/** What one button of a prompt kind does (see the `Record<…Action, TapHandler>` tables in questions.ts and permissions.ts). */
export type TapHandler<P extends Prompt> = (desk: PromptDesk, prompt: P, data: CallbackData) => Tap;

export interface PromptDesk {
  /** The chat's language. */
  readonly t: Strings;
  /** Re-renders the prompt's message. */
  refresh(prompt: Prompt): Promise<void>;
  /** A short message in reply to `replyTo` (a problem with what the user typed). */
  reply(text: Html, replyTo: number): Promise<void>;
  /** Sends a force-reply message; the user's reply to it comes back as typed text. */
  askForText(prompt: Prompt, questionIndex: number, label: string): Promise<void>;
  /**
   * Sends the answers (undefined: a dismissal) to OpenCode, waits for OpenCode to apply them (its own
   * event, or the request leaving its pending list: OpenCode 1.1.53 answers 200 even to a reply it
   * ignores), and settles the prompt, or keeps it answerable with the reason shown.
   */
  answerQuestion(prompt: QuestionPrompt, answers: string[][] | undefined): Promise<void>;
  /** The same for a permission decision. */
  decidePermission(prompt: PermissionPrompt, decision: PermissionDecision): Promise<void>;
  /** Allows the request once and, once OpenCode took it, keeps a rule for the rest of its session (issue 42). */
  allowInSession(prompt: PermissionPrompt): Promise<void>;
}
