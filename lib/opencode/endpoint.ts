// What the bridge asks of one OpenCode location: answer, dismiss, list what is pending, look up a
// session, and pass on the user's text. OpenCode 1.x implements it with its routes (api.ts);
// OpenCode 2 with its plugin context and form routes (lib/opencode2/endpoint.ts).
import type { FileChange, PermissionReply, PermissionRequest, QuestionRequest, SessionInfo } from "../hermes-events.ts";

/** `gone`: OpenCode no longer has it (404): answered elsewhere, dismissed, or dropped. */
export type Outcome = { ok: true } | { ok: false; gone: true } | { ok: false; gone: false; error: string };

/** A part of a prompt: text, or a file given inline as a `data:` URL. */
export type PromptPart = { type: "text"; text: string } | { type: "file"; mime: string; filename: string; url: string };

/** A model OpenCode reports as configured (its providers API). */
export interface ModelInfo {
  providerID: string;
  modelID: string;
  name?: string;
  /** The model's context window in tokens (`limit.context`), when the provider list says. */
  contextLimit?: number;
}

/** A primary agent OpenCode reports (build, plan…): `id` is what a prompt names. */
export interface AgentInfo {
  id: string;
  name?: string;
}

/** What the phone chose for its prompts (/model, /agent); undefined fields: OpenCode's own default. */
export interface PromptChoice {
  model?: { providerID: string; modelID: string };
  agent?: string;
}

/** A session as OpenCode lists it (`updated`: epoch ms). */
export interface SessionSummary {
  id: string;
  title?: string;
  updated: number;
  parentID?: string;
}

/**
 * What OpenCode's revert of a run did (docs/undo.md): `files`, the files it restored (relative
 * paths, as OpenCode names them); `snapshot` false: OpenCode had no snapshot (not a git project)
 * and changed no file, though it marked the session reverted.
 */
export type Reverted = { ok: true; files: string[]; snapshot: boolean } | Exclude<Outcome, { ok: true }>;

/** A session OpenCode created: its id, or why it could not. */
export type Created = { ok: true; sessionID: string } | { ok: false; error: string };

/** A command OpenCode offers a project (`.opencode/command/*.md`, `command` in opencode.json, built-in ones). */
export interface CommandInfo {
  name: string;
  description?: string;
  /** Where it comes from, when OpenCode says (1.x: "command", "mcp", "skill"). */
  source?: string;
  /** What it sends, `` !`…` `` shell lines and all (1.x's `GET /command`; on 2.0.15 read from its files, lib/opencode2/command-files.ts). */
  template?: string;
  /** Other definitions of the name whose shell lines are shown too (2.0.15, when Hermes cannot be sure which one runs). */
  others?: string[];
  /** Why Hermes cannot be sure what it runs (2.0.15): then a typed one asks first. */
  unsure?: "unknown" | "ambiguous";
}

/** A prompt of a session (its user message), with the files its run changed, as OpenCode recorded them. */
export interface HistoryEntry {
  messageID: string;
  text: string;
  files: string[];
  /** What the run left in each of its files (run-left.ts): a fingerprint, `null` when it deleted it; a file missing here, OpenCode did not say. */
  left?: Record<string, string | null>;
}

/** What a compaction did to the session's context, in tokens: before, the last answer's; after, the summary's. */
export type Compacted = { ok: true; before?: number; after?: number; model?: { providerID: string; modelID: string } } | Exclude<Outcome, { ok: true }>;

/**
 * OpenCode's own vocabulary for a session (issue 43): its commands, compaction, forks and going back
 * to any message. Every method is optional: a version without a route has none (docs/compatibility.md).
 */
export interface SessionVocabulary {
  listCommands?(): Promise<CommandInfo[]>;
  /** Runs the command in the session as typing `/name args` in the terminal does; resolves once OpenCode took it. */
  runCommand?(sessionID: string, name: string, args: string): Promise<Outcome>;
  /** Compacts the session with its model; resolves once the summary is written. */
  compact?(sessionID: string): Promise<Compacted>;
  /** A new session with the messages before `before` (all of them without it). */
  fork?(sessionID: string, before?: string): Promise<Created>;
  rename?(sessionID: string, title: string): Promise<Outcome>;
  /** The session's prompts, newest first. */
  history?(sessionID: string): Promise<HistoryEntry[]>;
}

