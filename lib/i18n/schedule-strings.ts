// The shape of the strings of scheduled runs (/every, /at, /schedules): part of the catalogue
// (strings.ts' `schedule`), filled in by schedule-en.ts and schedule-zh.ts. Parameters named
// `project`, `instruction`, `next`, `zone` and `why` come escaped; the rest are numbers or plain words.
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
  created: (when: string, project: string, instruction: string, next: string) => string;
  /** /every or /at not understood: why, and the forms they take. */
  usage: string;
  errors: { empty: string; badWhen: string; tooShort: string; tooLong: string; badTime: string; noInstruction: string };
  /** The project picker's title. */
  pick: string;
  /** The picker after a tap. */
  picked: (project: string) => string;
  /** Schedules cannot be kept (the state file was refused): why. */
  off: (why: string) => string;
  saveFailed: (why: string) => string;
  /** /schedules: the title with the machine's zone, each schedule, none. */
  listTitle: (count: number, zone: string) => string;
  item: (index: number, when: string, project: string, next: string, instruction: string) => string;
  none: string;
  /** Buttons and answers (plain text). */
  cancelButton: (index: number) => string;
  confirmButton: (index: number) => string;
  confirmHint: string;
  cancelled: string;
  gone: string;
  /** A run's first message ("⏰ …"), and a session's title (plain text). */
  running: (when: string, project: string, instruction: string) => string;
  title: (instruction: string) => string;
  /** A run that fell due while no OpenCode served the project (told once). */
  missed: (when: string, project: string, at: string, instruction: string) => string;
  failed: (project: string, why: string) => string;
}
