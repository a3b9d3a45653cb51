// OpenCode 2's own vocabulary for a session (issue 43; measured on 2.0.15, docs/compatibility.md):
// `GET /api/command`, `POST /api/session/:id/command { name, text }` (204), `POST
// /api/session/:id/compact` (a compaction queued in the session's inbox; its message says when it is
// done), `POST /api/session/:id/fork { before }`, `PATCH /api/session/:id { title }`, and the user
// messages of `GET /api/session/:id/message` (newest first) with each turn's files from `/diff`.
import { isRecord } from "../util/is-record.ts";
import { sleep } from "../util/sleep.ts";
import type { CommandInfo, Compacted, Created, HistoryEntry, Outcome, SessionVocabulary } from "../opencode/endpoint.ts";
import { describeBody } from "../opencode/send-outcome.ts";
import { leftByRunOf } from "../opencode/run-left.ts";
import { commandInfos } from "../opencode/vocabulary.ts";
import { knownTemplate } from "./command-definitions.ts";
import { readConfigSources } from "./command-files.ts";
import type { OwnServerClient } from "./server-client.ts";

/** How long the phone waits for a compaction's summary, and how often it looks. */
const COMPACT_TIMEOUT_MS = 10 * 60_000;
const COMPACT_POLL_MS = 500;
/** Messages read for the history and the context's fill (the newest first). */
const MESSAGES_READ = "200";

export class Opencode2Vocabulary implements SessionVocabulary {
  readonly #directory: string;
  readonly #server: OwnServerClient;

  constructor(directory: string, server: OwnServerClient) {
    this.#directory = directory;
    this.#server = server;
  }

  /**
   * `{ location, data: [{ name, description }] }`. A location's first answer, while it activates, is
   * empty: asked again once. 2.0.15 says no template: each is read where it reads them (`GET
   * /api/config`'s entries, lib/opencode2/command-files.ts), or marked as one Hermes cannot be sure of.
   */
  async listCommands(): Promise<CommandInfo[]> {
    const read = async () => commandInfos(dataOf(await this.#server.get("/api/command", this.#where())));
    const first = await read();
    const commands = first.length > 0 ? first : await read();
    const sources = await readConfigSources(await this.#server.get("/api/config", this.#where()).catch(() => undefined));
    return commands.map((command) => {
      const known = knownTemplate(command.name, command.description, sources);
      return {
        ...command,
        ...(known.template !== undefined ? { template: known.template } : {}),
        ...(known.others.length > 0 ? { others: known.others } : {}),
        ...(known.unsure ? { unsure: known.unsure } : {}),
      };
    });
  }

  runCommand(sessionID: string, name: string, args: string): Promise<Outcome> {
    return this.#server.send("POST", "/api/session/{sessionID}/command", { sessionID }, { name, text: args });
  }

  /** Queues the compaction, then waits for its message (`type: "compaction"`, the same id) to be done or failed. */
  async compact(sessionID: string): Promise<Compacted> {
    const before = lastAnswer(await this.#messages(sessionID));
    const result = await this.#server.create(`/api/session/${encodeURIComponent(sessionID)}/compact`, {});
    if (result.status === 404) return { ok: false, gone: true };
    const id = isRecord(result.data) && isRecord(result.data.data) ? result.data.data.id : undefined;
    if (result.status !== 200 || typeof id !== "string")
      return { ok: false, gone: false, error: `OpenCode answered ${result.status}: ${describeBody(result.data)}` };
    const deadline = Date.now() + COMPACT_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const compaction = (await this.#messages(sessionID)).find((message) => isRecord(message) && message.id === id && message.type === "compaction");
      const status = isRecord(compaction) ? compaction.status : undefined;
      if (status === "failed") {
        const error =
          isRecord(compaction) && isRecord(compaction.error) && typeof compaction.error.message === "string" ? compaction.error.message : "compaction failed";
        return { ok: false, gone: false, error };
      }
      if (isRecord(compaction) && typeof status === "string" && status !== "running" && status !== "pending") {
        const after = isRecord(compaction.tokens) && typeof compaction.tokens.output === "number" ? compaction.tokens.output : undefined;
        return { ok: true, ...(before ? { before: before.tokens, model: before.model } : {}), ...(after !== undefined ? { after } : {}) };
      }
      await sleep(COMPACT_POLL_MS);
    }
    return { ok: false, gone: false, error: "the compaction did not finish in time" };
  }

  /** `{ data: Session }`; `before`: the first message left out. Tried once. */
  async fork(sessionID: string, before?: string): Promise<Created> {
    try {
      const result = await this.#server.create(`/api/session/${encodeURIComponent(sessionID)}/fork`, before ? { before } : {});
      const id = isRecord(result.data) && isRecord(result.data.data) ? result.data.data.id : undefined;
      if (result.status === 200 && typeof id === "string" && id !== "") return { ok: true, sessionID: id };
      return { ok: false, error: `OpenCode answered ${result.status}: ${describeBody(result.data)}` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  rename(sessionID: string, title: string): Promise<Outcome> {
    return this.#server.send("PATCH", "/api/session/{sessionID}", { sessionID }, { title });
  }

  /** User messages (`{ type: "user", id, text }`), newest first; each turn's files from `GET /api/session/:id/diff?from=…&to=…`. */
  async history(sessionID: string): Promise<HistoryEntry[]> {
    const users = (await this.#messages(sessionID)).flatMap((message) =>
      isRecord(message) && message.type === "user" && typeof message.id === "string" && typeof message.text === "string" && message.text.trim()
        ? [{ messageID: message.id, text: message.text.trim() }]
        : [],
    );
    return Promise.all(users.map(async (user) => ({ ...user, ...(await this.#files(sessionID, user.messageID)) })));
  }

  /** A turn's files, and what it left in them (each patch has the whole file as context: its new side). */
  async #files(sessionID: string, messageID: string): Promise<{ files: string[]; left: Record<string, string | null> }> {
    const query = { from: messageID, to: messageID, ...this.#where() };
    const changes = dataOf(await this.#server.get(`/api/session/${encodeURIComponent(sessionID)}/diff`, query).catch(() => undefined));
    return { files: changes.flatMap((change) => (isRecord(change) && typeof change.file === "string" ? [change.file] : [])), left: leftByRunOf(changes) };
  }

  async #messages(sessionID: string): Promise<unknown[]> {
    return dataOf(await this.#server.get(`/api/session/${encodeURIComponent(sessionID)}/message`, { limit: MESSAGES_READ, ...this.#where() }));
  }

  #where(): Record<string, string> {
    return { "location[directory]": this.#directory };
  }
}

function dataOf(body: unknown): unknown[] {
  const data = isRecord(body) ? body.data : undefined;
  return Array.isArray(data) ? data : [];
}

/** The newest assistant message's tokens and model (`model: { id, providerID }`). */
function lastAnswer(messages: readonly unknown[]): { tokens: number; model: { providerID: string; modelID: string } } | undefined {
  for (const message of messages) {
    if (!isRecord(message) || message.type !== "assistant" || !isRecord(message.tokens) || !isRecord(message.model)) continue;
    const { tokens, model } = message;
    if (typeof model.id !== "string" || typeof model.providerID !== "string") continue;
    const cache = isRecord(tokens.cache) ? tokens.cache : {};
    const count = [tokens.input, tokens.output, tokens.reasoning, cache.read, cache.write].reduce<number>((sum, n) => sum + (typeof n === "number" ? n : 0), 0);
    return { tokens: count, model: { providerID: model.providerID, modelID: model.id } };
  }
  return undefined;
}
