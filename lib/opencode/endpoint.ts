// What the bridge asks of one OpenCode location: answer, dismiss, list what is pending, look up a
// session, and pass on the user's text. OpenCode 1.x implements it with its routes (api.ts);
// OpenCode 2 with its plugin context and form routes (lib/opencode2/endpoint.ts).
import type { PermissionReply, PermissionRequest, QuestionRequest, SessionInfo } from "../hermes-events.ts";

/** `gone`: OpenCode no longer has it (404): answered elsewhere, dismissed, or dropped. */
export type Outcome = { ok: true } | { ok: false; gone: true } | { ok: false; gone: false; error: string };

/** A part of a prompt: text, or a file given inline as a `data:` URL. */
export type PromptPart = { type: "text"; text: string } | { type: "file"; mime: string; filename: string; url: string };

export interface OpencodeEndpoint {
  /**
   * Whether a reject's message reaches the agent (1.x: as the tool's error). OpenCode 2.0.15 drops
   * it, so the bridge sends the feedback as the session's next message instead.
   */
  readonly rejectKeepsMessage: boolean;
  replyQuestion(requestID: string, answers: string[][]): Promise<Outcome>;
  rejectQuestion(requestID: string): Promise<Outcome>;
  replyPermission(requestID: string, decision: { reply: PermissionReply; message?: string }): Promise<Outcome>;
  /** Sends a new message made of these parts (the user's text, files from the phone) to a session (queued when it is busy). */
  prompt(sessionID: string, parts: PromptPart[]): Promise<Outcome>;
  /** Stops the session's run, as Esc in the terminal does. */
  abortSession(sessionID: string): Promise<Outcome>;
  /** Throws when it cannot read the list: "could not read" must never look like "nothing pending". */
  listQuestions(): Promise<QuestionRequest[]>;
  listPermissions(): Promise<PermissionRequest[]>;
  session(sessionID: string): Promise<SessionInfo | undefined>;
}
