// The shape of the strings of scheduled runs (/every, /at, /schedules): part of the catalogue
// (strings.ts' `schedule`), filled in by schedules-en.ts and schedules-zh.ts. Parameters typed
// Html come escaped; the rest are numbers or plain words.
import type { Html } from "../text/html.ts";

export interface ScheduleStrings {
  /** "every 30 min", "every 2 h". */
  everyMinutes: (minutes: number) => string;
  everyHours: (hours: number) => string;
  /** "every day at 09:00", "every weekday at 09:00", "once at 09:00". */
  daily: (time: string) => string;
  weekdays: (time: string) => string;
  once: (time: string) => string;
  /** Short weekday names, Sunday first (Date's getDay()). */
  days: readonly string[];
  /** The answer to /every and /at: what was understood. */
  created: (when: Html, project: Html, instruction: Html, next: Html) => Html;
  /** /every or /at not understood: why, and the forms they take. */
  usage: Html;
  errors: { empty: string; badWhen: string; tooShort: string; tooLong: string; badTime: string; noInstruction: string };
  /** The project picker's title. */
  pick: Html;
  /** The picker after a tap. */
  picked: (project: Html) => Html;
  /** Schedules cannot be kept (the state file was refused): why. */
  off: (why: Html) => Html;
  saveFailed: (why: Html) => Html;
  /** Why a schedule was not saved: the file would grow past what Hermes reads back. */
  full: Html;
  /** /schedules: the title with the machine's zone, each schedule, none. */
  listTitle: (count: number, zone: Html) => Html;
  item: (index: number, when: Html, project: Html, next: Html, instruction: Html) => Html;
  none: Html;
  /** Buttons and answers (plain text). */
  cancelButton: (index: number) => string;
  confirmButton: (index: number) => string;
  confirmHint: string;
  cancelled: string;
  gone: string;
  /** A run's first message ("⏰ …"), and a session's title (plain text). */
  running: (when: Html, project: Html, instruction: Html) => Html;
  title: (instruction: string) => string;
  /** A run that fell due while no OpenCode served the project (told once). */
  missed: (when: Html, project: Html, at: Html, instruction: Html) => Html;
  failed: (project: Html, why: Html) => Html;
}
