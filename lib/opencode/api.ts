// The only place that knows OpenCode 1.x's routes (2.x: lib/opencode2/). Replies retry network and 5xx errors, never a 4xx.
import type { PermissionReply, PermissionRequest, QuestionRequest, SessionInfo } from "../hermes-events.ts";
import { parseEvent } from "./events.ts";
import { isRecord } from "../util/is-record.ts";
import type { AgentInfo, Created, ModelInfo, OpencodeEndpoint, Outcome, PromptChoice, PromptPart, Reverted, SessionSummary } from "./endpoint.ts";
import { DEFAULT_RETRY, describeBody, sendForOutcome, type RetryPolicy } from "./send-outcome.ts";
import { REQUEST_TIMEOUT_MS, type OpencodeTransport } from "./transport.ts";
import { OpencodeDesk } from "./desk.ts";
import { OpencodeVocabulary } from "./vocabulary.ts";

export type { Outcome } from "./endpoint.ts";

export class OpencodeApi implements OpencodeEndpoint {
  /** 1.x hands a reject's message to the agent as the tool's error (tests/e2e/permission-contract.test.ts). */
  readonly rejectKeepsMessage: boolean = true;
  readonly vocabulary: OpencodeVocabulary;
  /** The shell route and MCP servers (issue 53); the status trailer follows the shell OpenCode picks from the process' environment. */
  readonly desk: OpencodeDesk;
  readonly #transport: OpencodeTransport;
  readonly #retry: RetryPolicy;

  /** `elsewhere`: the transport to the same server for another directory (`at`). */
  constructor(transport: OpencodeTransport, retry: RetryPolicy = DEFAULT_RETRY, elsewhere?: (directory: string) => OpencodeTransport | undefined) {
    this.#transport = transport;
    this.#retry = retry;
    this.vocabulary = new OpencodeVocabulary(transport);
    this.desk = new OpencodeDesk(transport, process.env);
    if (elsewhere) this.at = (directory) => new OpencodeApi(elsewhere(directory) ?? transport, retry, elsewhere);
  }

  at?: (directory: string) => OpencodeEndpoint;

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

  /**
   * Sends a new message made of these parts (text, files) to a session (queued by OpenCode when it
   * is busy). `choice`: prompt_async's own `model` ({ providerID, modelID }) and `agent` fields
   * (1.1.53 and 1.18.33).
   */
  prompt(sessionID: string, parts: PromptPart[], choice: PromptChoice = {}): Promise<Outcome> {
    return this.#send("/session/{sessionID}/prompt_async", { sessionID }, { parts, ...choice });
  }

