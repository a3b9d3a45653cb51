// Starting and steering work from the phone (issue 24): /new (new-sessions.ts), /sessions
// (session-picker.ts), /model and /agent (choice-commands.ts), as routes of the gate.
import { ChoiceCommands, type ChoiceCommandDeps } from "./choice-commands.ts";
import type { Gate } from "../core/gate.ts";
import { NewSessions, type NewSessionDeps } from "./new-sessions.ts";
import { SessionPicker, type SessionPickerDeps } from "./session-picker.ts";

export function routeSteering(gate: Gate, deps: NewSessionDeps & ChoiceCommandDeps & SessionPickerDeps): ChoiceCommands {
  const news = new NewSessions(deps);
  const choices = new ChoiceCommands(deps);
  const sessions = new SessionPicker(deps);
  gate.route("callback", { claim: (tap) => news.claimTap(tap) });
  gate.route("callback", { claim: (tap) => sessions.claimTap(tap) });
  gate.route("callback", {
    gathers: (tap) => sessions.gathersTap(tap),
    partFor: () => sessions.partFor(),
    unclaimed: (tap, after) => sessions.unclaimedTap(tap, after.parts),
  });
  gate.route("callback", {
    gathers: (tap) => choices.gathersTap(tap),
    partFor: (tap) => choices.tapPart(tap),
    unclaimed: (tap, after) => choices.unclaimedTap(tap, after.parts),
  });
  gate.route("command", {
    unclaimed: (command, after) => news.unclaimed(command, after.parts),
    gathers: (command) => news.gathers(command),
    partFor: (command) => news.partFor(command),
  });
  gate.route("command", {
    unclaimed: (command, after) => sessions.unclaimed(command, after.parts),
    gathers: (command) => sessions.gathers(command),
    partFor: () => sessions.partFor(),
  });
  gate.route("command", {
    unclaimed: (command, after) => choices.unclaimed(command, after.parts),
    gathers: (command) => choices.gathers(command),
    partFor: (command) => choices.partFor(command),
  });
  gate.route("text", { claim: (text) => news.claimText(text) });
  return choices;
}
