// Records OpenCode's SSE stream (`GET /event?directory=…`) so tests can see bus events such as toasts.
import { createParser } from "eventsource-parser";

export interface EventRecorder {
  events: Array<{ type: string; properties: any }>;
  close(): void;
}

/**
 * `path: "/api/event"` with the server's `authorization` reads OpenCode 2's stream (every location;
 * its events carry their payload in `data`); `timeoutMs` is how long the stream stays open (120 s).
 */
export async function recordEvents(
  baseUrl: string,
  directory: string,
  opts: { path?: string; authorization?: string; timeoutMs?: number } = {},
): Promise<EventRecorder> {
  const events: EventRecorder["events"] = [];
  const abort = new AbortController();
  const url = new URL(opts.path ?? "/event", baseUrl);
  url.searchParams.set("directory", directory);
  const response = await fetch(url, {
    headers: opts.authorization ? { authorization: opts.authorization } : {},
    signal: AbortSignal.any([abort.signal, AbortSignal.timeout(opts.timeoutMs ?? 120_000)]),
  });
  const parser = createParser({
    onEvent(message) {
      try {
        const event = JSON.parse(message.data);
        if (typeof event?.type === "string")
          events.push(event.properties === undefined && event.data !== undefined ? { ...event, properties: event.data } : event);
      } catch {
        // not JSON: not an OpenCode event
      }
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  })().catch(() => undefined);
  return { events, close: () => abort.abort() };
}