  /** `GET /session`: `[{ id, title, parentID?, time: { created, updated } }]`. */
  async listSessions(): Promise<SessionSummary[]> {
    return sessionSummaries(await this.#list("/session"));
  }

  /** `GET /session/:id/message`: `[{ info: { role }, parts: [{ type: "text", text }] }]`, oldest first. */
  async lastAnswer(sessionID: string): Promise<string | undefined> {
    const result = await this.#transport.request("GET", "/session/{sessionID}/message", {
      path: { sessionID },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (result.status !== 200 || !Array.isArray(result.data)) throw new Error(`OpenCode answered ${result.status} to GET /session/:id/message`);
    for (const message of [...result.data].reverse()) {
      if (!isRecord(message) || !isRecord(message.info) || message.info.role !== "assistant" || !Array.isArray(message.parts)) continue;
      const text = textOf(message.parts);
      if (text) return text;
    }
    return undefined;
  }

  /** `GET /config/providers`: `{ providers: [{ id, models: { [id]: { id, name } } }], default }`. */
  async listModels(): Promise<ModelInfo[]> {
    const result = await this.#transport.request("GET", "/config/providers", { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const providers = (result.data as { providers?: unknown } | undefined)?.providers;
    if (result.status !== 200 || !Array.isArray(providers)) throw new Error(`OpenCode answered ${result.status} to GET /config/providers`);
    const models: ModelInfo[] = [];
    for (const provider of providers) {
      if (!isRecord(provider) || typeof provider.id !== "string" || !isRecord(provider.models)) continue;
      for (const [modelID, model] of Object.entries(provider.models)) {
        const name = isRecord(model) && typeof model.name === "string" ? model.name : undefined;
        models.push({ providerID: provider.id, modelID, ...(name ? { name } : {}), ...contextLimitOf(model) });
      }
    }
    return models;
  }

  /** `GET /agent`: `[{ name, mode: "primary" | "subagent" | "all", hidden? }]`. */
  async listAgents(): Promise<AgentInfo[]> {
    const agents: AgentInfo[] = [];
    for (const agent of await this.#list("/agent")) {
      if (!isRecord(agent) || typeof agent.name !== "string" || agent.mode === "subagent" || agent.hidden === true) continue;
      agents.push({ id: agent.name });
    }
    return agents;
  }

  /** `POST /session` with an empty body (1.1.53 and 1.18.33 answer 200 with the new Session). Not retried: a retry could make two. */
  async createSession(title?: string): Promise<Created> {
    try {
      const result = await this.#transport.request("POST", "/session", {
        body: title === undefined ? {} : { title },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const id = (result.data as { id?: unknown } | undefined)?.id;
      if (result.status === 200 && typeof id === "string" && id !== "") return { ok: true, sessionID: id };
      return { ok: false, error: `OpenCode answered ${result.status} to POST /session` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Stops the session's run, as Esc in the terminal does (its pending prompts are rejected). */
  abortSession(sessionID: string): Promise<Outcome> {
    return this.#send("/session/{sessionID}/abort", { sessionID });
  }

  /**
   * `POST /session/:id/revert { messageID }`: 200 with the session, whose `revert` is `{ messageID,
   * snapshot?, diff? }` (`diff`: what the revert changed, one `diff --git` per file restored; no
   * `snapshot` without git). Busy: 409 on 1.18.33, 500 "is busy" on 1.1.53. Tried once.
   */
  async revertRun(sessionID: string, messageID: string): Promise<Reverted> {
    try {
      const result = await this.#transport.request("POST", "/session/{sessionID}/revert", {
        path: { sessionID },
        body: { messageID },
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (result.status === 404) return { ok: false, gone: true };
      if (result.status !== 200) return { ok: false, gone: false, error: `OpenCode answered ${result.status}: ${firstLine(describeBody(result.data))}` };
      const revert = isRecord(result.data) && isRecord(result.data.revert) ? result.data.revert : {};
      const files = typeof revert.diff === "string" ? diffFiles(revert.diff) : [];
      return { ok: true, files, snapshot: typeof revert.snapshot === "string" && revert.snapshot !== "" };
    } catch (error) {
      return { ok: false, gone: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** `POST /session/:id/unrevert`: 200 with the session. */
  unrevertRun(sessionID: string): Promise<Outcome> {
    return this.#send("/session/{sessionID}/unrevert", { sessionID });
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

/** The sessions of a list both versions answer alike (`{ id, title?, parentID?, time: { updated } }`); malformed entries are skipped. */
export function sessionSummaries(raws: readonly unknown[]): SessionSummary[] {
  const sessions: SessionSummary[] = [];
  for (const raw of raws) {
    if (!isRecord(raw) || typeof raw.id !== "string" || !isRecord(raw.time) || typeof raw.time.updated !== "number") continue;
    sessions.push({
      id: raw.id,
      updated: raw.time.updated,
      ...(typeof raw.title === "string" ? { title: raw.title } : {}),
      ...(typeof raw.parentID === "string" && raw.parentID ? { parentID: raw.parentID } : {}),
    });
  }
  return sessions;
}

/** The files a unified diff names (`diff --git a/x b/x`), each once. */
export function diffFiles(diff: string): string[] {
  const files = new Set<string>();
  for (const match of diff.matchAll(/^diff --git a\/(.+?) b\/(.+)$/gm)) files.add(match[2]!);
  return [...files];
}

/** 1.1.53 puts a stack trace after the message. */
function firstLine(text: string): string {
  return text.split("\n")[0]!.trim();
}

/** The text parts of a message, joined. */
export function textOf(parts: readonly unknown[]): string {
  return parts
    .filter((part): part is { type: "text"; text: string } => isRecord(part) && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n\n")
    .trim();
}

/** A model entry's `limit.context`, when it is a sane positive count. */
export function contextLimitOf(model: unknown): { contextLimit: number } | Record<string, never> {
  const limit = isRecord(model) && isRecord(model.limit) ? model.limit.context : undefined;
  return typeof limit === "number" && Number.isSafeInteger(limit) && limit > 0 ? { contextLimit: limit } : {};
}
