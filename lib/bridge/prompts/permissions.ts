// Permission prompts: Allow once, Always, Allow in this session (never for a flagged request), Reject,
// or Reject with feedback (the agent goes on with it).
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import { isActionOn, type CallbackData, type PermissionAction } from "../../telegram/codec.ts";
import { offersSession } from "../../telegram/render/render-flags.ts";
import { mayAllow } from "../../telegram/render/render-permission.ts";
import type { PromptDesk, Tap, TapHandler } from "../core/desk.ts";

/** A stale or forged button: another kind's, or an Allow the phone could not show everything for. */
const WRONG_BUTTON: Tap = { ok: false, note: (t) => t.note.wrongButton };

/** What each button of a permission prompt does (the compiler wants one entry per PermissionAction in telegram/codec.ts). */
const PERMISSION_TAPS: Record<PermissionAction, TapHandler<PermissionPrompt>> = {
  once(desk, prompt) {
    if (!mayAllow(prompt, desk.t)) return WRONG_BUTTON;
    return { ok: true, note: (t) => t.note.allowedOnce, next: () => desk.decidePermission(prompt, { reply: "once" }) };
  },
  always(desk, prompt) {
    if (!mayAllow(prompt, desk.t)) return WRONG_BUTTON;
    if (prompt.request.always.length === 0) return { ok: false, note: (t) => t.note.nothingToAllowAlways };
    return { ok: true, note: (t) => t.note.alwaysAllowed, next: () => desk.decidePermission(prompt, { reply: "always" }) };
  },
  session(desk, prompt) {
    if (!mayAllow(prompt, desk.t)) return WRONG_BUTTON;
    if (!offersSession(prompt)) return { ok: false, note: (t) => t.approvals.flaggedNoSession };
    return { ok: true, note: (t) => t.approvals.sessionNote, next: () => desk.allowInSession(prompt) };
  },
  reject(desk, prompt) {
    return { ok: true, note: (t) => t.note.rejected, next: () => desk.decidePermission(prompt, { reply: "reject" }) };
  },
  feedback(desk, prompt) {
    return { ok: true, note: (t) => t.note.replyWithFeedback, next: () => desk.askForText(prompt, 0, desk.t.input.feedbackPlaceholder) };
  },
};

/** A tap on a permission prompt. */
export function tapPermission(desk: PromptDesk, prompt: PermissionPrompt, data: CallbackData): Tap {
  if (!isActionOn(data.action, "permission")) return WRONG_BUTTON;
  return PERMISSION_TAPS[data.action](desk, prompt, data);
}

/** Typed feedback rejects the request with a message: the agent continues with it instead of stopping. */
export function typePermissionFeedback(desk: PromptDesk, prompt: PermissionPrompt, text: string): Promise<void> {
  const message = text.trim();
  if (!message) return desk.decidePermission(prompt, { reply: "reject" });
  return desk.decidePermission(prompt, { reply: "reject", message });
}
