// Which run endings are worth a message on the phone: the levels a user can choose, and the policy
// Hermes runs with when nothing is configured. One home for these values: the config reader, the
// bridge and the hub take them from here.

/** `all`: done and failed; `errors`: failed only; `off`: nothing but prompts. */
export const NOTICE_LEVELS = ["all", "errors", "off"] as const;
export type NoticeLevel = (typeof NOTICE_LEVELS)[number];

export interface NoticePolicy {
  level: NoticeLevel;
  /** A run must have been busy this long before "Done" is worth a message (unless the phone started it). */
  doneAfterMs: number;
}

/** Done and failed, "Done" only after 30 s of work (HERMES_NOTIFY and HERMES_DONE_AFTER unset). */
export const DEFAULT_NOTICES: Readonly<NoticePolicy> = { level: "all", doneAfterMs: 30_000 };

export function isNoticeLevel(text: string): text is NoticeLevel {
  return (NOTICE_LEVELS as readonly string[]).includes(text);
}
