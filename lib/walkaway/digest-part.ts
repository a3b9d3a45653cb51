// One process' part of /digest, as it crosses the relay (lib/relay/relay.ts gathers it as /status'
// parts): its runs and its decisions since the asked time. Untrusted on arrival: every field is
// checked, and a part that fails is dropped (the others still answer). Pure.
import type { AnswerKind, Decision, DecisionSource, RunOutcome, RunRecord, RunStarter } from "./digest-log.ts";

export interface DigestPart {
  runs: RunRecord[];
  decisions: Decision[];
}

const STARTERS: readonly RunStarter[] = ["phone", "terminal", "schedule"];
const OUTCOMES: readonly RunOutcome[] = ["running", "done", "failed", "stopped", "paused", "stalled"];
const KINDS: readonly Decision["kind"][] = ["question", "permission", "budget"];
const ANSWERS: readonly AnswerKind[] = ["labels", "once", "always", "reject", "dismissed", "gone", "stopped"];
const PLAIN_SOURCES = ["terminal", "opencode-always", "budget-stop", "run-stopped", "timeout", "unanswered"] as const;
/** More than a day of a busy machine's decisions is no part (the log keeps 2,000). */
const MOST = 5_000;

export function parseDigestPart(value: unknown): DigestPart | undefined {
  if (!isRecord(value) || !Array.isArray(value.runs) || !Array.isArray(value.decisions)) return undefined;
  if (value.runs.length > MOST || value.decisions.length > MOST) return undefined;
  const runs = value.runs.map(parseRun);
  const decisions = value.decisions.map(parseDecision);
  if (runs.some((run) => run === undefined) || decisions.some((decision) => decision === undefined)) return undefined;
  return { runs: runs as RunRecord[], decisions: decisions as Decision[] };
}

function parseRun(value: unknown): RunRecord | undefined {
  if (!isRecord(value)) return undefined;
  const { sessionID, directory, title, startedBy, startedAt, endedAt, outcome, cost, filesChanged } = value;
  if (typeof sessionID !== "string" || !isOneOf(startedBy, STARTERS) || !isOneOf(outcome, OUTCOMES)) return undefined;
  if (!isTime(startedAt) || !(endedAt === undefined || isTime(endedAt)) || !isCount(cost) || !isCount(filesChanged)) return undefined;
  if (!optionalString(directory) || !optionalString(title)) return undefined;
  return {
    sessionID,
    startedBy,
    startedAt,
    outcome,
    cost,
    filesChanged,
    ...(typeof directory === "string" ? { directory } : {}),
    ...(typeof title === "string" ? { title } : {}),
    ...(typeof endedAt === "number" ? { endedAt } : {}),
  };
}

function parseDecision(value: unknown): Decision | undefined {
  if (!isRecord(value)) return undefined;
  const { at, sessionID, directory, requestID, kind, asked, answer, answerKind } = value;
  if (!isTime(at) || typeof sessionID !== "string" || typeof requestID !== "string" || !optionalString(directory)) return undefined;
  if (!isOneOf(kind, KINDS) || typeof asked !== "string" || typeof answer !== "string" || !isOneOf(answerKind, ANSWERS)) return undefined;
  const source = parseSource(value.source);
  if (!source) return undefined;
  return { at, sessionID, requestID, kind, asked, answer, answerKind, source, ...(typeof directory === "string" ? { directory } : {}) };
}

function parseSource(value: unknown): DecisionSource | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === "phone") return typeof value.by === "string" ? { kind: "phone", by: value.by } : undefined;
  if (value.kind === "session-rule") return typeof value.rule === "string" ? { kind: "session-rule", rule: value.rule } : undefined;
  return isOneOf(value.kind, PLAIN_SOURCES) ? { kind: value.kind } : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === "string" && (allowed as readonly string[]).includes(value);
}

function isTime(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}
