/**
 * What a Telegram fake saw that Telegram would hold against the bot although the test may not
 * look: an edit refused as "message is not modified" (it costs the chat's flood budget), a request
 * body sent compressed, a text or caption refused as "can't parse entities" (Hermes would send it
 * again as plain text: its formatting lost, a second call spent), a rich message refused with a 400
 * (telegram/rich.ts: Hermes would fall back to HTML and the test would never know). Every fake reports here; tests/support/strict-telegram.setup.ts fails the
 * test (every test, unit and e2e) during or after which one was left unclaimed. A test that makes
 * one on purpose claims it from its fake (`takeRefusedEdits`).
 */
export interface StrictViolation {
  /** The fake that saw it (a test claims only its own). */
  source: object;
  kind: "not modified" | "compressed body" | "unparsable entities" | "refused rich message";
  detail: string;
}

const unclaimed: StrictViolation[] = [];

export function reportViolation(violation: StrictViolation): void {
  unclaimed.push(violation);
}

/** Removes and returns the violations of `source` of that kind. */
export function claimViolations(source: object, kind: StrictViolation["kind"]): StrictViolation[] {
  const mine = unclaimed.filter((v) => v.source === source && v.kind === kind);
  for (const v of mine) unclaimed.splice(unclaimed.indexOf(v), 1);
  return mine;
}

/** Removes and returns every unclaimed violation. */
export function takeUnclaimedViolations(): StrictViolation[] {
  return unclaimed.splice(0);
}
