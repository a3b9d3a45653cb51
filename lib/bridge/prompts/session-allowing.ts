// "Allow in this session" on its way (issue 49): the tap allows once, and only once OpenCode took
// that reply (its echo, or the request gone from its list) is a rule made, at that moment, before
// the message shows it. A request gone, refused, unreachable or answered elsewhere meanwhile leaves
// none. The session's next requests wait for that outcome before a rule is looked for (prompt-life.ts),
// never for the message's edit, which a group's pace may hold back for a minute.
import type { ShownScope } from "../../approvals/rule-scope.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import { deferred } from "../../util/deferred.ts";
import type { PermissionJudge } from "./permission-judge.ts";

export class SessionAllowing {
  /** Replies on their way, by root session. */
  readonly #pending = new Map<string, Promise<void>>();

  constructor(private readonly rootOf: (sessionID: string) => string) {}

  /**
   * Allows `prompt` once through `decide` (which calls `onTaken` when OpenCode took the reply) and
   * keeps the rule then. The scope shows on the confirmation meanwhile; false (and the scope taken
   * back) when no rule was made.
   */
  async allow(prompt: PermissionPrompt, judge: PermissionJudge, scope: ShownScope[], decide: (onTaken: () => void) => Promise<void>): Promise<boolean> {
    const root = this.rootOf(prompt.sessionID);
    prompt.sessionScope = scope;
    const decided = deferred();
    this.#pending.set(root, decided.promise);
    await decide(() => {
      judge.keep(prompt);
      decided.resolve();
    });
    const taken = decided.settled;
    decided.resolve();
    if (this.#pending.get(root) === decided.promise) this.#pending.delete(root);
    if (!taken) prompt.sessionScope = undefined;
    return taken;
  }

  /** Resolves when the session's (its root's) Allow-in-this-session on its way, if any, has its outcome. */
  async settled(sessionID: string): Promise<void> {
    await this.#pending.get(this.rootOf(sessionID))?.catch(() => undefined);
  }
}
