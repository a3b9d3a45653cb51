// Where each of OpenCode's events goes in the bridge, and in which order (a run's pause, stall and
// queue read every event first; the rest by kind). One place, so the observers' order is stated once.
import type { HermesEvent, SessionInfo, ToolStep } from "../hermes-events.ts";
import type { Registry } from "../registry/registry.ts";
import type { SessionTopics } from "./core/topics.ts";
import type { PromptLife } from "./prompts/prompt-life.ts";
import type { ReplyConfirmation } from "./prompts/reply-confirmation.ts";
import type { LiveProgress } from "./runs/live-progress.ts";
import type { RunNotices } from "./runs/run-notices.ts";
import type { QueueControl } from "./runs/runs-routes.ts";
import type { StopControl } from "./runs/stop-control.ts";
import type { Walkaway } from "./walkaway/walkaway-routes.ts";

export interface EventParts {
  registry: Registry;
  now: () => number;
  walkaway: Walkaway;
  queue: QueueControl;
  prompts: PromptLife;
  replies: ReplyConfirmation;
  runs: RunNotices;
  stops: StopControl;
  progress: LiveProgress | undefined;
  topics: SessionTopics;
  toolCalls: { noteTool(step: ToolStep): void };
}

export class EventObservers {
  readonly #parts: EventParts;

  constructor(parts: EventParts) {
    this.#parts = parts;
  }

  observe(directory: string, event: HermesEvent): void {
    const p = this.#parts;
    // A usage-limit pause and a stall are read from every event of a run (lib/bridge/walkaway/); the queue sends on after the run's end is read below.
    p.walkaway.observe(directory, event);
    p.queue.observe(directory, event);
    switch (event.type) {
      case "question.asked":
        p.prompts.track(p.registry.addQuestion(event.request, directory, p.now()));
        return;
      case "permission.asked":
        p.prompts.track(p.registry.addPermission(event.request, directory, p.now()));
        return;
      case "question.replied":
      case "question.rejected":
      case "permission.replied":
        p.prompts.onReplied(event);
        return;
      case "session.upserted":
        this.#sessionUpserted(event.info);
        return;
      case "session.deleted":
        p.replies.forgetSession(event.sessionID);
        p.runs.observe(directory, event);
        p.stops.observe(directory, event);
        p.progress?.observe(directory, event);
        p.registry.sessions.delete(event.sessionID);
        return;
      case "session.status":
      case "session.idle":
        // A run started: its prompts may follow, and neither their lines nor their Markdown may wait for a load.
        if (event.type === "session.status" && event.status === "busy") p.prompts.runStarted();
        p.stops.observe(directory, event);
        // Before the notices: how the run ends is read from the activity they reset.
        p.progress?.observe(directory, event);
        p.runs.observe(directory, event);
        return;
      case "session.error":
        p.progress?.observe(directory, event);
        p.runs.observe(directory, event);
        return;
      case "message.role":
      case "message.text":
      case "message.delta":
        p.runs.observe(directory, event);
        return;
      case "todo.updated":
      case "tool.step":
        // A shell call's command, for the permission it may ask (approvals read its whole line).
        if (event.type === "tool.step") p.toolCalls.noteTool(event.step);
        p.progress?.observe(directory, event);
        return;
      case "instance.disposed":
        p.progress?.observe(directory, event);
        void p.prompts.closeDirectory(event.directory);
        return;
      default:
        routed(event);
        return;
    }
  }

  /** A session's title or parent changed: its open prompts and its forum topic show it. */
  #sessionUpserted(info: SessionInfo): void {
    const p = this.#parts;
    const before = p.registry.sessions.get(info.id);
    p.registry.sessions.upsert(info);
    if (info.title !== before?.title || info.parentID !== before?.parentID) p.prompts.refreshSession(info.id);
    if (info.title && before?.title && info.title !== before.title) p.topics.rename(info.id, info.title);
  }
}

function routed(event: never): void {
  void event;
}
