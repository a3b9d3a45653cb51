// One pending permission request ("may I run this command?") and how it was decided. Pure.
import type { PermissionReply, PermissionRequest } from "../hermes-events.ts";
import type { RiskFlag } from "../approvals/risk.ts";
import type { RuleScope, ShownScope, Subject } from "../approvals/rule-scope.ts";
import type { PromptBase } from "./prompt.ts";

export interface PermissionDecision {
  reply: PermissionReply;
  /** Feedback sent with a reject: the agent continues with it instead of stopping. */
  message?: string;
}

/** Who decided: the phone, another client (TUI, web), or OpenCode itself resolving related asks. */
type DecidedBy = "telegram" | "elsewhere" | "cascade";

export interface PermissionPrompt extends PromptBase {
  kind: "permission";
  request: PermissionRequest;
  /** What we sent, to recognise our own `permission.replied`. */
  sent?: PermissionDecision;
  final?: PermissionDecision & { by: DecidedBy };
  /** What is risky about the request (lib/approvals/), read before it is delivered; undefined: not read. */
  flags?: RiskFlag[];
  /** What a session rule compares of it (lib/approvals/rule-scope.ts), read with its flags. */
  subject?: Subject;
  /** What a rule made of it would cover; undefined: none may be made (a dynamic request, or not read). */
  ruleScope?: RuleScope;
  /** Allowed in this session from the phone, and OpenCode took the reply: what the session rule made of it covers. */
  sessionScope?: ShownScope[];
  /**
   * The files sent just before the message when it can't show everything (the full request, the
   * full diff): whether they all went out, and the first one, which the message replies to.
   */
  files?: { sent: boolean; messageId?: number };
  /** Its message is a rich message showing the whole diff (a collapsible block): the diff needs no file. */
  wholeDiff?: boolean;
  /**
   * Feedback OpenCode would drop with the reject (2.x) goes to the session as its next message:
   * whether it got there, or why not.
   */
  feedbackAsMessage?: { sent: true; toMain: boolean } | { sent: false; error: string };
}

export function createPermissionPrompt(request: PermissionRequest, directory: string, key: string, now: number): PermissionPrompt {
  return {
    kind: "permission",
    key,
    requestID: request.id,
    sessionID: request.sessionID,
    directory,
    createdAt: now,
    state: "pending",
    busy: false,
    request,
  };
}
