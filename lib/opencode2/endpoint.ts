// The bridge's way into one OpenCode 2 location (project directory). Inside the plugin,
// permissions are answered in-process (`ctx.permission.reply`); in attach mode over HTTP. Questions
// are forms, always answered over HTTP (server-client.ts): the 2.x plugin context has no form API.
// The form behind each question (field keys, types, option values) is kept from `form.created`.
import { isRecord } from "../util/is-record.ts";
import { contextLimitOf, sessionSummaries, textOf } from "../opencode/api.ts";
import { narrowFileChange } from "../opencode/events.ts";
import type { AgentInfo, Created, ModelInfo, OpencodeEndpoint, Outcome, PromptChoice, PromptPart, Reverted, SessionSummary } from "../opencode/endpoint.ts";
import { describeBody } from "../opencode/send-outcome.ts";
import type { FileChange, PermissionReply, PermissionRequest, QuestionRequest, SessionInfo } from "../hermes-events.ts";
import { narrowEvent, questionForm, type NarrowedEvent, type QuestionForm } from "./events.ts";
import { formAnswer } from "./forms.ts";
import type { OwnServerClient } from "./server-client.ts";
import { Opencode2Vocabulary } from "./vocabulary.ts";

/** The part of OpenCode 2's plugin context Hermes uses (2.0.15). */
export interface PluginContext2 {
  location: { directory: string };
  options?: unknown;
  event: { subscribe(input: { signal: AbortSignal }): AsyncIterable<unknown> };
  permission: {
    reply(input: { sessionID: string; requestID: string; decision: PermissionReply; message?: string }): Promise<unknown>;
    list(input: { sessionID: string }): Promise<unknown>;
  };
  session: { get(input: { sessionID: string }): Promise<unknown> };
}

/** What differs between the plugin and attach mode: how a permission is answered and a session read. */
export interface PermissionHost {
  reply(input: { sessionID: string; requestID: string; decision: PermissionReply; message?: string }): Promise<Outcome>;
  session(sessionID: string): Promise<unknown>;
}

/** In-process, through the plugin context. */
export function contextHost(ctx: PluginContext2): PermissionHost {
  return {
    async reply(input) {
      try {
        await ctx.permission.reply(input);
        return { ok: true };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // 2.0.15 rejects an id it no longer has with "Permission request not found: per_…".
        if (/not found/i.test(message)) return { ok: false, gone: true };
        return { ok: false, gone: false, error: message.slice(0, 200) };
      }
    },
    session: (sessionID) => ctx.session.get({ sessionID }),
  };
}

/** Over HTTP to the server (attach mode). */
export function httpHost(server: OwnServerClient): PermissionHost {
  return {
    reply: ({ sessionID, requestID, decision, message }) =>
      server.send("POST", "/api/session/{sessionID}/permission/{requestID}/reply", { sessionID, requestID }, { decision, ...(message ? { message } : {}) }),
    session: (sessionID) => server.get(`/api/session/${encodeURIComponent(sessionID)}`),
  };
}

/** Question forms and permission requests seen in this process, by id (shared by every location). */
export interface Book {
  forms: Map<string, QuestionForm>;
  /** permission request id → its session (ctx.permission.reply needs both). */
  permissions: Map<string, string>;
}

/** How long an answered form or permission stays in the book (a late tap still finds it, and is told it is closed). */
const FORGET_AFTER_MS = 60_000;

/** The book's one writer for events: what was asked goes in, what was answered leaves a minute later. */
export function recordInBook(book: Book, narrowed: NarrowedEvent): void {
  if (narrowed.form) book.forms.set(narrowed.form.id, narrowed.form);
  for (const event of narrowed.events) {
    if (event.type === "permission.asked") book.permissions.set(event.request.id, event.request.sessionID);
    else if (event.type === "question.replied" || event.type === "question.rejected") forgetLater(book.forms, event.requestID);
    else if (event.type === "permission.replied") forgetLater(book.permissions, event.requestID);
  }
}

function forgetLater(map: Map<string, unknown>, id: string): void {
  setTimeout(() => map.delete(id), FORGET_AFTER_MS).unref?.();
}

export class Opencode2Endpoint implements OpencodeEndpoint {
  /** 2.0.15 accepts a reject's message and drops it: the agent only hears "Unable to execute command" and goes on. */
  readonly rejectKeepsMessage: boolean = false;
  readonly vocabulary: Opencode2Vocabulary;
  readonly #directory: string;
  readonly #host: PermissionHost;
  readonly #server: OwnServerClient;
  readonly #book: Book;

  constructor(directory: string, host: PermissionHost, server: OwnServerClient, book: Book) {
    this.#directory = directory;
    this.#host = host;
    this.#server = server;
    this.#book = book;
    this.vocabulary = new Opencode2Vocabulary(directory, server);
  }

