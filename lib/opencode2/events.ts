// OpenCode 2's events, narrowed into the vocabulary the bridge already speaks (lib/hermes-events.ts).
// A 2.x event is `{ id, created, type, location?, data }`. Questions arrive as forms of kind
// "question" (fields q0…qn); their answers are keyed by field, which forms.ts converts. Input is
// untrusted: anything malformed is dropped, never thrown.
import { isPermissionReply, type HermesEvent, type QuestionInfo, type QuestionOption, type SessionInfo } from "../hermes-events.ts";
import { isRecord } from "../util/is-record.ts";
import { isId, isToolName, stringList, toolCallOf, usageOf } from "../opencode/event-fields.ts";

/** One field of a question form, as OpenCode 2 sends it. */
interface FormField {
  key: string;
  multiple: boolean;
  /** Option labels (what the phone shows) and the values OpenCode expects back. */
  options: Array<{ label: string; value: string }>;
}

export interface QuestionForm {
  id: string;
  sessionID: string;
  fields: FormField[];
}

export interface NarrowedEvent {
  /** Present once per raw event: the id de-duplicates what several subscriptions deliver. */
  id?: string;
  /** The location (project directory) the event names, if any. */
  directory?: string;
  /** The session the event is about, if any (events without a location are placed through it). */
  sessionID?: string;
  events: HermesEvent[];
  /** For `form.created` of a question: what a reply needs later. */
  form?: QuestionForm;
}

type Json = Record<string, unknown>;

/** The interruption reason that means the user pressed Esc (no "Failed" notice for it). */
const BY_USER = "user";

