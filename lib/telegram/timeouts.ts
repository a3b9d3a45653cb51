// How long Hermes waits on the Bot API, for the plugin (outbox, poller) and `opencode-hermes setup`.

/** A call without an answer after this long counts as a network error. */
export const CALL_TIMEOUT_MS = 30_000;
/** How long Telegram may hold one getUpdates open (its `timeout`, in seconds). */
export const LONG_POLL_SECONDS = 25;
/** A long poll still open this long past its own timeout has stalled, and is abandoned. */
export const LONG_POLL_GRACE_MS = 10_000;
