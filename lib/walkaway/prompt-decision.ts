// A prompt as it ended, as the digest records it: what it asked, the answer, and who or what
// decided it (a person on the phone by name, the terminal, a session rule, OpenCode's Always, a
// stopped run, a timeout). Pure: read from the prompt's final state (lib/bridge/prompts/ sets
// `tappedBy` on every tap and typed answer, `answeredByRule` on a session rule's reply). A prompt
// Hermes dismissed or rejected with nobody's tap is one whose run was stopped (Stop, the budget:
// lib/bridge/prompts/prompt-life.ts' closeRun); one nobody answered in time is `expired`.
import type { Decision, DecisionSource } from "./digest-log.ts";

/** What of a prompt (lib/registry/) the digest reads: the registry's prompts are these. */
interface SettledBase {
  requestID: string;
  sessionID: string;
  directory: string;
  state: "pending" | "answered" | "answered_elsewhere" | "dismissed" | "dismissed_elsewhere" | "expired" | "gone";
  tappedBy?: string | undefined;
  answeredByRule?: string | undefined;
}
interface QuestionPrompt extends SettledBase {
  kind: "question";
  questions: { question: string }[];
  sentAnswers?: string[][] | undefined;
  finalAnswers?: string[][] | undefined;
}
type Reply = "once" | "always" | "reject";
interface PermissionPrompt extends SettledBase {
  kind: "permission";
  request: { permission: string; patterns: string[] };
  sent?: { reply: Reply } | undefined;
  final?: { reply: Reply; by: "telegram" | "elsewhere" | "cascade" } | undefined;
}
export type SettledPrompt = QuestionPrompt | PermissionPrompt;
type Prompt = SettledPrompt;

/** The decision a settled prompt records; undefined while it is pending. */
export function decisionOf(prompt: Prompt, now: number): Decision | undefined {
  if (prompt.state === "pending") return undefined;
  const base = { at: now, sessionID: prompt.sessionID, directory: prompt.directory, requestID: prompt.requestID };
  if (prompt.kind === "question") return { ...base, kind: "question", asked: askedOf(prompt), ...questionAnswer(prompt) };
  return { ...base, kind: "permission", asked: askedOf(prompt), ...permissionAnswer(prompt) };
}

/** The question (each of them, when it asked several), or the permission and its patterns. */
export function askedOf(prompt: Prompt): string {
  if (prompt.kind === "question") return prompt.questions.map((question) => question.question).join(" / ");
  const patterns = prompt.request.patterns.join(" ");
  return patterns ? `${prompt.request.permission}: ${patterns}` : prompt.request.permission;
}

function questionAnswer(prompt: QuestionPrompt): Pick<Decision, "answer" | "answerKind" | "source"> {
  const phone = phoneSource(prompt);
  switch (prompt.state) {
    case "answered":
      return { ...labels(prompt.finalAnswers ?? prompt.sentAnswers), source: phone };
    case "answered_elsewhere":
      return { ...labels(prompt.finalAnswers), source: { kind: "terminal" } };
    case "dismissed":
      return { answer: "dismissed", answerKind: "dismissed", source: prompt.tappedBy === undefined ? { kind: "run-stopped" } : phone };
    case "dismissed_elsewhere":
      return { answer: "dismissed", answerKind: "dismissed", source: { kind: "terminal" } };
    case "expired":
      return { answer: "dismissed", answerKind: "dismissed", source: { kind: "timeout" } };
    default:
      return { answer: "gone", answerKind: "gone", source: { kind: "unanswered" } };
  }
}

function permissionAnswer(prompt: PermissionPrompt): Pick<Decision, "answer" | "answerKind" | "source"> {
  const reply = prompt.final?.reply ?? prompt.sent?.reply;
  const replied = reply ? { answer: reply, answerKind: reply } : { answer: "gone", answerKind: "gone" as const };
  switch (prompt.state) {
    case "answered": {
      // A rule's reply that failed leaves the request to the phone: a tap then decided it.
      if (prompt.tappedBy !== undefined) return { ...replied, source: phoneSource(prompt) };
      if (prompt.answeredByRule !== undefined) return { ...replied, source: { kind: "session-rule", rule: prompt.answeredByRule } };
      return { ...replied, source: { kind: "run-stopped" } };
    }
    case "answered_elsewhere":
      return { ...replied, source: prompt.final?.by === "cascade" ? { kind: "opencode-always" } : { kind: "terminal" } };
    case "expired":
      return { answer: "reject", answerKind: "reject", source: { kind: "timeout" } };
    default:
      return { answer: "gone", answerKind: "gone", source: { kind: "unanswered" } };
  }
}

function phoneSource(prompt: Prompt): DecisionSource {
  return { kind: "phone", by: prompt.tappedBy ?? "" };
}

function labels(answers: string[][] | undefined): Pick<Decision, "answer" | "answerKind"> {
  const text = (answers ?? []).map((labelsOf) => labelsOf.join(", ")).join("; ");
  return { answer: text, answerKind: "labels" };
}
