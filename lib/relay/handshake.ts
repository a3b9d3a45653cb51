// Proof of holding the bot token, both ways, before any update crosses the relay socket: each side
// sends a fresh random nonce, and each proves itself with an HMAC over both nonces and its role,
// keyed from the token. The token itself never goes on the wire, and a proof is good for one
// connection only (the other side's nonce is new every time). Pure apart from the randomness.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export type RelayRoleName = "leader" | "follower";

/** Base64url of 32 bytes: the length of every nonce and proof on the wire. */
export const TOKEN_TEXT_LENGTH = 43;
const DOMAIN = "hermes relay v1";

/** The key both sides derive from the bot token (never the token itself). */
export function relayKey(token: string): Buffer {
  return createHmac("sha256", DOMAIN).update(token).digest();
}

export function newNonce(): string {
  return randomBytes(32).toString("base64url");
}

export function proofOf(key: Buffer, role: RelayRoleName, leaderNonce: string, followerNonce: string): string {
  return createHmac("sha256", key).update(`${DOMAIN}\n${role}\n${leaderNonce}\n${followerNonce}`).digest("base64url");
}

/** Constant-time check of the other side's proof. */
export function isProof(key: Buffer, role: RelayRoleName, leaderNonce: string, followerNonce: string, given: string): boolean {
  const expected = Buffer.from(proofOf(key, role, leaderNonce, followerNonce));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
