// A run's own taps on the gate: Stop and its red confirmation (stop-control.ts), ⏪ Undo, its
// confirmation and ↪ Redo (undo-control.ts). Every tap is answered; the work runs after the answer.
// The queue's (queue-control.ts): `/queue` typed as a reply, sent in a topic or alone, and Remove,
// Send now and its confirmation (`/queue` is Hermes' own: the vocabulary's routes leave it).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { decodeCallback } from "../../telegram/codec.ts";
import { errorText } from "../../util/error-text.ts";
import type { Chat } from "../core/chat.ts";
import type { Tap } from "../core/desk.ts";
import type { ActingTap, Gate, IntentOf } from "../core/gate.ts";
import type { QueueControl } from "./queue-control.ts";
import type { StopControl } from "./stop-control.ts";
import type { UndoControl } from "./undo-control.ts";

/** The queue is made by the bridge and routed here. */
export { QueueControl } from "./queue-control.ts";

export interface RunRouteDeps {
  stops: Pick<StopControl, "owns" | "tap">;
  undos: Pick<UndoControl, "owns" | "tap">;
  queue: Pick<QueueControl, "claimTap" | "unclaimedTap" | "claimText" | "claimCommand" | "unclaimed" | "owns">;
  chat: Pick<Chat, "answerCallback">;
  log: Logger;
  t: Strings;
}

/** Adds the route; what tells the gate whether a tap (anyone's) is on this process' Stop or Undo. */
export function routeRuns(gate: Pick<Gate, "route">, deps: RunRouteDeps): (tap: IntentOf<"callback">) => boolean {
  const { stops, undos } = deps;
  const claim = (intent: ActingTap): Claim | undefined => {
    const data = decodeCallback(intent.data);
    if (data && stops.owns(data)) return () => run(deps, intent, stops.tap(data, tapped(intent)), "stopping a run failed");
    if (data && undos.owns(data)) return () => run(deps, intent, undos.tap(data, tapped(intent)), "undoing a run failed");
    return undefined;
  };
  gate.route("callback", { claim });
  const { queue } = deps;
  gate.route("callback", { claim: (tap) => queue.claimTap(tap), unclaimed: (tap) => queue.unclaimedTap(tap) });
  gate.route("text", { claim: (text) => queue.claimText(text) });
  gate.route("command", { claim: (command) => queue.claimCommand(command), unclaimed: (command) => queue.unclaimed(command) });
  return (tap) => {
    const data = decodeCallback(tap.data);
    return data !== undefined && (stops.owns(data) || undos.owns(data) || queue.owns(data));
  };
}

function tapped(intent: ActingTap): { chatId: number; messageId: number } | undefined {
  const { chatId } = intent.from;
  return intent.messageId === undefined || chatId === undefined ? undefined : { chatId, messageId: intent.messageId };
}

async function run(deps: RunRouteDeps, intent: ActingTap, tap: Tap, failure: string): Promise<void> {
  await deps.chat.answerCallback(intent.id, tap.note(deps.t), tap.alert);
  if (tap.next) await tap.next().catch((error) => deps.log.error({ err: errorText(error) }, failure));
}
