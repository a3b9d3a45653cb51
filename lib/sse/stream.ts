// The SSE client for attach mode: `GET /global/event` (or `/event`) of a running `opencode serve`,
// read with fetch and eventsource-parser, narrowed by lib/opencode/events.ts. It owns the connection only:
// connect timeout, heartbeat watchdog, reconnect with backoff. It knows nothing of the bridge.
//
// - Every connect has its own timeout, counted until the first byte of the body: a stream opened
//   while the server is still starting can hang without sending anything (OpenCode sends
//   `server.connected` at once).
// - A stream that goes silent (no byte for `heartbeatTimeoutMs`) is dropped and reopened.
//   OpenCode 1.18.33 sends `server.heartbeat` every 10 s; 1.1.53 sends none on `/global/event`
//   (measured), so there silence is normal: until a heartbeat has been seen from the server, a
//   silent stream is still reopened (a dead connection can't be told from a quiet one), but the
//   disconnect is reported as `idle` so that the caller can keep quiet about it.
// - A stream that ends (OpenCode ends `/event` after `server.instance.disposed`) or breaks after
//   it was open is reopened after `minTimeout`; failed connects back off (p-retry) up to
//   `maxTimeout`. 401/403/404 stop the stream: retrying can't fix a password or a missing route.
import { createParser } from "eventsource-parser";
import pRetry, { AbortError } from "p-retry";
import { parseEvent, type ParsedEvent } from "../opencode/events.ts";
import { sleep } from "../util/sleep.ts";

