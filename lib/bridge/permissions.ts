// Permission prompts: Allow once, Always, Reject, or Reject with feedback (the agent goes on with it).
import type { Outcome } from "../opencode/api.ts";
import type { PermissionDecision, PermissionPrompt } from "../registry/permission-prompt.ts";
import type { CallbackData } from "../telegram/codec.ts";
import { mayAllow } from "../telegram/render-permission.ts";
import type { Desk, Tap } from "./desk.ts";

export function tapPermission(desk: Desk, prompt: PermissionPrompt, data: CallbackData): Tap {
  // A stale or forged button can't approve what the phone could not show.
  if ((data.action === "once" || data.action === "always") && !mayAllow(prompt, desk.t)) return { ok: false, note: (t) => t.note.wrongButton };
  switch (data.action) {
    case "once":
      return { ok: true, note: (t) => t.note.allowedOnce, then: () => decidePermission(desk, prompt, { reply: "once" }) };
    case "always":
      if (prompt.request.always.length === 0) return { ok: false, note: (t) => t.note.nothingToAllowAlways };
      return { ok: true, note: (t) => t.note.alwaysAllowed, then: () => decidePermission(desk, prompt, { reply: "always" }) };
    case "reject":
      return { ok: true, note: (t) => t.note.rejected, then: () => decidePermission(desk, prompt, { reply: "reject" }) };
    case "feedback":
      return { ok: true, note: (t) => t.note.replyWithFeedback, then: () => desk.askForText(prompt, 0, desk.t.input.feedbackPlaceholder) };
    default:
      return { ok: false, note: (t) => t.note.wrongButton };
  }
}

/** Typed feedback rejects the request with a message: the agent continues with it instead of stopping. */
export function typePermissionFeedback(desk: Desk, prompt: PermissionPrompt, text: string): Promise<void> {
  const message = text.trim();
  if (!message) return decidePermission(desk, prompt, { reply: "reject" });
  return decidePermission(desk, prompt, { reply: "reject", message });
}

export async function decidePermission(desk: Desk, prompt: PermissionPrompt, decision: PermissionDecision): Promise<void> {
  if (prompt.state !== "pending") return;
  const link = desk.linkFor(prompt.directory);
  if (!link) return desk.settle(prompt, "gone");
  prompt.busy = true;
  prompt.sent = decision;
  const outcome = await desk.sending(prompt, async (): Promise<Outcome> => {
    const sent = await link.opencode.replyPermission(prompt.requestID, decision);
    return sent.ok && !(await desk.confirm(prompt)) ? { ok: false, gone: false, error: desk.t.note.notApplied } : sent;
  });
  prompt.busy = false;
  desk.log.info({ requestID: prompt.requestID, reply: decision.reply, outcome }, "permission decision sent");
  if (prompt.state !== "pending") return; // settled meanwhile by an event
  if (outcome.ok) {
    prompt.final = { ...decision, by: "telegram" };
    return desk.settle(prompt, "answered");
  }
  if (outcome.gone) return desk.settle(prompt, "gone");
  const error = outcome.error;
  prompt.notice = (t) => t.note.unreachable(error);
  await desk.refresh(prompt);
}
