// Scheduled runs on the gate (issue 35): /every, /at and /schedules with their picker and cancel
// buttons (schedule-commands.ts), and the runner the wake-up timer calls (schedule-runner.ts).
import type { Gate } from "../core/gate.ts";
import { ScheduleCommands, type ScheduleCommandDeps } from "./schedule-commands.ts";

export type { ScheduleSetup } from "./schedule-commands.ts";
import { ScheduleRunner, type ScheduleRunnerDeps } from "./schedule-runner.ts";
export function routeSchedules(gate: Gate, deps: ScheduleCommandDeps & ScheduleRunnerDeps): void {
  const commands = new ScheduleCommands(deps);
  gate.route("callback", { claim: (tap) => commands.claimTap(tap), unclaimed: (tap) => commands.unclaimedTap(tap) });
  gate.route("command", {
    unclaimed: (command, after) => commands.unclaimed(command, after.parts),
    gathers: (command) => commands.gathers(command),
    partFor: (command) => commands.partFor(command),
  });
  const runner = new ScheduleRunner(deps);
  deps.schedules?.ready(() => runner.runDue());
}
