/**
 * HTTP to `opencode serve`: every call names its instance (`?directory=`) and has a client timeout, whose error carries OpenCode's log.
 */
export interface RequestOptions {
  body?: unknown;
  directory: string;
  timeoutMs?: number;
  /** An Authorization header (HTTP Basic, for a server with OPENCODE_SERVER_PASSWORD). */
  authorization?: string;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

export async function opencodeRequest<T>(
  baseUrl: string,
  method: string,
  path: string,
  opts: RequestOptions,
  logTail: () => string,
): Promise<{ status: number; body: T }> {
  const url = new URL(path, baseUrl);
  if (!url.searchParams.has("directory")) url.searchParams.set("directory", opts.directory);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.body !== undefined) headers["content-type"] = "application/json";
  if (opts.authorization) headers.authorization = opts.authorization;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    const reason =
      err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")
        ? `no answer within ${timeoutMs} ms`
        : err instanceof Error
          ? err.message
          : String(err);
    throw new Error(`OpenCode ${method.toUpperCase()} ${url.pathname}${url.search}: ${reason}\n--- last log lines ---\n${logTail()}`);
  }
  let body: unknown = text;
  if (text.length === 0) body = undefined;
  else if ((res.headers.get("content-type") ?? "").includes("json")) {
    try {
      body = JSON.parse(text);
    } catch {
      /* keep text */
    }
  }
  return { status: res.status, body: body as T };
}
