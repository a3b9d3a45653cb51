// What a follower does with its leader's frames (leader-link.ts checked them): it moves its offset
// forward, adds its part to a command answered once for all, and claims an offered update, acting on
// the claim only when the leader grants it (the leader may have answered the update itself meanwhile).
import type net from "node:net";
import type { LeaderFrame } from "./leader-link.ts";
import type { LocalClaims } from "./local-claims.ts";
import type { Claim } from "./update-handler.ts";
import { encode } from "./wire.ts";

export class FollowerRole {
  readonly #local: LocalClaims;
  readonly #onOffset: (offset: number) => void;
  /** Claims sent to the leader, waiting for its grant. */
  readonly #claims = new Map<number, { updateId: number; claim: Claim }>();

  /** `onOffset`: where the leader's polling stands (at least; a lower one is stale, not an error). */
  constructor(local: LocalClaims, onOffset: (offset: number) => void) {
    this.#local = local;
    this.#onOffset = onOffset;
  }

  onFrame(frame: LeaderFrame, socket: net.Socket): void {
    const reply = (line: string) => !socket.destroyed && socket.write(line);
    switch (frame.t) {
      case "offset":
        // Only forward, within Telegram's id range (wire.ts).
        this.#onOffset(frame.offset);
        return;
      case "gather":
        void this.#local.partFor(frame.update).then((part) => reply(encode({ t: "part", id: frame.id, part: part ?? null })));
        return;
      case "offer":
        void this.#local.decide(frame.update).then((claim) => {
          if (claim) this.#claims.set(frame.id, { updateId: frame.update.update_id, claim });
          reply(encode({ t: "claim", id: frame.id, claimed: claim !== undefined }));
        });
        return;
      case "grant": {
        const pending = this.#claims.get(frame.id);
        this.#claims.delete(frame.id);
        if (pending && frame.ok) this.#local.run(pending.updateId, pending.claim);
        return;
      }
    }
  }

  /** The leader went: claims still waiting for its grant are void. */
  leaderGone(): void {
    this.#claims.clear();
  }
}
