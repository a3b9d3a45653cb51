// What every prompt Hermes tracks has in common, whatever OpenCode asked (a question, a permission).
import type { Text } from "../i18n/catalog.ts";

/** Where a prompt ended up. `pending` is the only state in which it can be answered. */
export type PromptState =
  | "pending"
  | "answered" // from Telegram
  | "answered_elsewhere" // the TUI, web, another client, or OpenCode itself (cascades)
  | "dismissed" // a question rejected from Telegram
  | "dismissed_elsewhere"
  | "expired"
  | "gone"; // OpenCode dropped it (instance disposed) or no longer knows it

export interface MessageRef {
  chatId: number;
  messageId: number;
}

export interface PromptBase {
  /** Short random id carried in callback data (requestIDs are long and must not leak into buttons). */
  key: string;
  requestID: string;
  sessionID: string;
  directory: string;
  createdAt: number;
  state: PromptState;
  /** A reply is on its way to OpenCode; taps wait. */
  busy: boolean;
  /** Shown under the prompt after a failed reply, until the next change. */
  notice?: Text;
  message?: MessageRef;
  /** Who on the phone tapped it last, by name (the digest's "who decided"). */
  tappedBy?: string;
  /** A session rule answered it by itself: what the rule covers, in words. */
  answeredByRule?: string;
}
