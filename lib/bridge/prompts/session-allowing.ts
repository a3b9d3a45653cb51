// "Allow in this session" on its way (issue 49): the tap allows once, and only once OpenCode took
// that reply (its echo, or the request gone from its list) is a rule made, at that moment, before
// the message shows it. A request gone, refused, unreachable or answered elsewhere meanwhile leaves
// none, and so does one OpenCode's echo says ended as reject after our once: the rule made of it
// goes again (rejected()). The session's next requests wait for that outcome before a rule is looked for (prompt-life.ts),
// never for the message's edit, which a group's pace may hold back for a minute.
import type { ShownScope } from "../../approvals/rule-scope.ts";
import type { SessionRule } from "../../approvals/session-rules.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import { deferred } from "../../util/deferred.ts";
import type { PermissionJudge } from "./permission-judge.ts";

/** Rules remembered by their request, for a reject that comes after (the newest kept). */
const MADE_KEPT = 100;

export class SessionAllowing {
  /** Replies on their way, by root session. */
  readonly #pending = new Map<string, Promise<void>>();
  /** The rules made lately, by the request they were made from: an echo saying reject takes one back. */
  readonly #made = new Map<string, { rule: SessionRule; judge: PermissionJudge }>();

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
      const rule = judge.keep(prompt);
      if (rule) this.#remember(prompt.requestID, { rule, judge });
      decided.resolve();
    });
    const taken = decided.settled;
    decided.resolve();
    if (this.#pending.get(root) === decided.promise) this.#pending.delete(root);
    if (!taken) prompt.sessionScope = undefined;
    return taken;
  }

  /**
   * OpenCode's echo says `requestID` ended as reject after our once (another client's reject, a
   * cascade): the rule made of it is dropped. True when there was one.
   */
  rejected(requestID: string): boolean {
    const made = this.#made.get(requestID);
    if (!made) return false;
    this.#made.delete(requestID);
    made.judge.drop(made.rule);
    return true;
  }

  #remember(requestID: string, made: { rule: SessionRule; judge: PermissionJudge }): void {
    this.#made.set(requestID, made);
    if (this.#made.size > MADE_KEPT) this.#made.delete(this.#made.keys().next().value!);
  }

  /** Resolves when the session's (its root's) Allow-in-this-session on its way, if any, has its outcome. */
  async settled(sessionID: string): Promise<void> {
    await this.#pending.get(this.rootOf(sessionID))?.catch(() => undefined);
  }
}
