// A process' part of /model or /agent, as it arrives from another process over the relay: what its
// OpenCode instances report (each item a key and a label) and what it uses now. Untrusted until
// checked: at most MAX_ITEMS items, keys as shortKey makes them, labels of at most MAX_LABEL
// characters; anything else drops the whole part. Pure.
import { isRecord } from "../../util/is-record.ts";
import { isShortKey } from "../core/short-key.ts";

const MAX_ITEMS = 500;
const MAX_LABEL = 300;

export interface ChoiceItem {
  key: string;
  label: string;
}

export interface ChoicePart {
  items: ChoiceItem[];
  /** The key in use, if the phone chose one. */
  current?: string;
}

export function parseChoicePart(value: unknown): ChoicePart | undefined {
  if (!isRecord(value) || !Array.isArray(value.items) || value.items.length > MAX_ITEMS) return undefined;
  const items: ChoiceItem[] = [];
  for (const item of value.items) {
    if (!isRecord(item) || !isShortKey(item.key)) return undefined;
    if (typeof item.label !== "string" || item.label === "" || item.label.length > MAX_LABEL) return undefined;
    items.push({ key: item.key, label: item.label });
  }
  if (value.current !== undefined && !isShortKey(value.current)) return undefined;
  return { items, ...(value.current !== undefined ? { current: value.current as string } : {}) };
}

/** Every part's items, each key once, sorted by label; and the choice in use (the first part that names one). */
export function mergeChoiceParts(parts: readonly ChoicePart[]): ChoicePart {
  const byKey = new Map<string, ChoiceItem>();
  for (const part of parts) for (const item of part.items) if (!byKey.has(item.key)) byKey.set(item.key, item);
  const items = [...byKey.values()].sort((a, b) => a.label.localeCompare(b.label));
  const current = parts.find((part) => part.current !== undefined)?.current;
  return { items, ...(current !== undefined ? { current } : {}) };
}
