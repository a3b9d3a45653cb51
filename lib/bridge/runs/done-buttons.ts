// The one seam through which another capability puts buttons on a run's Done notice (git's Commit,
// Push and Remove worktree; the vocabulary's ⑂ Fork): the notice asks each for its buttons when it
// is sent, and tells each which message carried them. The notice itself knows none of them.
import type { FileChange } from "../../hermes-events.ts";
import type { MessageRef } from "../../registry/prompt.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import type { InlineButton } from "../../telegram/wire/rendered-message.ts";

export interface DoneButtons {
  /** "beside": on Undo's row; "below": a row of their own under it. */
  readonly row: "beside" | "below";
  buttonsFor(owner: MessageOwner, changes: readonly FileChange[], answer: string | undefined): Promise<InlineButton[]>;
  /** The Done notice carrying `buttons` (this seam's own) was sent as `notice`. */
  posted?(notice: MessageRef, buttons: readonly InlineButton[]): void;
}
