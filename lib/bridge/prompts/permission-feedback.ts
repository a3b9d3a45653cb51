// Reject with feedback where OpenCode drops a reject's message (2.0.15): the reject goes without it,
// and once it took effect the feedback follows as the session's next message, marked as the answer
// to the rejected request. A plain reject ends the run on 2.0.15, so the agent reads the feedback
// as the next turn and never runs the command. A sub-agent's reject cancels the sub-agent (its
// parent hears "Subagent cancelled" and goes on), so its feedback goes to the run's main session,
// where someone reads it. The phone says which way the feedback went.
import type { Strings } from "../../i18n/catalog.ts";
import type { PermissionRequest } from "../../hermes-events.ts";
import type { OpencodeEndpoint } from "../../opencode/endpoint.ts";
import type { PermissionDecision, PermissionPrompt } from "../../registry/permission-prompt.ts";
import { cutText } from "../../text/html.ts";

/** How much of the command (or patterns) the marked message quotes: the agent has the request itself. */
const REQUEST_QUOTE_LIMIT = 300;

/** Whether the feedback must go as a message of its own (the reject would drop it). */
export function feedbackAsMessage(
  decision: PermissionDecision,
  opencode: Pick<OpencodeEndpoint, "rejectKeepsMessage">,
): decision is PermissionDecision & { message: string } {
  return decision.message !== undefined && !opencode.rejectKeepsMessage;
}

/** What goes to OpenCode as the reply: the decision, less a message it would drop. */
export function replyFor(decision: PermissionDecision, opencode: Pick<OpencodeEndpoint, "rejectKeepsMessage">): PermissionDecision {
  return feedbackAsMessage(decision, opencode) ? { reply: decision.reply } : decision;
}

/** Sends the feedback as the next message of `mainSession` (the prompt's own, or its run's root); what to show on the phone. */
export async function sendFeedback(
  opencode: Pick<OpencodeEndpoint, "prompt">,
  prompt: PermissionPrompt,
  feedback: string,
  mainSession: string,
  t: Strings,
): Promise<NonNullable<PermissionPrompt["feedbackAsMessage"]>> {
  const toMain = mainSession !== prompt.sessionID;
  const text = t.permission.feedbackForAgent(describeRequest(prompt.request), feedback, toMain);
  const outcome = await opencode.prompt(mainSession, [{ type: "text", text }]);
  if (outcome.ok) return { sent: true, toMain };
  return { sent: false, error: outcome.gone ? t.talk.sessionGone : outcome.error };
}

/** "shell uname -a": the permission and what it asked for (the command, else its patterns). */
export function describeRequest(request: PermissionRequest): string {
  const command = request.metadata.command;
  const what = typeof command === "string" && command ? command : request.patterns.join(", ");
  return cutText(what ? `${request.permission} ${what}` : request.permission, REQUEST_QUOTE_LIMIT);
}
