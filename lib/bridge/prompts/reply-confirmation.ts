// Whether OpenCode applied a reply Hermes sent, and who made the replies Hermes did not send.
// OpenCode 1.1.53 answers 200 even to a reply it ignores: OpenCode's own event for the request (or
// the request leaving its pending list) is the proof. Events can beat the HTTP answer (in-process),
// so an echo may arrive before anyone waits for it. No Telegram here.
import type { PermissionReply } from "../../hermes-events.ts";
import type { PermissionPrompt } from "../../registry/permission-prompt.ts";
import type { QuestionPrompt } from "../../registry/question-prompt.ts";
import type { Prompt } from "../../registry/registry.ts";
import type { InstanceLinks } from "../core/instance-links.ts";

/** Replies OpenCode makes on its own for related requests arrive right after the one that caused them. */
export const CASCADE_WINDOW_MS = 5_000;

/** Who made a `permission.replied`: Hermes (its own echo), OpenCode itself resolving related asks, or another client. */
export type PermissionReplier = "own" | "cascade" | "elsewhere";

export interface ReplyConfirmationDeps {
  /** How long to wait for the echo before asking OpenCode's pending list. */
  timeoutMs: number;
  now: () => number;
  /** Asked when no echo came: whether OpenCode still lists the request as pending. */
  links: Pick<InstanceLinks, "stillPending">;
}

export class ReplyConfirmation {
  readonly #deps: ReplyConfirmationDeps;
  readonly #waiting = new Map<string, () => void>();
  /** Requests whose own echo arrived before anyone waited for it. */
  readonly #echoed = new Set<string>();
  /** The last permission decision per session, within the cascade window (older ones tell nothing). */
  readonly #lastDecision = new Map<string, { requestID: string; reply: PermissionReply; at: number }>();

  constructor(deps: ReplyConfirmationDeps) {
    this.#deps = deps;
  }

  /**
   * After OpenCode accepted a reply: waits for OpenCode's own event confirming it, else asks its
   * pending list. False means the reply did not take.
   */
  confirm(prompt: Prompt): Promise<boolean> {
    if (this.#echoed.delete(prompt.requestID)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (confirmed: boolean) => {
        clearTimeout(timer);
        this.#waiting.delete(prompt.requestID);
        resolve(confirmed);
      };
      const timer = setTimeout(() => void this.#deps.links.stillPending(prompt).then((pending) => done(!pending)), this.#deps.timeoutMs);
      this.#waiting.set(prompt.requestID, () => done(true));
    });
  }

  /** A `question.replied` / `question.rejected` for a pending question: true (and taken as confirmation) when it is our own. */
  questionReplied(prompt: QuestionPrompt, answers: string[][] | undefined): boolean {
    if (!isOwnQuestionEcho(prompt, answers)) return false;
    this.#echo(prompt.requestID);
    return true;
  }

  /** Any `permission.replied` (also for requests this process doesn't know): who made it. An own echo is taken as confirmation. */
  permissionReplied(sessionID: string, requestID: string, reply: PermissionReply, prompt: PermissionPrompt | undefined): PermissionReplier {
    const now = this.#deps.now();
    this.#forgetOldDecisions(now);
    const previous = this.#lastDecision.get(sessionID);
    const cascade = previous !== undefined && previous.requestID !== requestID && (previous.reply === "reject") === (reply === "reject");
    if (!cascade) this.#lastDecision.set(sessionID, { requestID, reply, at: now });
    if (prompt && isOwnPermissionEcho(prompt, reply)) {
      this.#echo(requestID);
      return "own";
    }
    return cascade ? "cascade" : "elsewhere";
  }

  /** The prompt is settled: an echo nobody waited for is dropped. */
  settled(requestID: string): void {
    this.#echoed.delete(requestID);
  }

  /** The session is gone: its last decision can't start a cascade any more. */
  forgetSession(sessionID: string): void {
    this.#lastDecision.delete(sessionID);
  }

  /** How many sessions' last decisions are kept (bounded by the cascade window). */
  get rememberedDecisions(): number {
    return this.#lastDecision.size;
  }

  #echo(requestID: string): void {
    const waiting = this.#waiting.get(requestID);
    if (waiting) waiting();
    else this.#echoed.add(requestID);
  }

  #forgetOldDecisions(now: number): void {
    for (const [sessionID, decision] of this.#lastDecision) if (now - decision.at > CASCADE_WINDOW_MS) this.#lastDecision.delete(sessionID);
  }
}

/** Whether a `question.replied` / `question.rejected` event is the echo of what we sent. */
export function isOwnQuestionEcho(prompt: QuestionPrompt, answers: string[][] | undefined): boolean {
  if (!prompt.busy) return false;
  return answers === undefined ? prompt.sentAnswers === undefined : JSON.stringify(prompt.sentAnswers ?? null) === JSON.stringify(answers);
}

/** Whether a `permission.replied` event is the echo of what we sent. */
export function isOwnPermissionEcho(prompt: PermissionPrompt, reply: string): boolean {
  return prompt.busy && prompt.sent?.reply === reply;
}