/** Undefined for a malformed envelope or payload; `events` is empty for what the bridge doesn't use. */
export function narrowEvent(raw: unknown): NarrowedEvent | undefined {
  if (!isRecord(raw) || typeof raw.type !== "string" || !isRecord(raw.data)) return undefined;
  const d = raw.data;
  const base: Omit<NarrowedEvent, "events"> = {};
  if (isId(raw.id)) base.id = raw.id;
  const directory = isRecord(raw.location) && isPath(raw.location.directory) ? raw.location.directory : undefined;
  if (directory !== undefined) base.directory = directory;
  if (isId(d.sessionID)) base.sessionID = d.sessionID;
  else if (isRecord(d.form) && isId(d.form.sessionID)) base.sessionID = d.form.sessionID;
  const result = (...events: HermesEvent[]): NarrowedEvent => ({ ...base, events });

  switch (raw.type) {
    case "form.created": {
      const parsed = questionForm(d.form);
      return parsed ? { ...result({ type: "question.asked", request: parsed.request }), form: parsed.form } : undefined;
    }
    case "form.replied": {
      if (!isId(d.id) || !isId(d.sessionID) || !isRecord(d.answer)) return undefined;
      return result({ type: "question.replied", sessionID: d.sessionID, requestID: d.id, answers: answerList(d.answer) });
    }
    case "form.cancelled":
      if (!isId(d.id) || !isId(d.sessionID)) return undefined;
      return result({ type: "question.rejected", sessionID: d.sessionID, requestID: d.id });
    case "permission.asked": {
      const request = permissionRequest(d);
      return request ? result({ type: "permission.asked", request }) : undefined;
    }
    case "permission.replied": {
      const reply = d.reply;
      if (!isId(d.requestID) || !isId(d.sessionID) || !isPermissionReply(reply)) return undefined;
      return result({ type: "permission.replied", sessionID: d.sessionID, requestID: d.requestID, reply });
    }
    case "session.created":
    case "session.updated": {
      if (!isId(d.sessionID)) return undefined;
      const info: SessionInfo = { id: d.sessionID };
      if (typeof d.title === "string") info.title = d.title;
      const where = isRecord(d.location) && isPath(d.location.directory) ? d.location.directory : directory;
      if (where !== undefined) info.directory = where;
      if (isId(d.parentID)) info.parentID = d.parentID;
      return result({ type: "session.upserted", info });
    }
    case "session.renamed":
      if (!isId(d.sessionID) || typeof d.title !== "string") return undefined;
      return result({ type: "session.upserted", info: { id: d.sessionID, title: d.title } });
    case "session.retry.scheduled": {
      if (!isId(d.sessionID)) return undefined;
      const event: HermesEvent = { type: "session.status", sessionID: d.sessionID, status: "retry" };
      if (typeof d.attempt === "number") event.attempt = d.attempt;
      if (isRecord(d.error) && typeof d.error.message === "string") event.message = d.error.message;
      if (typeof d.at === "number" && Number.isFinite(d.at)) event.next = d.at;
      if (isLimitError(d.error)) event.limit = true;
      return result(event);
    }
    case "session.deleted":
      return isId(d.sessionID) ? result({ type: "session.deleted", sessionID: d.sessionID }) : undefined;
    case "session.inbox.delivered":
      // The user's message (its id is the inbox item's) reached the session: Undo reverts to it (docs/undo.md).
      return isId(d.sessionID) && isId(d.inboxID) ? result({ type: "message.role", sessionID: d.sessionID, messageID: d.inboxID, role: "user" }) : undefined;
    case "session.execution.started":
      return isId(d.sessionID) ? result({ type: "session.status", sessionID: d.sessionID, status: "busy" }) : undefined;
    case "session.execution.succeeded":
      return isId(d.sessionID) ? result({ type: "session.idle", sessionID: d.sessionID }) : undefined;
    case "session.execution.failed": {
      if (!isId(d.sessionID)) return undefined;
      const error = isRecord(d.error) ? d.error : {};
      const name = typeof error.type === "string" ? error.type : "UnknownError";
      const message = typeof error.message === "string" ? error.message : "";
      const limit = isLimitError(error);
      return result(
        { type: "session.error", sessionID: d.sessionID, name, message, ...(limit ? { limit } : {}) },
        { type: "session.idle", sessionID: d.sessionID },
      );
    }
    case "session.execution.interrupted": {
      if (!isId(d.sessionID)) return undefined;
      if (d.reason !== BY_USER) return result({ type: "session.idle", sessionID: d.sessionID });
      return result(
        { type: "session.error", sessionID: d.sessionID, name: "MessageAbortedError", message: "" },
        { type: "session.idle", sessionID: d.sessionID },
      );
    }
    case "session.text.ended": {
      if (!isId(d.sessionID) || !isId(d.assistantMessageID) || typeof d.text !== "string") return undefined;
      const ordinal = typeof d.ordinal === "number" ? d.ordinal : 0;
      return result(
        { type: "message.role", sessionID: d.sessionID, messageID: d.assistantMessageID, role: "assistant" },
        { type: "message.text", sessionID: d.sessionID, messageID: d.assistantMessageID, partID: `${d.assistantMessageID}:${ordinal}`, text: d.text },
      );
    }
    case "session.text.delta": {
      // A piece of the answer as it is written (not durable: never replayed).
      if (!isId(d.sessionID) || !isId(d.assistantMessageID) || typeof d.delta !== "string") return undefined;
      const ordinal = typeof d.ordinal === "number" ? d.ordinal : 0;
      return result({
        type: "message.delta",
        sessionID: d.sessionID,
        messageID: d.assistantMessageID,
        partID: `${d.assistantMessageID}:${ordinal}`,
        delta: d.delta,
      });
    }
    case "session.step.ended": {
      // One step of an assistant message: what it used (2.0.15 names no model here).
      if (!isId(d.sessionID) || !isId(d.assistantMessageID)) return undefined;
      const usage = usageOf(d.tokens, d.cost);
      return usage ? result({ type: "message.role", sessionID: d.sessionID, messageID: d.assistantMessageID, role: "assistant", usage }) : result();
    }
    case "session.tool.input.started":
      if (!isId(d.sessionID) || !isId(d.id) || !isToolName(d.name)) return undefined;
      return result({ type: "tool.step", sessionID: d.sessionID, step: { callID: d.id, tool: d.name, state: "running" } });
    case "session.tool.called":
      if (!isId(d.sessionID) || !isId(d.id)) return undefined;
      return result({ type: "tool.step", sessionID: d.sessionID, step: { callID: d.id, state: "running", ...(isRecord(d.input) ? { input: d.input } : {}) } });
    case "session.tool.success":
    case "session.tool.failed":
      if (!isId(d.sessionID) || !isId(d.id)) return undefined;
      return result({ type: "tool.step", sessionID: d.sessionID, step: { callID: d.id, state: raw.type === "session.tool.success" ? "completed" : "failed" } });
    default:
      return result();
  }
}

