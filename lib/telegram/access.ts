// Who may see and act on prompts: the configured chat, and within it the allowed users (if listed).
import type { TapSender } from "./updates.ts";

export interface AccessPolicy {
  /** The configured chat; undefined before one is configured (setup: only /start is answered, nobody may act). */
  chatId: number | undefined;
  allowedUsers: readonly number[];
}

export function mayAct(policy: AccessPolicy, sender: TapSender): boolean {
  if (policy.chatId === undefined || sender.chatId !== policy.chatId) return false;
  return policy.allowedUsers.length === 0 || policy.allowedUsers.includes(sender.userId);
}
