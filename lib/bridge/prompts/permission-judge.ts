// What prompt-life.ts asks of approvals (lib/bridge/approvals/session-allow.ts) about a permission
// request: its risk flags before it is delivered, whether a session rule answers it by itself, and
// the rule an "Allow in this session" tap makes.
import type { RiskFlag } from "../../approvals/risk.ts";
import type { ShownScope } from "../../approvals/rule-scope.ts";
import type { SessionRule } from "../../approvals/session-rules.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";

export interface PermissionJudge {
  /** The request's risk flags (the shell parser loads with the first command); never rejects. */
  flag(prompt: PermissionPrompt): Promise<RiskFlag[]>;
  /** The session rule that answers this request "once" by itself (never one with a flag). */
  covering(prompt: PermissionPrompt): SessionRule | undefined;
  /** What a rule made of this request would cover, in words; undefined: none may be made (flagged, dynamic). */
  scopeFor(prompt: PermissionPrompt): ShownScope[] | undefined;
  /** The phone allowed this request in its session and OpenCode took the reply: the rule made of it, from now on. */
  keep(prompt: PermissionPrompt): SessionRule | undefined;
  /** OpenCode says the request a rule was made from ended as reject after all: the rule goes. */
  drop(rule: SessionRule): void;
  /** A rule answered a request: shown on the run's progress, counted in its Done notice. */
  answered(prompt: PermissionPrompt, rule: SessionRule): void;
}
