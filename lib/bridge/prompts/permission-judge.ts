// What prompt-life.ts asks of approvals (lib/bridge/approvals/session-allow.ts) about a permission
// request: its risk flags before it is delivered, whether a session rule answers it by itself, and
// the rule an "Allow in this session" tap makes.
import type { RiskFlag } from "../../approvals/risk.ts";
import type { SessionRule } from "../../approvals/session-rules.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";

export interface PermissionJudge {
  /** The request's risk flags (the shell parser loads with the first command); never rejects. */
  flag(prompt: PermissionPrompt): Promise<RiskFlag[]>;
  /** The session rule that answers this request "once" by itself (never one with a flag). */
  covering(prompt: PermissionPrompt): SessionRule | undefined;
  /** The phone allowed this request in its session: the rule made of it, from now on. */
  keep(prompt: PermissionPrompt): SessionRule;
  /** A rule answered a request: shown on the run's progress, counted in its Done notice. */
  answered(prompt: PermissionPrompt, rule: SessionRule): void;
}
