// The routes of the phone's capabilities that the bridge keeps no handle on, added to the gate in
// one place and in this order: git (/diff, Commit, Push…, /new --worktree: before steering's plain
// /new), steering (/new, /sessions, /model, /agent), scheduled runs (/every, /at, /schedules),
// OpenCode's own vocabulary (/commands, /compact, /fork, /history).
// They go before the bridge's own routes: typed text would otherwise become the session's next
// prompt, Commands answers any command it does not know with /help, and UserInput calls any tap
// it does not know stale.
import type { Gate } from "./core/gate.ts";
import type { GitButtons, GitRouteDeps } from "./git/git-routes.ts";
import type { PromptChoices } from "./core/prompt-choices.ts";
import type { RunCosts } from "./runs/run-costs.ts";
import type { VocabularyButtons, VocabularyRouteDeps as VocabularyDeps } from "./vocabulary/vocabulary-routes.ts";
import { routeSchedules, type ScheduleSetup } from "./schedules/schedule-routes.ts";
import type { ChoiceCommands } from "./steering/choice-commands.ts";
import { routeSteering } from "./steering/steer-routes.ts";

type SteeringDeps = Omit<Parameters<typeof routeSteering>[1], "choices">;
type VocabularyRouteDeps = Omit<VocabularyDeps, "costs">;

export interface PhoneRouteDeps {
  /** The Done notice's git buttons (RunNotices holds them): they work once git's routes are added here. */
  git: GitButtons;
  /** The Done notice's ⑂ Fork (RunNotices holds it): it works once the vocabulary's routes are added here. */
  vocabulary: VocabularyButtons;
  choices: PromptChoices;
  schedules: ScheduleSetup | undefined;
  costs: RunCosts;
}

/** Adds the routes; the steering's choice commands are returned for /status. */
export function routePhone(gate: Gate, deps: SteeringDeps & VocabularyRouteDeps & GitRouteDeps, own: PhoneRouteDeps): ChoiceCommands {
  own.git.route(gate, deps);
  const steering = routeSteering(gate, { ...deps, choices: own.choices });
  routeSchedules(gate, { ...deps, schedules: own.schedules });
  own.vocabulary.route(gate, { ...deps, costs: own.costs });
  return steering;
}
