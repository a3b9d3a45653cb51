// Turns any raw event shape into a typed HermesEvent, or undefined for what Hermes doesn't use.
// Shapes: the plugin hook's `{id?, type, properties}`, an SSE `data:` line of `/event` (the same),
// and `/global/event`'s `{directory, project, payload}` envelope (whose `sync` duplicates are dropped).
// Input is untrusted: anything malformed is dropped, never thrown.
import {
  isPermissionReply,
  type FileChange,
  type HermesEvent,
  type QuestionInfo,
  type QuestionOption,
  type SessionInfo,
  type ToolStep,
} from "../hermes-events.ts";
import { isRecord } from "../util/is-record.ts";
import { isLimitWords } from "../walkaway/reset-time.ts";
import { isId, isToolName, modelOf, stringList, todoList, toolCallOf, usageOf } from "./event-fields.ts";

export interface ParsedEvent {
  /** Directory named by a `/global/event` envelope; the hook and `/event` leave it to the caller. */
  directory?: string;
  event: HermesEvent;
}

type Json = Record<string, unknown>;

export function parseEvent(raw: unknown): ParsedEvent | undefined {
  if (!isRecord(raw)) return undefined;
  if (isRecord(raw.payload)) {
    const event = narrow(raw.payload);
    if (!event) return undefined;
    const directory = typeof raw.directory === "string" && raw.directory !== "global" ? raw.directory : undefined;
    return directory === undefined ? { event } : { directory, event };
  }
  const event = narrow(raw);
  return event ? { event } : undefined;
}

function narrow(raw: Json): HermesEvent | undefined {
  const type = raw.type;
  const p = raw.properties;
  if (typeof type !== "string" || !isRecord(p)) return undefined;
  switch (type) {
    case "question.asked": {
      const questions = Array.isArray(p.questions) ? p.questions.map(narrowQuestion) : [];
      if (!isId(p.id) || !isId(p.sessionID) || questions.length === 0 || questions.some((q) => !q)) return undefined;
      return { type, request: { id: p.id, sessionID: p.sessionID, questions: questions as QuestionInfo[] } };
    }
    case "question.replied": {
      if (!isId(p.requestID) || !isId(p.sessionID) || !isAnswerList(p.answers)) return undefined;
      return { type, sessionID: p.sessionID, requestID: p.requestID, answers: p.answers };
    }
    case "question.rejected":
      if (!isId(p.requestID) || !isId(p.sessionID)) return undefined;
      return { type, sessionID: p.sessionID, requestID: p.requestID };
    case "permission.asked": {
      if (!isId(p.id) || !isId(p.sessionID) || typeof p.permission !== "string") return undefined;
      return {
        type,
        request: {
          id: p.id,
          sessionID: p.sessionID,
          permission: p.permission,
          patterns: stringList(p.patterns),
          metadata: isRecord(p.metadata) ? p.metadata : {},
          always: stringList(p.always),
          ...withTool(p.tool),
          // 1.1.53 sends no metadata: the patterns are the line's simple commands.
          ...(p.permission === "bash" && !(isRecord(p.metadata) && typeof p.metadata.command === "string") ? { partial: true as const } : {}),
        },
      };
    }
    case "permission.replied": {
      const reply = p.reply;
      if (!isId(p.requestID) || !isId(p.sessionID) || !isPermissionReply(reply)) return undefined;
      return { type, sessionID: p.sessionID, requestID: p.requestID, reply };
    }
    case "session.created":
    case "session.updated": {
      const info = narrowSession(p.info);
      return info ? { type: "session.upserted", info } : undefined;
    }
    case "session.deleted": {
      const info = narrowSession(p.info);
      const sessionID = info?.id ?? (isId(p.sessionID) ? p.sessionID : undefined);
      return sessionID ? { type, sessionID } : undefined;
    }
    case "session.status": {
      const status = isRecord(p.status) && typeof p.status.type === "string" ? p.status.type : undefined;
      if (!isId(p.sessionID) || !status) return undefined;
      const event: HermesEvent = { type, sessionID: p.sessionID, status };
      if (isRecord(p.status) && typeof p.status.attempt === "number") event.attempt = p.status.attempt;
      if (isRecord(p.status) && typeof p.status.message === "string") event.message = p.status.message;
      if (isRecord(p.status) && typeof p.status.next === "number" && Number.isFinite(p.status.next)) event.next = p.status.next;
      // 1.x's retry status carries no status code: a limit is told by the provider's words.
      if (status === "retry" && event.message !== undefined && isLimitWords(event.message)) event.limit = true;
      return event;
    }
    case "session.error": {
      if (!isId(p.sessionID)) return undefined; // errors outside a session are not the agent's run failing
      const error = isRecord(p.error) ? p.error : {};
      const data = isRecord(error.data) ? error.data : {};
      const name = typeof error.name === "string" ? error.name : "UnknownError";
      const message = typeof data.message === "string" ? data.message : typeof error.message === "string" ? error.message : "";
      const limit = data.statusCode === 429;
      return { type, sessionID: p.sessionID, name, message, ...(limit ? { limit } : {}) };
    }
    case "message.updated": {
      const info = isRecord(p.info) ? p.info : undefined;
      if (!info || !isId(info.id) || !isId(info.sessionID) || typeof info.role !== "string") return undefined;
      const event: HermesEvent = { type: "message.role", sessionID: info.sessionID, messageID: info.id, role: info.role };
      const diffs = info.role === "user" && isRecord(info.summary) && Array.isArray(info.summary.diffs) ? info.summary.diffs : undefined;
      if (diffs) event.changes = diffs.map(narrowFileChange).filter((change): change is FileChange => change !== undefined);
      if (info.role === "assistant") {
        const usage = usageOf(info.tokens, info.cost);
        const model = modelOf(info);
        if (usage) event.usage = usage;
        if (model) event.model = model;
      }
      return event;
    }
    case "message.part.updated": {
      const part = isRecord(p.part) ? p.part : undefined;
      if (part?.type === "tool") return narrowToolPart(part);
      if (part?.type !== "text" || typeof part.text !== "string" || !isId(part.messageID) || !isId(part.sessionID) || !isId(part.id)) return undefined;
      if (part.synthetic === true) return undefined;
      return { type: "message.text", sessionID: part.sessionID, messageID: part.messageID, partID: part.id, text: part.text };
    }
    case "message.part.delta":
      // 1.18: a text part as it is written (1.1.53 sends message.part.updated with the whole text so far instead).
      if (p.field !== "text" || typeof p.delta !== "string" || !isId(p.sessionID) || !isId(p.messageID) || !isId(p.partID)) return undefined;
      return { type: "message.delta", sessionID: p.sessionID, messageID: p.messageID, partID: p.partID, delta: p.delta };
    case "todo.updated":
      return isId(p.sessionID) && Array.isArray(p.todos) ? { type, sessionID: p.sessionID, todos: todoList(p.todos) } : undefined;
    case "session.idle":
      return isId(p.sessionID) ? { type, sessionID: p.sessionID } : undefined;
    case "server.instance.disposed":
      return typeof p.directory === "string" && p.directory ? { type: "instance.disposed", directory: p.directory } : undefined;
    default:
      return undefined;
  }
}

