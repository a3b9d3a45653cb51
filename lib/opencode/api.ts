// The only place that knows OpenCode 1.x's routes (2.x: lib/opencode2/). Replies retry network and 5xx errors, never a 4xx.
import type { PermissionReply, PermissionRequest, QuestionRequest, SessionInfo } from "../hermes-events.ts";
import { parseEvent } from "./events.ts";
import type { OpencodeEndpoint, Outcome, PromptPart } from "./endpoint.ts";
import { DEFAULT_RETRY, sendForOutcome, type RetryPolicy } from "./send-outcome.ts";
import { REQUEST_TIMEOUT_MS, type OpencodeTransport } from "./transport.ts";

export type { Outcome } from "./endpoint.ts";

export class OpencodeApi implements OpencodeEndpoint {
  /** 1.x hands a reject's message to the agent as the tool's error (tests/e2e/permission-contract.test.ts). */
  readonly rejectKeepsMessage: boolean = true;
  readonly #transport: OpencodeTransport;
  readonly #retry: RetryPolicy;

  constructor(transport: OpencodeTransport, retry: RetryPolicy = DEFAULT_RETRY) {
    this.#transport = transport;
    this.#retry = retry;
  }

  replyQuestion(requestID: string, answers: string[][]): Promise<Outcome> {
    return this.#send("/question/{requestID}/reply", { requestID }, { answers });
  }

  rejectQuestion(requestID: string): Promise<Outcome> {
    return this.#send("/question/{requestID}/reject", { requestID });
  }

  replyPermission(requestID: string, decision: { reply: PermissionReply; message?: string }): Promise<Outcome> {
    const body = decision.message ? { reply: decision.reply, message: decision.message } : { reply: decision.reply };
    return this.#send("/permission/{requestID}/reply", { requestID }, body);
  }

  /** Sends a new message made of these parts (text, files) to a session (queued by OpenCode when it is busy). */
  prompt(sessionID: string, parts: PromptPart[]): Promise<Outcome> {
    return this.#send("/session/{sessionID}/prompt_async", { sessionID }, { parts });
  }

  /** Stops the session's run, as Esc in the terminal does (its pending prompts are rejected). */
  abortSession(sessionID: string): Promise<Outcome> {
    return this.#send("/session/{sessionID}/abort", { sessionID });
  }

  /** Questions already pending when Hermes starts (or reconnects). */
  async listQuestions(): Promise<QuestionRequest[]> {
    const requests: QuestionRequest[] = [];
    for (const raw of await this.#list("/question")) {
      const parsed = parseEvent({ type: "question.asked", properties: raw });
      if (parsed?.event.type === "question.asked") requests.push(parsed.event.request);
    }
    return requests;
  }

  async listPermissions(): Promise<PermissionRequest[]> {
    const requests: PermissionRequest[] = [];
    for (const raw of await this.#list("/permission")) {
      const parsed = parseEvent({ type: "permission.asked", properties: raw });
      if (parsed?.event.type === "permission.asked") requests.push(parsed.event.request);
    }
    return requests;
  }

  /** A session's title and parent, for sessions created before Hermes started. */
  async session(sessionID: string): Promise<SessionInfo | undefined> {
    const result = await this.#transport.request("GET", "/session/{sessionID}", { path: { sessionID }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (result.status !== 200) return undefined;
    const parsed = parseEvent({ type: "session.updated", properties: { info: result.data } });
    return parsed?.event.type === "session.upserted" ? parsed.event.info : undefined;
  }

  /** Throws unless OpenCode answered with a list: "could not read" must never look like "nothing pending". */
  async #list(url: string): Promise<unknown[]> {
    const result = await this.#transport.request("GET", url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (result.status !== 200 || !Array.isArray(result.data)) throw new Error(`OpenCode answered ${result.status} to GET ${url}`);
    return result.data;
  }

  #send(url: string, path: Record<string, string>, body?: unknown): Promise<Outcome> {
    return sendForOutcome(() => this.#transport.request("POST", url, { path, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }), this.#retry);
  }
}
