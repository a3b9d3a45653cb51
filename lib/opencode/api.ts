// The only place that knows OpenCode's routes. Replies retry network and 5xx errors, never a 4xx.
import pRetry, { AbortError } from "p-retry";
import type { QuestionRequest } from "../sse/events.ts";
import { parseEvent } from "../sse/parse.ts";
import type { OpencodeTransport } from "./transport.ts";

/** `gone`: OpenCode no longer has it (404): answered elsewhere, dismissed, or dropped. */
export type Outcome = { ok: true } | { ok: false; gone: true } | { ok: false; gone: false; error: string };

export interface RetryPolicy {
  retries: number;
  minTimeout: number;
  maxTimeout: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, minTimeout: 200, maxTimeout: 2_000 };
const REQUEST_TIMEOUT_MS = 15_000;

export class OpencodeApi {
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

  /** Questions already pending when Hermes starts (or reconnects). */
  async listQuestions(): Promise<QuestionRequest[]> {
    const result = await this.#transport.request("GET", "/question", { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (result.status !== 200 || !Array.isArray(result.data)) return [];
    const requests: QuestionRequest[] = [];
    for (const raw of result.data) {
      const parsed = parseEvent({ type: "question.asked", properties: raw });
      if (parsed?.event.type === "question.asked") requests.push(parsed.event.request);
    }
    return requests;
  }

  async sessionTitle(sessionID: string): Promise<string | undefined> {
    const result = await this.#transport.request("GET", "/session/{sessionID}", { path: { sessionID }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const title = (result.data as { title?: unknown } | undefined)?.title;
    return result.status === 200 && typeof title === "string" ? title : undefined;
  }

  async #send(url: string, path: Record<string, string>, body?: unknown): Promise<Outcome> {
    try {
      return await pRetry(
        async () => {
          const result = await this.#transport.request("POST", url, { path, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          if (result.status >= 200 && result.status < 300) return { ok: true } as const;
          if (result.status === 404) return { ok: false, gone: true } as const;
          const error = `OpenCode answered ${result.status}: ${describeBody(result.data)}`;
          if (result.status >= 400 && result.status < 500) throw new AbortError(error);
          throw new Error(error);
        },
        { retries: this.#retry.retries, minTimeout: this.#retry.minTimeout, maxTimeout: this.#retry.maxTimeout },
      );
    } catch (error) {
      return { ok: false, gone: false, error: error instanceof Error ? error.message : String(error) };
    }
  }
}

function describeBody(data: unknown): string {
  if (typeof data === "string") return data.slice(0, 200);
  const message = (data as { data?: { message?: unknown }; message?: unknown; name?: unknown } | undefined);
  const text = message?.data?.message ?? message?.message ?? message?.name;
  return typeof text === "string" ? text.slice(0, 200) : JSON.stringify(data ?? null).slice(0, 200);
}
