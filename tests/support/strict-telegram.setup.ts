// Loaded before every test file (vitest.config.ts `setupFiles`): a test during or after which a
// Telegram fake refused an edit as "message is not modified", or got a compressed request body,
// fails, whether or not the test itself looked (see telegram/strict-checks.ts).
import { afterAll, afterEach } from "vitest";
import { takeUnclaimedViolations } from "./telegram/strict-checks.ts";

function failOnViolations(): void {
  const found = takeUnclaimedViolations();
  if (found.length === 0) return;
  const lines = found.map((v) => `- ${v.kind}: ${v.detail}`).join("\n");
  throw new Error(`Telegram would have held ${found.length} request(s) against the bot:\n${lines}`);
}

afterEach(failOnViolations);
afterAll(failOnViolations);
