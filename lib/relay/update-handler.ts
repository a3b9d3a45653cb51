// What the relay asks of each process (the Bridge implements it, through its one gate for every
// update, lib/bridge/core/gate.ts): claim what concerns it, answer what nobody claimed, and add its part to
// commands answered once for all. Updates cross the relay raw (untrusted): each process judges them.

/** What handling a claimed update means; run only once the claim is granted. */
export type Claim = () => Promise<void>;

/** What one process does with updates: the Bridge. */
export interface UpdateHandler {
  /** Whether the update concerns this process: the work to do if it is granted, or undefined. Does nothing yet. */
  claimUpdate(update: unknown): Promise<Claim | undefined>;
  /** Whether an unclaimed update is a command answered once with every process' part (/status). */
  gathers?(update: unknown): boolean;
  /** This process' part of such an answer (its sessions and prompts), JSON-serialisable. */
  partFor?(update: unknown): Promise<unknown>;
  /**
   * Answers what nobody claimed, with the parts gathered from every process for a command.
   * `unanswered`: a process did not answer in time, so the update may be its own.
   */
  handleUnclaimed(update: unknown, parts?: unknown[], unanswered?: boolean): Promise<void>;
  /**
   * Whether an update nobody claimed may be for a process that is still connecting, so worth
   * holding a moment (a new leader parks such updates): false for strangers' updates.
   */
  worthHolding?(update: unknown): boolean;
  /** This process became the one that polls (a good moment to register the bot's commands). */
  onLead?(): void;
}