/** A tool part (`pending`, `running`, `completed`, `error`): one step of the run. */
function withTool(value: unknown): { tool?: { messageID: string; callID: string } } {
  const tool = toolCallOf(value);
  return tool ? { tool } : {};
}

function narrowToolPart(part: Json): HermesEvent | undefined {
  const state = isRecord(part.state) ? part.state : undefined;
  if (!isId(part.sessionID) || !isId(part.callID) || !isToolName(part.tool) || typeof state?.status !== "string") return undefined;
  const status = state.status === "completed" ? "completed" : state.status === "error" ? "failed" : "running";
  const step: ToolStep = { callID: part.callID, tool: part.tool, state: status };
  if (isRecord(state.input) && Object.keys(state.input).length > 0) step.input = state.input;
  return { type: "tool.step", sessionID: part.sessionID, step };
}

function narrowQuestion(raw: unknown): QuestionInfo | undefined {
  if (!isRecord(raw) || typeof raw.question !== "string") return undefined;
  const options: QuestionOption[] = [];
  for (const option of Array.isArray(raw.options) ? raw.options : []) {
    if (!isRecord(option) || typeof option.label !== "string" || option.label === "") return undefined;
    options.push({ label: option.label, description: typeof option.description === "string" ? option.description : "" });
  }
  return {
    question: raw.question,
    header: typeof raw.header === "string" ? raw.header : "",
    options,
    multiple: raw.multiple === true,
    custom: raw.custom !== false,
  };
}

function narrowSession(raw: unknown): SessionInfo | undefined {
  if (!isRecord(raw) || !isId(raw.id)) return undefined;
  const info: SessionInfo = { id: raw.id };
  if (typeof raw.title === "string") info.title = raw.title;
  if (typeof raw.directory === "string") info.directory = raw.directory;
  if (isId(raw.parentID)) info.parentID = raw.parentID;
  return info;
}

export function narrowFileChange(raw: unknown): FileChange | undefined {
  if (!isRecord(raw) || typeof raw.file !== "string" || raw.file === "") return undefined;
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);
  const change: FileChange = { file: raw.file, additions: count(raw.additions), deletions: count(raw.deletions) };
  for (const key of ["status", "patch", "before", "after"] as const) if (typeof raw[key] === "string") change[key] = raw[key];
  return change;
}

function isAnswerList(value: unknown): value is string[][] {
  return Array.isArray(value) && value.every((answer) => Array.isArray(answer) && answer.every((item) => typeof item === "string"));
}
