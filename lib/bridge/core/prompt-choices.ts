// What the phone chose for its prompts (/model, /agent): its one writer is lib/bridge/steering/choice-commands.ts. Every
// prompt Hermes sends a session comes from the phone (a reply, /new, a file, a voice note), so the
// choice is applied where every prompt passes: the endpoint InstanceLinks hands out (`steered`).
import type { AgentInfo, ModelInfo, OpencodeEndpoint, PromptChoice } from "../../opencode/endpoint.ts";
import type { ChoiceKind } from "../../telegram/render/render-choice.ts";
import { shortKey } from "./short-key.ts";

/** Something OpenCode reported, as a picker shows it and a prompt names it. */
export type Choosable = { kind: "model"; key: string; label: string; model: ModelInfo } | { kind: "agent"; key: string; label: string; agent: AgentInfo };

export function modelChoice(model: ModelInfo): Choosable {
  const label = `${model.providerID}/${model.modelID}`;
  return { kind: "model", key: shortKey(label), label, model };
}

export function agentChoice(agent: AgentInfo): Choosable {
  return { kind: "agent", key: shortKey(agent.id), label: agent.id, agent };
}

/** Whether what the user typed after /model or /agent names this label: all of it, or a model's id after the provider (case-insensitive). */
export function namesLabel(label: string, typed: string): boolean {
  const name = typed.trim().toLowerCase();
  const own = label.toLowerCase();
  return name !== "" && (own === name || own.endsWith(`/${name}`));
}

export class PromptChoices {
  readonly #chosen = new Map<ChoiceKind, Choosable>();

  /** `undefined`: back to OpenCode's own default. */
  set(kind: ChoiceKind, choosable: Choosable | undefined): void {
    if (choosable) this.#chosen.set(kind, choosable);
    else this.#chosen.delete(kind);
  }

  current(kind: ChoiceKind): Choosable | undefined {
    return this.#chosen.get(kind);
  }

  /** What a prompt sends with its parts. */
  choice(): PromptChoice {
    const model = this.#chosen.get("model");
    const agent = this.#chosen.get("agent");
    return {
      ...(model?.kind === "model" ? { model: { providerID: model.model.providerID, modelID: model.model.modelID } } : {}),
      ...(agent?.kind === "agent" ? { agent: agent.agent.id } : {}),
    };
  }
}

/** The endpoint with the phone's choice added to every prompt. */
export function steered(endpoint: OpencodeEndpoint, choice: () => PromptChoice, prompted?: (sessionID: string) => void): OpencodeEndpoint {
  return {
    rejectKeepsMessage: endpoint.rejectKeepsMessage,
    replyQuestion: (requestID, answers) => endpoint.replyQuestion(requestID, answers),
    rejectQuestion: (requestID) => endpoint.rejectQuestion(requestID),
    replyPermission: (requestID, decision) => endpoint.replyPermission(requestID, decision),
    prompt: (sessionID, parts) => {
      prompted?.(sessionID);
      return endpoint.prompt(sessionID, parts, choice());
    },
    listModels: () => endpoint.listModels(),
    listSessions: () => endpoint.listSessions(),
    lastAnswer: (sessionID) => endpoint.lastAnswer(sessionID),
    listAgents: () => endpoint.listAgents(),
    createSession: (title) => endpoint.createSession(title),
    abortSession: (sessionID) => endpoint.abortSession(sessionID),
    revertRun: (sessionID, messageID) => endpoint.revertRun(sessionID, messageID),
    unrevertRun: (sessionID) => endpoint.unrevertRun(sessionID),
    ...(endpoint.runChanges ? { runChanges: endpoint.runChanges.bind(endpoint) } : {}),
    // A command, a compaction or a shell command from the phone starts a run as a prompt does: the digest counts it the phone's.
    ...(endpoint.vocabulary ? { vocabulary: noting(endpoint.vocabulary, ["runCommand", "compact"], prompted) } : {}),
    ...(endpoint.desk ? { desk: noting(endpoint.desk, ["shell"], prompted) } : {}),
    listQuestions: () => endpoint.listQuestions(),
    listPermissions: () => endpoint.listPermissions(),
    session: (sessionID) => endpoint.session(sessionID),
    ...(endpoint.at ? { at: (directory: string) => steered(endpoint.at!(directory), choice, prompted) } : {}),
  };
}

/** `target` whose `methods` (each taking the session first) tell `prompted` before they run. */
function noting<T extends object>(target: T, methods: readonly string[], prompted: ((sessionID: string) => void) | undefined): T {
  if (!prompted) return target;
  return new Proxy(target, {
    // Read and called on the target itself: a class's private fields are not the proxy's.
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== "function") return value;
      if (!methods.includes(String(key))) return value.bind(object);
      return (sessionID: string, ...rest: unknown[]) => {
        prompted(sessionID);
        return value.call(object, sessionID, ...rest);
      };
    },
  });
}
