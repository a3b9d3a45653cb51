// The field checks both event narrowers (OpenCode 1.x in events.ts, OpenCode 2 in lib/opencode2/events.ts)
// make on untrusted event data. Pure.
import type { MessageUsage, ModelRef, TodoItem } from "../hermes-events.ts";
import { isRecord } from "../util/is-record.ts";

/** An OpenCode id (session, message, request): a non-empty string of sane length. */
export function isId(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 200;
}

/** The strings of a list, anything else dropped; not a list: empty. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** A todo list's items (`{ content, status }`); malformed items are dropped. */
export function todoList(value: unknown): TodoItem[] {
  if (!Array.isArray(value)) return [];
  const items: TodoItem[] = [];
  for (const item of value) {
    if (!isRecord(item) || typeof item.content !== "string") continue;
    items.push({ content: item.content, status: typeof item.status === "string" ? item.status : "pending" });
  }
  return items;
}

/** A tool's name: a short string. */
export function isToolName(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= 100;
}

/**
 * An assistant message's (or step's) `tokens: { input, output, reasoning, cache: { read, write } }`
 * and `cost`; undefined when it says nothing at all (no counts, no cost): nothing is then shown.
 */
export function usageOf(tokens: unknown, cost: unknown): MessageUsage | undefined {
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);
  const counts = isRecord(tokens) ? tokens : {};
  const cache = isRecord(counts.cache) ? counts.cache : {};
  const usage: MessageUsage = {
    input: count(counts.input),
    output: count(counts.output),
    reasoning: count(counts.reasoning),
    cacheRead: count(cache.read),
    cacheWrite: count(cache.write),
    cost: count(cost),
  };
  return Object.values(usage).some((value) => value > 0) ? usage : undefined;
}

/** `providerID` and `modelID` of an assistant message, when both are there. */
export function modelOf(info: Record<string, unknown>): ModelRef | undefined {
  return isId(info.providerID) && isId(info.modelID) ? { providerID: info.providerID, modelID: info.modelID } : undefined;
}

/** The tool call a permission request names: 1.x `tool { messageID, callID }`, 2.x `source { type: "tool", messageID, id }`. */
export function toolCallOf(value: unknown): { messageID: string; callID: string } | undefined {
  if (!isRecord(value) || !isId(value.messageID)) return undefined;
  const callID = value.callID ?? value.id;
  return isId(callID) ? { messageID: value.messageID, callID } : undefined;
}
