// Scheduled runs, run: when the wake-up timer (lib/schedules/wake.ts) finds something due, this
// process claims, under the store's lock, the runs due in the projects it serves and the runs
// nobody started in time (lib/schedules/due.ts); every claim moves the schedule on, so each run
// is claimed by exactly one process, whichever processes share the bot and the file. Each claimed
// run posts its first message ("⏰ Scheduled run … in app: …") and starts a new session titled
// "⏰ …" with the instruction, the /new way (lib/bridge/steering/start-session.ts): Running with Stop,
// progress, Done or Failed, and a reply continues it. A missed run is told once.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import { claimDue } from "../../schedules/due.ts";
import { renderMissed, renderScheduledRun, scheduledTitle } from "../../telegram/render/render-schedules.ts";
import { Priority } from "../../telegram/wire/outbox.ts";
import type { Chat } from "../core/chat.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { startSession, type StartSessionDeps } from "../steering/start-session.ts";
import type { ScheduleSetup } from "./schedule-commands.ts";

export interface ScheduleRunnerDeps extends StartSessionDeps {
  log: Logger;
  t: Strings;
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "reply" | "send">;
  now: () => number;
  schedules: ScheduleSetup | undefined;
}

export class ScheduleRunner {
  readonly #deps: ScheduleRunnerDeps;

  constructor(deps: ScheduleRunnerDeps) {
    this.#deps = deps;
  }

  /** Claims what is due now and starts it; resolves once every run has been sent to OpenCode. */
  async runDue(): Promise<void> {
    const { schedules, chatId, links, log, t, chat } = this.#deps;
    if (!schedules || chatId === undefined) return;
    const now = this.#deps.now();
    const here = { bot: schedules.bot, chatId, directories: links.directories() };
    const claimed = await schedules.store.update((list) => {
      const due = claimDue(list, here, now, schedules.pace);
      return { schedules: due.schedules, result: due };
    });
    if (!claimed.ok) return;
    const { runs, missed } = claimed.result;
    for (const { schedule, due } of missed) {
      log.info({ id: schedule.id, directory: schedule.directory, due }, "a scheduled run was missed: no OpenCode served its project in time");
      await chat.send(renderMissed(schedule, due, now, t), {}, Priority.Prompt, "could not tell of a missed scheduled run");
    }
    await Promise.all(
      runs.map(async ({ schedule, due }) => {
        log.info({ id: schedule.id, directory: schedule.directory, due, lateMs: now - due }, "a scheduled run starts");
        const sent = await chat.send(renderScheduledRun(schedule, t), {}, Priority.Prompt, "could not post a scheduled run");
        if (!sent) return;
        const userMessage = { chatId: sent.chatId, messageId: sent.messageId };
        await startSession(this.#deps, {
          directory: schedule.directory,
          text: schedule.instruction,
          userMessage,
          title: scheduledTitle(schedule.instruction, t),
        });
      }),
    );
  }
}
