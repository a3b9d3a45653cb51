// The strings of scheduled runs in English.
import type { ScheduleStrings } from "./schedules-strings.ts";
import { html } from "../text/html.ts";

export const scheduleEn: ScheduleStrings = {
  everyMinutes: (minutes) => (minutes === 1 ? "every minute" : `every ${minutes} min`),
  everyHours: (hours) => (hours === 1 ? "every hour" : `every ${hours} h`),
  daily: (time) => `every day at ${time}`,
  weekdays: (time) => `every weekday at ${time}`,
  once: (time) => `once at ${time}`,
  days: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
  created: (when, project, instruction, next) =>
    html`⏰ <b>Scheduled</b>: ${when}, in <b>${project}</b>: ${instruction}\nNext run: ${next}. /schedules lists them.`,
  usage: html`Use <code>/every 30m</code>, <code>/every 2h</code>, <code>/every day 09:00</code> or <code>/every weekdays 09:00</code> followed by the instruction, or <code>/at 18:00</code> and the instruction (once).`,
  errors: {
    empty: "⏰ What should run, and when?",
    badWhen: "⏰ I did not understand when.",
    tooShort: "⏰ The shortest interval is 1 minute.",
    tooLong: "⏰ The longest interval is a week.",
    badTime: "⏰ A time of day is HH:MM, from 00:00 to 23:59.",
    noInstruction: "⏰ What should the run do? Add the instruction after the time.",
  },
  pick: html`⏰ <b>Which project should this schedule run in?</b>`,
  picked: (project) => html`⏰ Schedule in <b>${project}</b>`,
  off: (why) => html`⚠️ Schedules are off on this machine: ${why}.`,
  saveFailed: (why) => html`⚠️ Could not save the schedule (${why}).`,
  full: html`the schedules file is full: its schedules are too long for one more; cancel one in /schedules`,
  listTitle: (count, zone) => html`⏰ <b>Schedules</b> (${count}) · times are this machine's (${zone})`,
  item: (index, when, project, next, instruction) => html`${index}. ${when} · <b>${project}</b> · next ${next}\n<blockquote>${instruction}</blockquote>`,
  none: html`⏰ No schedules. <code>/every 30m …</code>, <code>/every weekdays 09:00 …</code> or <code>/at 18:00 …</code> makes one.`,
  cancelButton: (index) => `✖ Cancel ${index}`,
  confirmButton: (index) => `✖ Confirm cancel ${index}`,
  confirmHint: "Tap again to cancel it",
  cancelled: "Cancelled",
  gone: "That schedule no longer exists",
  running: (when, project, instruction) => html`⏰ <b>Scheduled run</b> (${when}) in <b>${project}</b>: ${instruction}`,
  title: (instruction) => `⏰ ${instruction}`,
  missed: (when, project, at, instruction) =>
    html`⏰ <b>Missed</b>: the run due ${at} (${when}) in <b>${project}</b> did not run, no OpenCode served the project then: ${instruction}`,
  failed: (project, why) => html`⚠️ A scheduled run in <b>${project}</b> could not start (${why}).`,
};
