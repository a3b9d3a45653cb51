// Permission prompts: Allow once, Always, Reject, or Reject with feedback (the agent goes on with it).
import type { PermissionPrompt } from "../registry/permission-prompt.ts";
import type { CallbackData } from "../telegram/codec.ts";
import { mayAllow } from "../telegram/render-permission.ts";
import type { PromptDesk, Tap } from "./desk.ts";

export function tapPermission(desk: PromptDesk, prompt: PermissionPrompt, data: CallbackData): Tap {
  // A stale or forged button can't approve what the phone could not show.
  if ((data.action === "once" || data.action === "always") && !mayAllow(prompt, desk.t)) return { ok: false, note: (t) => t.note.wrongButton };
  switch (data.action) {
    case "once":
      return { ok: true, note: (t) => t.note.allowedOnce, then: () => desk.decidePermission(prompt, { reply: "once" }) };
    case "always":
      if (prompt.request.always.length === 0) return { ok: false, note: (t) => t.note.nothingToAllowAlways };
      return { ok: true, note: (t) => t.note.alwaysAllowed, then: () => desk.decidePermission(prompt, { reply: "always" }) };
    case "reject":
      return { ok: true, note: (t) => t.note.rejected, then: () => desk.decidePermission(prompt, { reply: "reject" }) };
    case "feedback":
      return { ok: true, note: (t) => t.note.replyWithFeedback, then: () => desk.askForText(prompt, 0, desk.t.input.feedbackPlaceholder) };
    default:
      return { ok: false, note: (t) => t.note.wrongButton };
  }
}

/** Typed feedback rejects the request with a message: the agent continues with it instead of stopping. */
export function typePermissionFeedback(desk: PromptDesk, prompt: PermissionPrompt, text: string): Promise<void> {
  const message = text.trim();
  if (!message) return desk.decidePermission(prompt, { reply: "reject" });
  return desk.decidePermission(prompt, { reply: "reject", message });
}
