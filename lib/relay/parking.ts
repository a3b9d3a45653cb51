// Updates nobody claimed, held for a moment after a leader takes over: the process whose prompt a
// tap is for may still be re-connecting to the new leader. Each parked update is offered to every
// follower as it proves itself; the first claim takes it (claim before act, as for any offer), and
// what is still unclaimed when the window closes is handed back to be answered as unclaimed. Bounded
// by count and bytes: what doesn't fit is handled at once, as it would be without parking. No I/O:
// the offers go through the function the caller passes.
import type { Update } from "./wire.ts";

/** Asks one follower about an update: true it claimed (and `take()` let it), false declined, undefined no answer. */
export type Offer = (update: Update, take: () => boolean) => Promise<boolean | undefined>;

export interface ParkingOptions {
  maxCount: number;
  maxBytes: number;
  /** An update nobody claimed in the window: handle it as unclaimed now. `unanswered`: some follower let its offer time out. */
  release(update: Update, unanswered: boolean): void;
}

interface Parked {
  update: Update;
  bytes: number;
  unanswered: boolean;
  /** Offers sent and not yet answered: release waits for them, so a claim in flight is not answered twice. */
  inFlight: number;
  state: "parked" | "taken" | "released";
}

export class ParkingLot {
  readonly #options: ParkingOptions;
  readonly #parked = new Set<Parked>();
  #bytes = 0;
  #open = false;
  #timer?: ReturnType<typeof setTimeout>;

  constructor(options: ParkingOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#parked.size;
  }

  /** Parks what nobody claims from now for `ms` (a new window replaces a shorter one). */
  open(ms: number): void {
    clearTimeout(this.#timer);
    this.#open = true;
    this.#timer = setTimeout(() => this.#close(), ms);
    this.#timer.unref?.();
  }

  /** Holds an update nobody claimed. False: the window is closed or the lot is full (handle it now). */
  park(update: Update, unanswered: boolean): boolean {
    if (!this.#open) return false;
    const bytes = Buffer.byteLength(JSON.stringify(update));
    if (this.#parked.size >= this.#options.maxCount || this.#bytes + bytes > this.#options.maxBytes) return false;
    this.#parked.add({ update, bytes, unanswered, inFlight: 0, state: "parked" });
    this.#bytes += bytes;
    return true;
  }

  /** Offers every parked update to one follower (one that has just proved itself). */
  offerAll(offer: Offer): void {
    for (const entry of [...this.#parked]) {
      entry.inFlight++;
      const take = () => {
        if (entry.state !== "parked") return false;
        entry.state = "taken";
        this.#remove(entry);
        return true;
      };
      void offer(entry.update, take).then(
        (answer) => this.#answered(entry, answer),
        () => this.#answered(entry, undefined),
      );
    }
  }

  /** Forgets everything without handling it (the leader stops). */
  clear(): void {
    clearTimeout(this.#timer);
    this.#open = false;
    for (const entry of this.#parked) entry.state = "released";
    this.#parked.clear();
    this.#bytes = 0;
  }

  #answered(entry: Parked, answer: boolean | undefined): void {
    entry.inFlight--;
    if (answer === undefined) entry.unanswered = true;
    if (!this.#open && entry.inFlight === 0) this.#release(entry);
  }

  #close(): void {
    this.#open = false;
    for (const entry of [...this.#parked]) if (entry.inFlight === 0) this.#release(entry);
  }

  #release(entry: Parked): void {
    if (entry.state !== "parked") return;
    entry.state = "released";
    this.#remove(entry);
    this.#options.release(entry.update, entry.unanswered);
  }

  #remove(entry: Parked): void {
    if (this.#parked.delete(entry)) this.#bytes -= entry.bytes;
  }
}