/** An MCP server of the project as OpenCode reports it: `connected`, `failed` (with its error), `disabled`, `needs_auth`, … */
export interface McpServerState {
  name: string;
  status: string;
  error?: string;
}

/**
 * A command run through OpenCode's shell route (issue 53): `command`, exactly what was sent (what
 * the session's history shows); `exit`, when known; `output`, the whole output (stdout and stderr).
 */
export type ShellRun =
  | { ok: true; command: string; output: string; exit?: number }
  | { ok: false; busy: true }
  | { ok: false; busy: false; gone: true }
  | { ok: false; busy: false; gone: false; error: string };

/** The desk's controls a version has (issue 53): every method optional, as the routes are (docs/compatibility.md). */
export interface DeskControls {
  /** The project's MCP servers, by name; throws when it cannot read them. */
  listMcp?(): Promise<McpServerState[]>;
  /** Connects (`true`) or disconnects an MCP server through OpenCode's own route; nothing is written to opencode.json. */
  setMcp?(name: string, connected: boolean): Promise<Outcome>;
  /** Runs the command in the session's directory through OpenCode's shell route; resolves when it ends. */
  shell?(sessionID: string, command: string, options?: { agent?: string; signal?: AbortSignal }): Promise<ShellRun>;
  /** Stops the session's running shell command (1.x: the session's abort kills it; 2.0.15: `DELETE /api/shell/:id`). */
  stopShell?(sessionID: string): Promise<Outcome>;
}

export interface OpencodeEndpoint {
  /** Issue 43's routes, where this version has them. */
  readonly vocabulary?: SessionVocabulary;
  /** Issue 53's routes (a shell, MCP servers), where this version has them. */
  readonly desk?: DeskControls;
  /**
   * Whether a reject's message reaches the agent (1.x: as the tool's error). OpenCode 2.0.15 drops
   * it, so the bridge sends the feedback as the session's next message instead.
   */
  readonly rejectKeepsMessage: boolean;
  replyQuestion(requestID: string, answers: string[][]): Promise<Outcome>;
  rejectQuestion(requestID: string): Promise<Outcome>;
  replyPermission(requestID: string, decision: { reply: PermissionReply; message?: string }): Promise<Outcome>;
  /** Sends a new message made of these parts (the user's text, files from the phone) to a session (queued when it is busy). */
  prompt(sessionID: string, parts: PromptPart[], choice?: PromptChoice): Promise<Outcome>;
  /** The location's sessions (sub-agents' too); throws when it cannot read them. */
  listSessions(): Promise<SessionSummary[]>;
  /** The text of the session's last answer (its newest assistant message with text), if any. */
  lastAnswer(sessionID: string): Promise<string | undefined>;
  /** The models OpenCode has configured; throws when it cannot read them. */
  listModels(): Promise<ModelInfo[]>;
  /** The primary agents (not sub-agents, not hidden ones); throws when it cannot read them. */
  listAgents(): Promise<AgentInfo[]>;
  /** A new, empty session in this location (its first prompt is sent with `prompt`); `title` names it (OpenCode then makes up none). */
  createSession(title?: string): Promise<Created>;
  /** Stops the session's run, as Esc in the terminal does. */
  abortSession(sessionID: string): Promise<Outcome>;
  /** Reverts the session to before `messageID` (a run's first user message), files included: the TUI's /undo. Tried once. */
  revertRun(sessionID: string, messageID: string): Promise<Reverted>;
  /**
   * What a run changed, from its first user message (`from`) to its last (`to`), asked of OpenCode:
   * only OpenCode 2, whose events do not carry it (1.x's user messages do: `summary.diffs`).
   */
  runChanges?(sessionID: string, from: string, to?: string): Promise<FileChange[]>;
  /** Puts back what the last revert undid (the TUI's /redo); a no-op once the session had its next prompt. */
  unrevertRun(sessionID: string): Promise<Outcome>;
  /** Throws when it cannot read the list: "could not read" must never look like "nothing pending". */
  listQuestions(): Promise<QuestionRequest[]>;
  listPermissions(): Promise<PermissionRequest[]>;
  session(sessionID: string): Promise<SessionInfo | undefined>;
  /**
   * The same OpenCode server, speaking for another directory (a git worktree beside the project:
   * 1.x names it on every request, 2.x as the location); OpenCode starts that instance on first use.
   */
  at?(directory: string): OpencodeEndpoint;
}
