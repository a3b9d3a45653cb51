// OpenCode 1.x's own vocabulary for a session (issue 43; measured on 1.18.33 and 1.1.53, both have
// every route, docs/compatibility.md): `GET /command`, `POST /session/:id/command`, `POST
// /session/:id/summarize`, `POST /session/:id/fork`, `PATCH /session/:id`, and the user messages of
// `GET /session/:id/message` for the history (each with `summary.diffs`, the files its run changed).
import { isRecord } from "../util/is-record.ts";
import { leftByRunOf } from "./run-left.ts";
import type { CommandInfo, Compacted, Created, HistoryEntry, Outcome, SessionVocabulary } from "./endpoint.ts";
import { DEFAULT_RETRY, describeBody, sendForOutcome } from "./send-outcome.ts";
import { REQUEST_TIMEOUT_MS, type OpencodeTransport } from "./transport.ts";

/** 1.x answers a command and a summary only once the run is over: the phone waits this long for the summary. */
const COMPACT_TIMEOUT_MS = 10 * 60_000;
/** A command's request is answered when its run ends; an error comes at once, so this long without one means it runs. */
const COMMAND_STARTED_MS = 3_000;

export class OpencodeVocabulary implements SessionVocabulary {
  readonly #transport: OpencodeTransport;

  constructor(transport: OpencodeTransport) {
    this.#transport = transport;
  }

  /** `GET /command`: `[{ name, description?, source?, template }]`. */
  async listCommands(): Promise<CommandInfo[]> {
    const result = await this.#transport.request("GET", "/command", { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    if (result.status !== 200 || !Array.isArray(result.data)) throw new Error(`OpenCode answered ${result.status} to GET /command`);
    return commandInfos(result.data);
  }

  /** `POST /session/:id/command { command, arguments }`: answered with the run's last message once the run ends. */
  async runCommand(sessionID: string, name: string, args: string): Promise<Outcome> {
    const request = this.#transport
      .request("POST", "/session/{sessionID}/command", {
        path: { sessionID },
        body: { command: name, arguments: args },
        signal: AbortSignal.timeout(COMPACT_TIMEOUT_MS),
      })
      .then((result): Outcome => outcomeOf(result.status, result.data))
      .catch((error: unknown): Outcome => ({ ok: false, gone: false, error: error instanceof Error ? error.message : String(error) }));
    const started = new Promise<Outcome>((resolve) => setTimeout(() => resolve({ ok: true }), COMMAND_STARTED_MS).unref?.());
    return Promise.race([request, started]);
  }