/** A form the question tool created, as a question request plus what its reply needs. */
export function questionForm(raw: unknown): { request: { id: string; sessionID: string; questions: QuestionInfo[] }; form: QuestionForm } | undefined {
  if (!isRecord(raw) || !isId(raw.id) || !isId(raw.sessionID) || raw.sessionID === "global") return undefined;
  if (!isRecord(raw.metadata) || raw.metadata.kind !== "question" || !Array.isArray(raw.fields) || raw.fields.length === 0) return undefined;
  const questions: QuestionInfo[] = [];
  const fields: FormField[] = [];
  for (const field of raw.fields) {
    if (!isRecord(field) || !isId(field.key) || (field.type !== "string" && field.type !== "multiselect")) return undefined;
    const options: QuestionOption[] = [];
    const values: FormField["options"] = [];
    for (const option of Array.isArray(field.options) ? field.options : []) {
      if (!isRecord(option) || typeof option.label !== "string" || option.label === "") return undefined;
      options.push({ label: option.label, description: typeof option.description === "string" ? option.description : "" });
      values.push({ label: option.label, value: typeof option.value === "string" ? option.value : option.label });
    }
    const multiple = field.type === "multiselect";
    questions.push({
      question: typeof field.description === "string" ? field.description : typeof field.title === "string" ? field.title : "",
      header: typeof field.title === "string" ? field.title : "",
      options,
      multiple,
      custom: field.custom !== false,
    });
    fields.push({ key: field.key, multiple, options: values });
  }
  return { request: { id: raw.id, sessionID: raw.sessionID, questions }, form: { id: raw.id, sessionID: raw.sessionID, fields } };
}

function permissionRequest(d: Json) {
  if (!isId(d.id) || !isId(d.sessionID) || typeof d.action !== "string") return undefined;
  const resources = stringList(d.resources);
  const tool = isRecord(d.source) && d.source.type === "tool" ? toolCallOf(d.source) : undefined;
  return {
    id: d.id,
    sessionID: d.sessionID,
    permission: d.action,
    patterns: resources,
    metadata: permissionMetadata(d.action, resources, isRecord(d.metadata) ? d.metadata : {}),
    always: stringList(d.save),
    ...(tool ? { tool } : {}),
    // 2.0.15 sends a shell line only as its simple commands (a subshell's redirection is lost even from a lone one).
    ...(d.action === "shell" ? { partial: true as const } : {}),
  };
}

/**
 * What the permission message shows, in the keys 1.x uses (`command`, `filepath`, `diff`). 2.0.15
 * sends a shell command only as the request's resource, and an edit's change as
 * `metadata.files[] { file, patch }`.
 */
function permissionMetadata(action: string, resources: string[], metadata: Json): Json {
  const shown: Json = { ...metadata };
  if (action === "shell" && resources.length === 1 && shown.command === undefined) shown.command = resources[0];
  const files = Array.isArray(metadata.files) ? metadata.files.filter(isRecord) : [];
  const names = files.map((file) => file.file).filter((name): name is string => typeof name === "string");
  const patches = files.map((file) => file.patch).filter((patch): patch is string => typeof patch === "string");
  if (names.length > 0 && shown.filepath === undefined) shown.filepath = names.join(", ");
  if (patches.length > 0 && shown.diff === undefined) shown.diff = patches.join("\n");
  return shown;
}

/** `{ q0: "Red", q1: ["S", "M"] }` in field order (q0, q1, …, q10), each as a list. */
function answerList(answer: Json): string[][] {
  return Object.keys(answer)
    .sort((a, b) => fieldIndex(a) - fieldIndex(b) || a.localeCompare(b))
    .map((key) => {
      const value = answer[key];
      if (typeof value === "string") return [value];
      return stringList(value);
    });
}

function fieldIndex(key: string): number {
  const match = /^q(\d+)$/.exec(key);
  return match ? Number(match[1]) : Number.MAX_SAFE_INTEGER;
}

function isPath(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 4_096;
}

/** 2.0.15's limit errors: `provider.rate-limit` (retried), `provider.quota` (the run fails at once), or any HTTP 429. */
function isLimitError(error: unknown): boolean {
  if (!isRecord(error)) return false;
  return error.type === "provider.rate-limit" || error.type === "provider.quota" || error.status === 429;
}