  /** Another location of the same server (a git worktree): `POST /api/session { location }` starts it. */
  at(directory: string): OpencodeEndpoint {
    return new Opencode2Endpoint(directory, this.#host, this.#server, this.#book);
  }

  replyQuestion(requestID: string, answers: string[][]): Promise<Outcome> {
    const form = this.#book.forms.get(requestID);
    if (!form) return Promise.resolve({ ok: false, gone: true });
    return this.#server.send(
      "POST",
      "/api/session/{sessionID}/form/{formID}/reply",
      { sessionID: form.sessionID, formID: form.id },
      { answer: formAnswer(form, answers) },
    );
  }

  rejectQuestion(requestID: string): Promise<Outcome> {
    const form = this.#book.forms.get(requestID);
    if (!form) return Promise.resolve({ ok: false, gone: true });
    return this.#server.send("DELETE", "/api/session/{sessionID}/form/{formID}", { sessionID: form.sessionID, formID: form.id });
  }

  async replyPermission(requestID: string, decision: { reply: PermissionReply; message?: string }): Promise<Outcome> {
    const sessionID = this.#book.permissions.get(requestID);
    if (!sessionID) return { ok: false, gone: true };
    return this.#host.reply({ sessionID, requestID, decision: decision.reply, ...(decision.message ? { message: decision.message } : {}) });
  }

  /** Text goes as one prompt; files from the phone are not measured on 2.x yet, so they are refused with a reason. */
  /**
   * 2.0.15's prompt route takes no model or agent: they belong to the session, switched first as its
   * own TUI does (`POST /api/session/:id/agent { agent }`, `POST /api/session/:id/model { model: { providerID, id } }`).
   */
  async prompt(sessionID: string, parts: PromptPart[], choice: PromptChoice = {}): Promise<Outcome> {
    if (parts.some((part) => part.type !== "text")) return { ok: false, gone: false, error: "files from the phone are not supported on OpenCode 2 yet" };
    if (choice.agent) {
      const switched = await this.#server.send("POST", "/api/session/{sessionID}/agent", { sessionID }, { agent: choice.agent });
      if (!switched.ok) return switched;
    }
    if (choice.model) {
      const model = { providerID: choice.model.providerID, id: choice.model.modelID };
      const switched = await this.#server.send("POST", "/api/session/{sessionID}/model", { sessionID }, { model });
      if (!switched.ok) return switched;
    }
    const text = parts.map((part) => (part.type === "text" ? part.text : "")).join("\n\n");
    return this.#server.send("POST", "/api/session/{sessionID}/prompt", { sessionID }, { text });
  }