  /** `POST /session/:id/summarize { providerID, modelID }` (the session's model): `true` once the summary is written. */
  async compact(sessionID: string): Promise<Compacted> {
    const before = lastUsage(await this.#messages(sessionID));
    if (!before?.model) return { ok: false, gone: false, error: "the session has no answer yet" };
    const result = await this.#transport
      .request("POST", "/session/{sessionID}/summarize", { path: { sessionID }, body: before.model, signal: AbortSignal.timeout(COMPACT_TIMEOUT_MS) })
      .catch((error: unknown) => ({ status: 0, data: error instanceof Error ? error.message : String(error) }));
    const outcome = outcomeOf(result.status, result.data);
    if (!outcome.ok) return outcome;
    const summary = lastUsage(await this.#messages(sessionID), true);
    return { ok: true, before: before.tokens, model: before.model, ...(summary ? { after: summary.output } : {}) };
  }

  /** `POST /session/:id/fork { messageID? }`: the new session (the messages before `messageID`, or all). Tried once. */
  async fork(sessionID: string, before?: string): Promise<Created> {
    try {
      const result = await this.#transport.request("POST", "/session/{sessionID}/fork", {
        path: { sessionID },
        body: before ? { messageID: before } : {},
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const id = isRecord(result.data) ? result.data.id : undefined;
      if (result.status === 200 && typeof id === "string" && id !== "") return { ok: true, sessionID: id };
      return { ok: false, error: `OpenCode answered ${result.status}: ${describeBody(result.data)}` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** `PATCH /session/:id { title }` (the same title twice changes nothing: retried). */
  rename(sessionID: string, title: string): Promise<Outcome> {
    const send = () =>
      this.#transport.request("PATCH", "/session/{sessionID}", { path: { sessionID }, body: { title }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    return sendForOutcome(send, DEFAULT_RETRY);
  }

  /** The user messages with text, newest first, each with `info.summary.diffs[].file` and what the run left in them (1.1.53's `after`, 1.18.33's whole-file `patch`). */
  async history(sessionID: string): Promise<HistoryEntry[]> {
    const entries: HistoryEntry[] = [];
    for (const message of await this.#messages(sessionID)) {
      const info = isRecord(message) && isRecord(message.info) ? message.info : undefined;
      if (info?.role !== "user" || typeof info.id !== "string" || !Array.isArray((message as { parts?: unknown }).parts)) continue;
      const text = userText((message as { parts: unknown[] }).parts);
      if (!text) continue;
      const diffs = isRecord(info.summary) && Array.isArray(info.summary.diffs) ? info.summary.diffs : [];
      const files = diffs.flatMap((diff) => (isRecord(diff) && typeof diff.file === "string" ? [diff.file] : []));
      entries.push({ messageID: info.id, text, files, left: leftByRunOf(diffs) });
    }
    return entries.reverse();
  }

  async #messages(sessionID: string): Promise<unknown[]> {
    const result = await this.#transport.request("GET", "/session/{sessionID}/message", {
      path: { sessionID },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (result.status !== 200 || !Array.isArray(result.data)) throw new Error(`OpenCode answered ${result.status} to GET /session/:id/message`);
    return result.data;
  }
}

/** Commands of a list both versions answer alike (`{ name, description?, source? }`); malformed entries are skipped. */
export function commandInfos(raws: readonly unknown[]): CommandInfo[] {
  return raws.flatMap((raw) =>
    isRecord(raw) && typeof raw.name === "string" && raw.name !== ""
      ? [
          {
            name: raw.name,
            ...(typeof raw.description === "string" && raw.description ? { description: raw.description } : {}),
            ...(typeof raw.source === "string" ? { source: raw.source } : {}),
            ...(typeof raw.template === "string" ? { template: raw.template } : {}),
          },
        ]
      : [],
  );
}

function outcomeOf(status: number, data: unknown): Outcome {
  if (status >= 200 && status < 300) return { ok: true };
  if (status === 404) return { ok: false, gone: true };
  return { ok: false, gone: false, error: `OpenCode answered ${status}: ${describeBody(data).split("\n")[0]}` };
}

/** The user's own text of a message (not OpenCode's synthetic parts). */
function userText(parts: readonly unknown[]): string {
  return parts
    .filter((part) => isRecord(part) && part.type === "text" && typeof part.text === "string" && part.synthetic !== true)
    .map((part) => (part as { text: string }).text)
    .join("\n")
    .trim();
}

/** The newest assistant message's tokens (the context it filled) and model; `summary`: the newest summary's. */
function lastUsage(
  messages: readonly unknown[],
  summary = false,
): { tokens: number; output: number; model: { providerID: string; modelID: string } } | undefined {
  for (const message of [...messages].reverse()) {
    const info = isRecord(message) && isRecord(message.info) ? message.info : undefined;
    if (info?.role !== "assistant" || (info.summary === true) !== summary || !isRecord(info.tokens)) continue;
    if (typeof info.providerID !== "string" || typeof info.modelID !== "string") continue;
    const tokens = info.tokens;
    const cache = isRecord(tokens.cache) ? tokens.cache : {};
    const count = [tokens.input, tokens.output, tokens.reasoning, cache.read, cache.write].reduce<number>((sum, n) => sum + (typeof n === "number" ? n : 0), 0);
    return { tokens: count, output: typeof tokens.output === "number" ? tokens.output : 0, model: { providerID: info.providerID, modelID: info.modelID } };
  }
  return undefined;
}