export interface EventStreamOptions<T = ParsedEvent> {
  /** Full URL of the SSE endpoint, e.g. `http://127.0.0.1:4096/global/event`. */
  url: string;
  /** Extra request headers (authorization). */
  headers?: Record<string, string>;
  /** Every event Hermes understands, with the directory its `/global/event` envelope named. */
  onEvent(parsed: T): void;
  /** Narrows one event's JSON into what `onEvent` gets (undefined: skip it). Default: parseEvent (OpenCode 1.x shapes). */
  parse?: (raw: unknown) => T | undefined;
  /** Each time a connection delivers its first byte; `reconnect` is false only the first time. */
  onConnect?(info: { reconnect: boolean }): void;
  /** A connection opened after an earlier one was lost: whatever happened in between was missed. */
  onReconnect?(): void;
  /**
   * An open connection was lost (ended, broke or went silent); a reconnect follows. `idle`: it
   * only went silent, on a server that never sent a heartbeat (routine, nothing looks wrong).
   */
  onDisconnect?(reason: string, info: { idle: boolean }): void;
  /** A connect attempt failed; the next one follows after `delayMs`. */
  onConnectFailed?(info: { attempt: number; error: Error; delayMs: number }): void;
  /** Until the first byte of the body. Default 10 s. */
  connectTimeoutMs?: number;
  /** Longest silence of an open stream. Default 30 s (OpenCode's heartbeat comes every 10 s). */
  heartbeatTimeoutMs?: number;
  /** Backoff between failed connects (p-retry: minTimeout · factor^n, at most maxTimeout, randomized). */
  backoff?: { minTimeout?: number; maxTimeout?: number; factor?: number; randomize?: boolean };
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export interface EventStream {
  /** True while a connection is open (it delivered a byte and has not been lost). */
  readonly connected: boolean;
  /** Resolves when stopped; rejects with a StreamError when the server refuses for good (401/403/404). */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

export class StreamError extends Error {
  override readonly name = "StreamError";
  /** HTTP status when the server answered with one. */
  readonly status: number | undefined;
  /** Retrying can't help (bad credentials, no such route). */
  readonly fatal: boolean;

  constructor(message: string, options: { status?: number; fatal?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.fatal = options.fatal ?? false;
  }
}

const FATAL_STATUSES = new Set([401, 403, 404]);
const DEFAULTS = { connectTimeoutMs: 10_000, heartbeatTimeoutMs: 30_000, minTimeout: 500, maxTimeout: 15_000, factor: 2 };

export function openEventStream<T = ParsedEvent>(options: EventStreamOptions<T>): EventStream {
  const parse = options.parse ?? (parseEvent as (raw: unknown) => T | undefined);
  const fetchImpl = options.fetch ?? fetch;
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
  const heartbeatTimeoutMs = options.heartbeatTimeoutMs ?? DEFAULTS.heartbeatTimeoutMs;
  const minTimeout = options.backoff?.minTimeout ?? DEFAULTS.minTimeout;
  const maxTimeout = options.backoff?.maxTimeout ?? DEFAULTS.maxTimeout;
  const factor = options.backoff?.factor ?? DEFAULTS.factor;
  const randomize = options.backoff?.randomize ?? true;

  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;
  let connected = false;
  let opened = 0;
  /** The server sends heartbeats (so a silent stream is a dead one). */
  let heartbeats = false;

  interface Lost {
    reason: string;
    idle: boolean;
  }

  /** One connection: resolves with why it was lost once it was open; throws when it never opened. */
  async function connectOnce(): Promise<Lost> {
    const attempt = new AbortController();
    let failure: StreamError | undefined;
    const fail = (error: StreamError) => {
      failure ??= error;
      attempt.abort(error);
    };
    const onStop = () => attempt.abort(signal.reason);
    signal.addEventListener("abort", onStop, { once: true });
    let lastByteAt = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => fail(new StreamError(`no answer within ${connectTimeoutMs} ms of connecting`)),
      connectTimeoutMs,
    );
    let idle = false;
    const watch = (delay: number) => {
      timer = setTimeout(() => {
        const silent = Date.now() - lastByteAt;
        if (silent < heartbeatTimeoutMs) return watch(heartbeatTimeoutMs - silent);
        idle = !heartbeats;
        fail(new StreamError(`no data for ${Math.round(silent / 1000)} s`));
      }, delay);
    };
    let open = false;
    try {
      let response: Response;
      try {
        response = await fetchImpl(options.url, {
          headers: { accept: "text/event-stream", "cache-control": "no-cache", ...options.headers },
          signal: attempt.signal,
        });
      } catch (error) {
        throw failure ?? new StreamError(`could not connect: ${describeCause(error)}`, { cause: error });
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        const status = response.status;
        throw new StreamError(`${options.url} answered HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`, {
          status,
          fatal: FATAL_STATUSES.has(status),
        });
      }
      if (!response.body) throw new StreamError(`${options.url} answered without a body`);
      const type = response.headers.get("content-type") ?? "";
      if (!type.includes("text/event-stream")) {
        await response.body.cancel().catch(() => undefined);
        throw new StreamError(`${options.url} is not an event stream (content-type "${type}")`);
      }
      const parser = createParser({
        onEvent: (message) => {
          let raw: unknown;
          try {
            raw = JSON.parse(message.data);
          } catch {
            return;
          }
          if (eventType(raw) === "server.heartbeat") heartbeats = true;
          const parsed = parse(raw);
          if (!parsed) return;
          try {
            options.onEvent(parsed);
          } catch {
            // The consumer's error must not break the stream.
          }
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          let chunk: ReadableStreamReadResult<string>;
          try {
            chunk = await reader.read();
          } catch (error) {
            throw failure ?? new StreamError(`the stream broke: ${describeCause(error)}`, { cause: error });
          }
          if (chunk.done) {
            if (!open) throw new StreamError("the stream ended before it sent anything");
            return { reason: "the stream ended", idle: false };
          }
          lastByteAt = Date.now();
          if (!open) {
            open = true;
            clearTimeout(timer);
            watch(heartbeatTimeoutMs);
            connected = true;
            const reconnect = opened++ > 0;
            safely(() => options.onConnect?.({ reconnect }));
            if (reconnect) safely(() => options.onReconnect?.());
          }
          parser.feed(chunk.value);
        }
      } finally {
        reader.cancel().catch(() => undefined);
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      if (open) return { reason: error instanceof Error ? error.message : String(error), idle };
      const streamError = error instanceof StreamError ? error : new StreamError(describeCause(error), { cause: error });
      throw streamError.fatal ? new AbortError(streamError) : streamError;
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onStop);
      attempt.abort();
      connected = false;
    }
  }

  const done = (async () => {
    while (!signal.aborted) {
      let lost: Lost;
      try {
        lost = await pRetry(connectOnce, {
          retries: Number.POSITIVE_INFINITY,
          minTimeout,
          maxTimeout,
          factor,
          randomize,
          signal,
          onFailedAttempt: ({ error, attemptNumber, retriesConsumed }) => {
            if (signal.aborted) return;
            const delayMs = Math.min(maxTimeout, minTimeout * factor ** retriesConsumed);
            safely(() => options.onConnectFailed?.({ attempt: attemptNumber, error, delayMs }));
          },
        });
      } catch (error) {
        if (signal.aborted) return;
        // p-retry rethrows an AbortError's original error: the StreamError with fatal set.
        throw error instanceof StreamError ? error : new StreamError(describeCause(error), { cause: error, fatal: true });
      }
      if (signal.aborted) return;
      safely(() => options.onDisconnect?.(lost.reason, { idle: lost.idle }));
      // It was open: reconnect soon, but never in a tight loop against a flapping server.
      await sleep(minTimeout, signal);
      if (signal.aborted) return;
    }
  })();
  done.catch(() => undefined); // callers may only await stop()

  return {
    get connected() {
      return connected;
    },
    done,
    async stop() {
      stopper.abort(new StreamError("stopped"));
      await done.catch(() => undefined);
    },
  };
}

/** `type` of a plain event or of a `/global/event` envelope's payload. */
function eventType(raw: unknown): unknown {
  const event = raw as { type?: unknown; payload?: { type?: unknown } } | null;
  return event?.payload?.type ?? event?.type;
}

function safely(callback: () => void): void {
  try {
    callback();
  } catch {
    // A consumer's callback must not break the stream.
  }
}

function describeCause(error: unknown): string {
  if (error instanceof StreamError) return error.message;
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const detail =
    cause instanceof Error ? cause.message : typeof cause === "object" && cause && "code" in cause ? String((cause as { code: unknown }).code) : "";
  return detail && !error.message.includes(detail) ? `${error.message} (${detail})` : error.message;
}
