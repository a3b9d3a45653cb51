// Which runs are due, and the claim on them (pure): given the schedules as the store has them now,
// what this process serves and the time, which runs this process starts, which runs were missed,
// and the schedules after (each claimed or missed one moved on to its next run; `/at` removed).
// Done under the store's lock (store.ts), this is the compare-and-set that makes every run happen
// once: a run is claimed only while the schedule's `next` is still its due time, and the claim
// moves `next` on, so any other process looking next finds nothing due.
//
// A run is started only by a process serving its project, and only within LATE_LIMIT_MS of its
// due time: one that fell due while no OpenCode served the project is not run late; it is missed,
// and whichever process of the bot sees it first (serving the project or not) says so once.
import { REAL_PACE, type SchedulePace } from "./pace.ts";
import type { Schedule } from "./schedule.ts";
import { nextRun, runsAgain } from "./when.ts";

/** How late a run may start (a timer fired late, a process busy at the time); later, it was missed. */
export const LATE_LIMIT_MS = REAL_PACE.lateLimitMs;

/** Who is looking: this process' bot and chat, and the projects it serves. */
export interface Here {
  bot: string;
  chatId: number;
  directories: readonly string[];
}

export interface Due {
  /** The schedules after the claim; the same array when nothing changed (nothing to write). */
  schedules: Schedule[];
  /** Runs this process starts now, each with the due time it claimed. */
  runs: Array<{ schedule: Schedule; due: number }>;
  /** Runs nobody started in time, each told once (the first missed due time). */
  missed: Array<{ schedule: Schedule; due: number }>;
}

function mine(schedule: Schedule, here: Here): boolean {
  return schedule.bot === here.bot && schedule.chatId === here.chatId;
}

export function claimDue(schedules: Schedule[], here: Here, now: number, pace: SchedulePace = REAL_PACE): Due {
  const runs: Due["runs"] = [];
  const missed: Due["missed"] = [];
  const after: Schedule[] = [];
  for (const schedule of schedules) {
    const late = now - schedule.next;
    const served = here.directories.includes(schedule.directory);
    const run = late >= 0 && late <= pace.lateLimitMs && served;
    const miss = late > pace.lateLimitMs;
    if (!mine(schedule, here) || (!run && !miss)) {
      after.push(schedule);
      continue;
    }
    (run ? runs : missed).push({ schedule, due: schedule.next });
    if (runsAgain(schedule.when)) after.push({ ...schedule, next: nextRun(schedule.when, now, pace.minuteMs) });
  }
  return { schedules: runs.length + missed.length > 0 ? after : schedules, runs, missed };
}

/** When this process should look next: its projects' next runs, and the moment any other run of its bot would count as missed. */
export function nextLook(schedules: readonly Schedule[], here: Here, lateLimitMs: number = LATE_LIMIT_MS): number | undefined {
  let earliest: number | undefined;
  for (const schedule of schedules) {
    if (!mine(schedule, here)) continue;
    const at = here.directories.includes(schedule.directory) ? schedule.next : schedule.next + lateLimitMs + 1;
    if (earliest === undefined || at < earliest) earliest = at;
  }
  return earliest;
}
