import { isOpencode2, type OpencodeVersion } from "./binary.ts";

/**
 * What differs between OpenCode 1.x and 2.x for the harness: how `serve` is started and announces
 * itself, and the routes a test drives it with. Measured on 1.18.33, 1.1.53 and 2.0.15.
 * - 2.x: `--log-level` is lower case; "server listening on URL"; every route is under /api and names
 *   its location (`location[directory]`); questions are forms (`metadata.kind: "question"`).
 */
export interface Routes {
  serveArgs(port: number): string[];
  listening: RegExp;
  /** Creates the location's instance (and loads its plugins). */
  warmup(directory: string): string;
  createSession(directory: string, title?: string): { path: string; body: unknown; id(body: any): unknown };
  prompt(sessionID: string, text: string): { path: string; body: unknown };
  /** The pending questions of a location, as a list of `{ id, sessionID }` objects. */
  pendingQuestions(directory: string): { path: string; list(body: any): any[] | undefined };
  /** Answers a pending question (from pendingQuestions) the way the terminal does: `answers[i]` are the labels of question i. */
  answerQuestion(question: any, answers: string[][]): { path: string; body: unknown };
  /** The pending permission requests of a location. */
  pendingPermissions(directory: string): { path: string; list(body: any): any[] | undefined };
  /** Answers a pending permission request (from pendingPermissions) the way the terminal does. */
  answerPermission(request: any, reply: "once" | "always" | "reject"): { path: string; body: unknown };
  /** Ends the location's instance the way OpenCode does on dispose (1.x) or location removal (2.x: runs the plugin's cleanup). */
  dispose(directory: string): { method: string; path: string };
  /** Stops the session's run, as Esc in the terminal does. */
  abort(sessionID: string): { path: string; body?: unknown };
  /** Sessions that are working, by id. */
  busySessions(directory: string): { path: string; busy(body: any, sessionID: string): boolean };
}

const location = (directory: string) => `location%5Bdirectory%5D=${encodeURIComponent(directory)}`;

const v1: Routes = {
  serveArgs: (port) => ["serve", "--port", String(port), "--hostname", "127.0.0.1", "--print-logs", "--log-level", "INFO"],
  listening: /opencode server listening on (http:\/\/[^\s]+)/,
  warmup: () => "/config",
  createSession: (_directory, title) => ({ path: "/session", body: title !== undefined ? { title } : {}, id: (body) => body?.id }),
  prompt: (sessionID, text) => ({ path: `/session/${encodeURIComponent(sessionID)}/prompt_async`, body: { parts: [{ type: "text", text }] } }),
  pendingQuestions: () => ({ path: "/question", list: (body) => (Array.isArray(body) ? body : undefined) }),
  answerQuestion: (question, answers) => ({ path: `/question/${encodeURIComponent(question.id)}/reply`, body: { answers } }),
  pendingPermissions: () => ({ path: "/permission", list: (body) => (Array.isArray(body) ? body : undefined) }),
  answerPermission: (request, reply) => ({ path: `/permission/${encodeURIComponent(request.id)}/reply`, body: { reply } }),
  dispose: () => ({ method: "POST", path: "/instance/dispose" }),
  abort: (sessionID) => ({ path: `/session/${encodeURIComponent(sessionID)}/abort` }),
  busySessions: () => ({ path: "/session/status", busy: (body, sessionID) => body?.[sessionID] !== undefined && body[sessionID]?.type !== "idle" }),
};

const v2: Routes = {
  serveArgs: (port) => ["serve", "--port", String(port), "--hostname", "127.0.0.1", "--print-logs", "--log-level", "info"],
  listening: /server listening on (http:\/\/[^\s]+)/,
  warmup: (directory) => `/api/plugin?${location(directory)}`,
  createSession: (directory, title) => ({
    path: "/api/session",
    body: { location: { directory }, ...(title !== undefined ? { title } : {}) },
    id: (body) => body?.data?.id,
  }),
  prompt: (sessionID, text) => ({ path: `/api/session/${encodeURIComponent(sessionID)}/prompt`, body: { text } }),
  pendingQuestions: (directory) => ({
    path: `/api/form?${location(directory)}`,
    list: (body) => (Array.isArray(body?.data) ? body.data.filter((form: any) => form?.metadata?.kind === "question") : undefined),
  }),
  answerQuestion: (question, answers) => ({
    path: `/api/session/${encodeURIComponent(question.sessionID)}/form/${encodeURIComponent(question.id)}/reply`,
    body: {
      answer: Object.fromEntries(answers.map((labels, index) => [`q${index}`, question.fields?.[index]?.type === "multiselect" ? labels : labels.join(", ")])),
    },
  }),
  pendingPermissions: (directory) => ({
    path: `/api/permission/request?${location(directory)}`,
    list: (body) => (Array.isArray(body?.data) ? body.data : undefined),
  }),
  answerPermission: (request, reply) => ({
    path: `/api/session/${encodeURIComponent(request.sessionID)}/permission/${encodeURIComponent(request.id)}/reply`,
    body: { decision: reply },
  }),
  dispose: (directory) => ({ method: "DELETE", path: `/api/debug/location?${location(directory)}` }),
  abort: (sessionID) => ({ path: `/api/session/${encodeURIComponent(sessionID)}/interrupt`, body: {} }),
  busySessions: () => ({ path: "/api/session/active", busy: (body, sessionID) => JSON.stringify(body ?? null).includes(JSON.stringify(sessionID)) }),
};

export function routesFor(version: OpencodeVersion): Routes {
  return isOpencode2(version) ? v2 : v1;
}
