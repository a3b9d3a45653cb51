// One Bot API method call as a plain JSON POST with the runtime's own fetch: the body goes out
// uncompressed on every runtime. telegraf's client passes node-fetch's `compress: true` (meaning
// "accept compressed answers" in node-fetch 2); the Bun inside OpenCode 2.0.15 (1.4.2) reads it
// as "gzip the request body", and nothing says every Bot API front or proxy inflates that.
// api.ts calls it for every method but sendDocument.

/** The Bot API's answer; `code` 0 when there was none. api.ts turns a failure into a TelegramApiError. */
export type BotApiResult = { ok: true; result: unknown } | { ok: false; code: number; description: string; retryAfterSeconds?: number };

/** Fields telegraf leaves undefined or null are left out, as telegraf's own client does. */
function withoutEmpty(_key: string, value: unknown): unknown {
  return value === null ? undefined : value;
}

export async function callBotApi(
  token: string,
  apiRoot: string,
  method: string,
  payload: object,
  signal?: AbortSignal,
  fetchImpl: typeof fetch = fetch,
): Promise<BotApiResult> {
  const url = new URL(`./bot${token}/${method}`, apiRoot.endsWith("/") ? apiRoot : `${apiRoot}/`);
  let response: Response;
  let text: string;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload, withoutEmpty),
      ...(signal ? { signal } : {}),
    });
    text = await response.text();
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    return { ok: false, code: 0, description: failureText(error, token) };
  }
  let body: { ok?: unknown; result?: unknown; error_code?: unknown; description?: unknown; parameters?: { retry_after?: unknown } } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // A proxy's HTML page or an empty answer: the status says what happened.
  }
  if (body?.ok === true) return { ok: true, result: body.result };
  const failure: BotApiResult = {
    ok: false,
    code: typeof body?.error_code === "number" ? body.error_code : response.status,
    description: typeof body?.description === "string" ? body.description : `HTTP ${response.status}`,
  };
  if (typeof body?.parameters?.retry_after === "number") failure.retryAfterSeconds = body.parameters.retry_after;
  return failure;
}

/** Why no answer came, never with the URL (it carries the token). */
function failureText(error: unknown, token: string): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
  if (typeof cause === "string") return cause;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.message.split(token).join("…") : "no answer";
}
