// Who may see and act on prompts: the configured chat, and within it the allowed users (if listed).
// Only lib/bridge/core/gate.ts asks these questions: every update passes it once.
import type { TapSender } from "./wire/updates.ts";

export interface AccessPolicy {
  /** The configured chat; undefined before one is configured (setup: only /start is answered, nobody may act). */
  chatId: number | undefined;
  allowedUsers: readonly number[];
}

export function mayAct(policy: AccessPolicy, sender: TapSender): boolean {
  if (policy.chatId === undefined || sender.chatId !== policy.chatId) return false;
  return policy.allowedUsers.length === 0 || policy.allowedUsers.includes(sender.userId);
}

/**
 * Whether /start gets the sender's ids (setup). Before a chat is configured, anyone's does: it is
 * how the user finds their chat id. Once it is, only the owner's: in the configured chat, or in
 * another chat such as a new group, when the sender is an allowed user or (no allow-list) the
 * configured private chat's user. Strangers get no answer at all, so they can't spend the bot's
 * sending budget. Everyone who may act may also ask.
 */
export function mayLearnIds(policy: AccessPolicy, sender: TapSender): boolean {
  const { chatId, allowedUsers } = policy;
  if (chatId === undefined) return true;
  if (allowedUsers.length > 0) return allowedUsers.includes(sender.userId);
  return sender.chatId === chatId || sender.userId === chatId;
}
