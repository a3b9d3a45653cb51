// Who may see and act on prompts: the configured chat, and within it the allowed users (if listed).
import type { Sender } from "./updates.ts";

export interface AccessPolicy {
  chatId: number;
  allowedUsers: readonly number[];
}

export function mayAct(policy: AccessPolicy, sender: Sender): boolean {
  if (sender.chatId !== policy.chatId) return false;
  return policy.allowedUsers.length === 0 || policy.allowedUsers.includes(sender.userId);
}
