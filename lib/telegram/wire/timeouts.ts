// How long Hermes waits on the Bot API, for the plugin (outbox, poller) and `opencode-hermes setup`.

/** A call without an answer after this long counts as a network error. */
export const CALL_TIMEOUT_MS = 30_000;
/**
 * A tap's answer (answerCallbackQuery) without an answer after this long counts as a network error
 * and is tried again: Telegram takes it only for a few seconds, and the tap's work waits for it.
 */
export const CALLBACK_ANSWER_TIMEOUT_MS = 5_000;
/** How long Telegram may hold one getUpdates open (its `timeout`, in seconds). */
export const LONG_POLL_SECONDS = 25;
/** A long poll still open this long past its own timeout has stalled, and is abandoned. */
export const LONG_POLL_GRACE_MS = 10_000;
/** Retries after a failed call (a send, a long poll) back off from this... */
export const RETRY_MIN_MS = 500;
/** ...doubling up to this (unless Telegram names its own retry_after). */
export const RETRY_MAX_MS = 30_000;
/** While Telegram gives no answer at all, the long poll tries again at least this often: it is what notices Telegram is back. */
export const OUTAGE_PROBE_MS = 1_000;
