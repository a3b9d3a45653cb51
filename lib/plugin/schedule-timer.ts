// The schedules' wake-up timer of a process, running from the plugin's start (its rules are
// lib/schedules/wake.ts'): it reads the schedules file when a run may be due, loads the bridge when
// one falls due, and hands the bridge the store, the word that the schedules changed, and the way
// to give back its runner (the commands and the runner are the bridge's: lib/bridge/schedules/).
// Only this timer and the store it reads wait at start; the bridge loads with the first due run.
import type { Logger } from "../system/log.ts";
import type { SchedulePace } from "../schedules/pace.ts";
import { ScheduleStore } from "../schedules/store.ts";
import { ScheduleWake } from "../schedules/wake.ts";
import type { ScheduleSetup } from "../bridge/schedules/schedules-routes.ts";

/** What the timer needs of the on-demand bridge: the projects it serves, and loading it. */
export interface ServedBridge {
  directories(): string[];
  load(): Promise<unknown>;
  readonly stopped: boolean;
}

export interface ScheduleTimerOptions {
  /** The schedules file (lib/schedules/store.ts' scheduleFile()). */
  file: string;
  /** This bot's key in the file. */
  bot: string;
  chatId: number;
  logger: Pick<Logger, "warn">;
  pace?: SchedulePace | undefined;
}

export class ScheduleTimer {
  /** What the bridge is made with (BridgeOptions' `schedules`). */
  readonly setup: ScheduleSetup;
  readonly #wake: ScheduleWake;
  #served?: ServedBridge;
  #runDue?: () => Promise<void>;

  constructor(options: ScheduleTimerOptions) {
    const { file, bot, chatId, logger, pace } = options;
    const store = new ScheduleStore(file, { warn: (fields, message) => logger.warn(fields, message) });
    const here = () => ({ bot, chatId, directories: this.#served?.directories() ?? [] });
    const onDue = async () => {
      const served = this.#served;
      if (!served) return;
      await served.load();
      if (!served.stopped) await this.#runDue?.();
    };
    this.#wake = new ScheduleWake({ store, here, onDue, ...(pace ? { pace } : {}) });
    const ready = (runDue: () => Promise<void>) => {
      this.#runDue = runDue;
    };
    this.setup = { store, bot, changed: () => this.#wake.refresh(), ready, ...(pace ? { pace } : {}) };
  }

  /** The bridge whose projects the schedules may start in. */
  serve(served: ServedBridge): void {
    this.#served = served;
  }

  /** The projects served changed (the first one starts the timer; each one after has it look again). */
  refresh(): void {
    this.#wake.refresh();
  }

  stop(): void {
    this.#wake.stop();
  }
}
