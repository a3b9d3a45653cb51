// "Allow in this session": rules, in memory only, each answering "once" for later requests of one
// session (its root: the run's sub-agents count in it) with the same permission and patterns the
// rule's scope covers. The scope is what OpenCode's own `always` patterns say the first request
// covers (its `patterns` when it has none), matched as OpenCode matches them (`*` any text, `?` one
// character, a trailing " *" also matching nothing). A flagged request is never covered. Pure.
import type { PermissionRequest } from "../hermes-events.ts";

export interface SessionRule {
  /** Short key, for the Revoke button. */
  key: string;
  /** The root session it answers for. */
  sessionID: string;
  directory: string;
  permission: string;
  /** What it covers (OpenCode's `always` patterns of the request it was made from). */
  scope: string[];
  /** How many requests it answered. */
  used: number;
}

/** Rules kept at most; the oldest goes first. */
export const RULES_KEPT = 200;

/** What a rule made from this request would cover. */
export function scopeOf(request: PermissionRequest): string[] {
  return request.always.length > 0 ? request.always : request.patterns;
}

/** OpenCode's wildcard: `*` any text, `?` one character, a trailing " *" optional. */
export function wildcardMatch(text: string, pattern: string): boolean {
  let source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  if (source.endsWith(" .*")) source = `${source.slice(0, -3)}( .*)?`;
  return new RegExp(`^${source}$`, "s").test(text);
}

export class SessionRules {
  readonly #rules: SessionRule[] = [];

  add(rule: Omit<SessionRule, "used">): SessionRule {
    const made = { ...rule, used: 0 };
    this.#rules.push(made);
    while (this.#rules.length > RULES_KEPT) this.#rules.shift();
    return made;
  }

  /** The rule that answers this (unflagged) request of the root session `root`, if any. */
  covering(root: string, request: PermissionRequest): SessionRule | undefined {
    if (request.patterns.length === 0) return undefined;
    return this.#rules.find(
      (rule) =>
        rule.sessionID === root &&
        rule.permission === request.permission &&
        request.patterns.every((pattern) => rule.scope.some((scope) => wildcardMatch(pattern, scope))),
    );
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
