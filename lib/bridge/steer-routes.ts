// Starting and steering work from the phone (issue 24): /new (new-sessions.ts), /model and /agent
// (choice-commands.ts), as routes of the gate. Added before the bridge's own routes: Commands
// answers any command it does not know with /help, and UserInput calls any tap it does not know stale.
import type { Gate } from "./gate.ts";
import { ChoiceCommands, type ChoiceCommandDeps } from "./choice-commands.ts";
import { NewSessions, type NewSessionDeps } from "./new-sessions.ts";

export function routeSteering(gate: Gate, deps: NewSessionDeps & ChoiceCommandDeps): ChoiceCommands {
  const news = new NewSessions(deps);
  const choices = new ChoiceCommands(deps);
  gate.route("callback", { claim: (tap) => news.claimTap(tap) });
  gate.route("callback", {
    gathers: (tap) => choices.gathersTap(tap),
    partFor: (tap) => choices.tapPart(tap),
    unclaimed: (tap, after) => choices.unclaimedTap(tap, after.parts),
  });
  gate.route("command", {
    unclaimed: (command, after) => news.unclaimed(command, after.parts) ?? choices.unclaimed(command, after.parts),
    gathers: (command) => news.gathers(command) || choices.gathers(command),
    partFor: async (command) => (news.gathers(command) ? news.partFor(command) : choices.partFor(command)),
  });
  gate.route("text", { claim: (text) => news.claimText(text) });
  return choices;
}
