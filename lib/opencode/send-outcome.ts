// A request that changes something in OpenCode (an answer, a dismissal, a prompt, a stop), read as
// an Outcome: 2xx done, 404 gone (answered elsewhere, dismissed, dropped), any other 4xx refused at
// once, network errors and 5xx retried with backoff. Shared by the 1.x routes (api.ts) and the
// OpenCode 2 server client. p-retry loads with the first such request: a waiting OpenCode sends none.
import type { Outcome } from "./endpoint.ts";

export interface RetryPolicy {
  retries: number;
  minTimeout: number;
  maxTimeout: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 4, minTimeout: 200, maxTimeout: 2_000 };

export async function sendForOutcome(request: () => Promise<{ status: number; data: unknown }>, retry: RetryPolicy): Promise<Outcome> {
  try {
    const { default: pRetry, AbortError } = await import("p-retry");
    return await pRetry(
      async () => {
        const result = await request();
        if (result.status >= 200 && result.status < 300) return { ok: true } as const;
        if (result.status === 404) return { ok: false, gone: true } as const;
        const error = `OpenCode answered ${result.status}: ${describeBody(result.data)}`;
        if (result.status >= 400 && result.status < 500) throw new AbortError(error);
        throw new Error(error);
      },
      { retries: retry.retries, minTimeout: retry.minTimeout, maxTimeout: retry.maxTimeout },
    );
  } catch (error) {
    return { ok: false, gone: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** OpenCode's error text: `{ data: { message } }` (1.x), `{ error: { message } }` (2.x), `{ message }`, `{ name }`, or the body itself. */
export function describeBody(data: unknown): string {
  if (typeof data === "string") return data.slice(0, 200);
  const body = data as { data?: { message?: unknown }; error?: { message?: unknown }; message?: unknown; name?: unknown } | undefined;
  const text = body?.data?.message ?? body?.error?.message ?? body?.message ?? body?.name;
  return typeof text === "string" ? text.slice(0, 200) : JSON.stringify(data ?? null).slice(0, 200);
}
