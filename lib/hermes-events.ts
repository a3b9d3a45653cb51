// The event vocabulary Hermes understands. Everything OpenCode sends is narrowed here, once;
// every other module sees only these typed events.

export interface QuestionOption {
  label: string;
  description: string;
}

export interface QuestionInfo {
  question: string;
  header: string;
  options: QuestionOption[];
  multiple: boolean;
  /** Free text allowed: OpenCode treats a missing `custom` as true. */
  custom: boolean;
}

export interface QuestionRequest {
  id: string;
  sessionID: string;
  questions: QuestionInfo[];
}

/** How a permission request was answered: this time, from now on, or not. */
export const PERMISSION_REPLIES = ["once", "always", "reject"] as const;
export type PermissionReply = (typeof PERMISSION_REPLIES)[number];

export function isPermissionReply(value: unknown): value is PermissionReply {
  return (PERMISSION_REPLIES as readonly unknown[]).includes(value);
}

export interface PermissionRequest {
  id: string;
  sessionID: string;
  permission: string;
  patterns: string[];
  metadata: Record<string, unknown>;
  always: string[];
  /** The tool call that asks (1.x `tool { messageID, callID }`, 2.x `source { messageID, id }`), when OpenCode names it. */
  tool?: { messageID: string; callID: string };
  /** A shell request that names only the simple commands of its line, not the line (1.1.53, 2.0.15: the pipes and redirections are lost). */
  partial?: true;
}

export interface SessionInfo {
  id: string;
  title?: string;
  directory?: string;
  parentID?: string;
}

/**
 * One file a run changed (a user message's `summary.diffs`). OpenCode 1.18 gives the unified diff
 * (`patch`); 1.1.53 gives the whole text before and after instead.
 */
export interface FileChange {
  file: string;
  additions: number;
  deletions: number;
  status?: string;
  patch?: string;
  before?: string;
  after?: string;
}

/** One item of OpenCode's todo list (the `todowrite` tool). Status as OpenCode sends it: pending, in_progress, completed, cancelled. */
export interface TodoItem {
  content: string;
  status: string;
}

/**
 * One tool call of a run, as it changes: `tool` and `input` may come in separate events (OpenCode 2
 * names the tool when the call starts and gives its input when it is called), joined by `callID`.
 */
export interface ToolStep {
  callID: string;
  tool?: string;
  input?: Record<string, unknown>;
  state: "running" | "completed" | "failed";
}

/** What one assistant message (on OpenCode 2: one step) used, as OpenCode counted it. */
export interface MessageUsage {
  input: number;
  output: number;
  reasoning: number;
  cacheRead: number;
  cacheWrite: number;
  /** Dollars, from the model's price in the provider config; 0 when it has none. */
  cost: number;
}

/** A model as a prompt names it. */
export interface ModelRef {
  providerID: string;
  modelID: string;
}

export type HermesEvent =
  | { type: "question.asked"; request: QuestionRequest }
  | { type: "question.replied"; sessionID: string; requestID: string; answers: string[][] }
  | { type: "question.rejected"; sessionID: string; requestID: string }
  | { type: "permission.asked"; request: PermissionRequest }
  | { type: "permission.replied"; sessionID: string; requestID: string; reply: PermissionReply }
  | { type: "session.upserted"; info: SessionInfo }
  | { type: "session.deleted"; sessionID: string }
  /**
   * `status` "retry": OpenCode waits to send the request again, until `next` (ms since the epoch);
   * `limit`: the provider refused it for a usage or rate limit (HTTP 429, 2.0.15's `provider.rate-limit`).
   */
  | { type: "session.status"; sessionID: string; status: string; attempt?: number; message?: string; next?: number; limit?: boolean }
  /** `limit`: the run failed on a usage or rate limit (1.x's APIError with statusCode 429, 2.0.15's `provider.quota` or `provider.rate-limit`). */
  | { type: "session.error"; sessionID: string; name: string; message: string; limit?: boolean }
  /** `changes`: on a user message, what the run it started changed, as OpenCode summarised it. */
  /** `usage` and `model`: on an assistant message, what it used so far and which model answered (when OpenCode says). */
  | { type: "message.role"; sessionID: string; messageID: string; role: string; changes?: FileChange[]; usage?: MessageUsage; model?: ModelRef }
  | { type: "message.text"; sessionID: string; messageID: string; partID: string; text: string }
  /** A piece of an assistant's text part as it is written (1.18 `message.part.delta`, 2.x `session.text.delta`); 1.1.53 sends the whole text instead (`message.text`). */
  | { type: "message.delta"; sessionID: string; messageID: string; partID: string; delta: string }
  | { type: "session.idle"; sessionID: string }
  /** The session's whole todo list, replaced (OpenCode 1.x `todo.updated`; OpenCode 2.0.15 has no todo tool). */
  | { type: "todo.updated"; sessionID: string; todos: TodoItem[] }
  | { type: "tool.step"; sessionID: string; step: ToolStep }
  | { type: "instance.disposed"; directory: string };