  /** `GET /api/session?location[directory]=…`: `{ data: [{ id, title, parentID?, time: { updated } }] }` (its first page). */
  async listSessions(): Promise<SessionSummary[]> {
    return sessionSummaries(dataList(await this.#server.get("/api/session", { "location[directory]": this.#directory })));
  }

  /** `GET /api/session/:id/message`: `{ data: [{ type: "assistant", content: [{ type: "text", text }] }, …] }`, newest first. */
  async lastAnswer(sessionID: string): Promise<string | undefined> {
    for (const message of dataList(await this.#server.get(`/api/session/${encodeURIComponent(sessionID)}/message`))) {
      if (!isRecord(message) || message.type !== "assistant" || !Array.isArray(message.content)) continue;
      const text = textOf(message.content);
      if (text) return text;
    }
    return undefined;
  }

  /**
   * The models of the providers the location's config documents name (`GET /api/config?location…`:
   * `[{ type: "document", info: { providers: { id: { models: { id: { name } } } } } }]`), then
   * `GET /api/model?location…` (`{ data: [{ providerID, modelID, name, enabled }] }`). 2.0.15's
   * model list holds only its built-in catalog, not a provider the project's opencode.json adds
   * (measured: that provider's prompts work, `/api/provider/<id>` answers 404).
   */
  async listModels(): Promise<ModelInfo[]> {
    const where = { "location[directory]": this.#directory };
    const models: ModelInfo[] = [];
    const config = await this.#server.get("/api/config", where);
    for (const source of Array.isArray(config) ? config : []) {
      const providers = isRecord(source) && isRecord(source.info) && isRecord(source.info.providers) ? source.info.providers : {};
      for (const [providerID, provider] of Object.entries(providers)) {
        if (!isRecord(provider) || !isRecord(provider.models)) continue;
        for (const [modelID, model] of Object.entries(provider.models))
          models.push({ providerID, modelID, ...(isRecord(model) && typeof model.name === "string" ? { name: model.name } : {}), ...contextLimitOf(model) });
      }
    }
    for (const raw of dataList(await this.#server.get("/api/model", where))) {
      if (!isRecord(raw) || typeof raw.providerID !== "string" || typeof raw.modelID !== "string" || raw.enabled === false) continue;
      models.push({ providerID: raw.providerID, modelID: raw.modelID, ...(typeof raw.name === "string" ? { name: raw.name } : {}) });
    }
    return models;
  }

  /** `GET /api/agent?location[directory]=…`: `{ data: [{ id, name, mode, hidden }] }`. */
  async listAgents(): Promise<AgentInfo[]> {
    const agents: AgentInfo[] = [];
    for (const raw of dataList(await this.#server.get("/api/agent", { "location[directory]": this.#directory }))) {
      if (!isRecord(raw) || typeof raw.id !== "string" || raw.mode === "subagent" || raw.hidden === true) continue;
      agents.push({ id: raw.id, ...(typeof raw.name === "string" ? { name: raw.name } : {}) });
    }
    return agents;
  }

  /** `POST /api/session { location: { directory } }`: 2.0.15 answers 200 with `{ data: Session }`. */
  async createSession(title?: string): Promise<Created> {
    try {
      const result = await this.#server.create("/api/session", { location: { directory: this.#directory }, ...(title === undefined ? {} : { title }) });
      const id = (result.data as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (result.status >= 200 && result.status < 300 && typeof id === "string" && id !== "") return { ok: true, sessionID: id };
      return { ok: false, error: `OpenCode answered ${result.status} to POST /api/session` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Stop from the phone: 2.0.15 answers `POST /api/session/:sessionID/interrupt` with success (tests/e2e/opencode2-stop.test.ts). */
  abortSession(sessionID: string): Promise<Outcome> {
    return this.#server.send("POST", "/api/session/{sessionID}/interrupt", { sessionID });
  }

  /**
   * `POST /api/session/:id/revert/stage { messageID, files: true }`: 200 with `{ data: { messageID,
   * snapshot?, files: [{ file, status }] } }` (no `snapshot` without git); busy: 409. Tried once.
   * The revert stays staged until the session's next prompt (Hermes never calls `/revert/commit`).
   */
  async revertRun(sessionID: string, messageID: string): Promise<Reverted> {
    try {
      const result = await this.#server.create(`/api/session/${encodeURIComponent(sessionID)}/revert/stage`, { messageID, files: true });
      if (result.status === 404) return { ok: false, gone: true };
      if (result.status !== 200) return { ok: false, gone: false, error: `OpenCode answered ${result.status}: ${describeBody(result.data)}` };
      const data = isRecord(result.data) && isRecord(result.data.data) ? result.data.data : {};
      const files = (Array.isArray(data.files) ? data.files : []).flatMap((entry) => (isRecord(entry) && typeof entry.file === "string" ? [entry.file] : []));
      return { ok: true, files, snapshot: typeof data.snapshot === "string" && data.snapshot !== "" };
    } catch (error) {
      return { ok: false, gone: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * `GET /api/session/:id/diff?from=…&to=…`: `{ data: [{ file, patch, additions, deletions, status }] }`,
   * the files the turns from `from` to `to` changed (measured on 2.0.15, docs/undo.md).
   */
  async runChanges(sessionID: string, from: string, to?: string): Promise<FileChange[]> {
    const query = { from, ...(to ? { to } : {}), "location[directory]": this.#directory };
    const changes = dataList(await this.#server.get(`/api/session/${encodeURIComponent(sessionID)}/diff`, query)).map(narrowFileChange);
    return changes.filter((change): change is FileChange => change !== undefined);
  }

  /** `DELETE /api/session/:id/revert`: 204. */
  unrevertRun(sessionID: string): Promise<Outcome> {
    return this.#server.send("DELETE", "/api/session/{sessionID}/revert", { sessionID });
  }

  async listQuestions(): Promise<QuestionRequest[]> {
    const requests: QuestionRequest[] = [];
    for (const raw of dataList(await this.#server.get("/api/form", { "location[directory]": this.#directory }))) {
      const parsed = questionForm(raw);
      if (!parsed) continue;
      this.#book.forms.set(parsed.form.id, parsed.form);
      requests.push(parsed.request);
    }
    return requests;
  }

  async listPermissions(): Promise<PermissionRequest[]> {
    const requests: PermissionRequest[] = [];
    for (const raw of dataList(await this.#server.get("/api/permission/request", { "location[directory]": this.#directory }))) {
      const parsed = narrowEvent({ type: "permission.asked", data: raw });
      const event = parsed?.events[0];
      if (event?.type !== "permission.asked") continue;
      this.#book.permissions.set(event.request.id, event.request.sessionID);
      requests.push(event.request);
    }
    return requests;
  }

  async session(sessionID: string): Promise<SessionInfo | undefined> {
    const raw = await this.#host.session(sessionID);
    const info = (raw && typeof raw === "object" && "data" in raw ? (raw as { data: unknown }).data : raw) as Record<string, unknown> | undefined;
    if (!info || typeof info !== "object" || info.id !== sessionID) return undefined;
    const result: SessionInfo = { id: sessionID };
    if (typeof info.title === "string") result.title = info.title;
    const location = info.location as { directory?: unknown } | undefined;
    if (typeof location?.directory === "string") result.directory = location.directory;
    if (typeof info.parentID === "string" && info.parentID) result.parentID = info.parentID;
    return result;
  }
}

/** `{ data: [...] }` (2.x routes) or a bare list; anything else is an unreadable answer. */
function dataList(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const data = (body as { data?: unknown } | undefined)?.data;
  if (Array.isArray(data)) return data;
  throw new Error("OpenCode answered something that is not a list");
}
