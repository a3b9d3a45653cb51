// "Allow in this session": rules, in memory only, each answering "once" for later requests of one
// session (its root: the run's sub-agents count in it) with the same permission whose subject the
// rule's scope covers (rule-scope.ts: the program and its subcommand or script, the files of an
// edit, never OpenCode's `always` patterns). A flagged or dynamic request is never covered. Pure.
import { covers, type RuleScope, type ShownScope, type Subject } from "./rule-scope.ts";

export interface SessionRule {
  /** Short key, for the Revoke button. */
  key: string;
  /** The root session it answers for. */
  sessionID: string;
  directory: string;
  permission: string;
  /** What it covers. */
  cover: RuleScope;
  /** The same, as the phone shows it. */
  scope: ShownScope[];
  /** How many requests it answered. */
  used: number;
}

/** Rules kept at most; the oldest goes first. */
export const RULES_KEPT = 200;

export class SessionRules {
  readonly #rules: SessionRule[] = [];

  add(rule: Omit<SessionRule, "used">): SessionRule {
    const same = this.#rules.find(
      (known) => known.sessionID === rule.sessionID && known.permission === rule.permission && JSON.stringify(known.cover) === JSON.stringify(rule.cover),
    );
    if (same) return same;
    const made = { ...rule, used: 0 };
    this.#rules.push(made);
    while (this.#rules.length > RULES_KEPT) this.#rules.shift();
    return made;
  }

  /** The rule that answers this (unflagged) request of the root session `root`, if any. */
  covering(root: string, permission: string, subject: Subject): SessionRule | undefined {
    return this.#rules.find((rule) => rule.sessionID === root && rule.permission === permission && covers(rule.cover, subject));
  }

  revoke(key: string): SessionRule | undefined {
    const index = this.#rules.findIndex((rule) => rule.key === key);
    return index < 0 ? undefined : this.#rules.splice(index, 1)[0];
  }

  /** The session ended (deleted) or its instance is gone: its rules go. */
  forget(match: (rule: SessionRule) => boolean): void {
    for (let index = this.#rules.length - 1; index >= 0; index -= 1) if (match(this.#rules[index]!)) this.#rules.splice(index, 1);
  }

  list(): readonly SessionRule[] {
    return this.#rules;
  }
}
