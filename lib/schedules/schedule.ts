// A schedule as it is kept (pure): what runs, where, when, and when next; and the check of the
// store file's text, which is read back from disk (any process of this user, any version of
// Hermes, a hand edit may have written it): what does not fit is dropped, never trusted.
import path from "node:path";
import { isRecord } from "../util/is-record.ts";
import { isWhen, type When } from "./when.ts";

/** At most this many schedules in the file, and instructions of at most this many characters. */
export const MAX_SCHEDULES = 100;
export const MAX_INSTRUCTION = 4_000;
const MAX_PATH = 4_096;

export interface Schedule {
  /** Random, short: on the cancel buttons. */
  id: string;
  /** Which bot it belongs to (a hash of the bot's token and API root, never the token): another bot's processes leave it alone. */
  bot: string;
  /** The chat it was made in, where its runs are reported. */
  chatId: number;
  /** The project it runs in (a directory some OpenCode served when it was made). */
  directory: string;
  when: When;
  instruction: string;
  /** When it runs next (ms since the epoch): the claim on a run moves it on (due.ts). */
  next: number;
  created: number;
}

export interface StoreFile {
  version: 1;
  schedules: Schedule[];
}

const ID = /^[0-9a-f]{8,16}$/;

/** The schedules of a store file's text; malformed entries are dropped (counted in `dropped`). */
export function parseStoreText(text: string): { schedules: Schedule[]; dropped: number } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { schedules: [], dropped: 1 };
  }
  if (!isRecord(value) || value.version !== 1 || !Array.isArray(value.schedules)) return { schedules: [], dropped: 1 };
  const schedules = value.schedules.filter(isSchedule).slice(0, MAX_SCHEDULES);
  return { schedules, dropped: value.schedules.length - schedules.length };
}

export function storeText(schedules: readonly Schedule[]): string {
  const file: StoreFile = { version: 1, schedules: [...schedules] };
  return `${JSON.stringify(file, null, 2)}\n`;
}

function isSchedule(value: unknown): value is Schedule {
  if (!isRecord(value)) return false;
  return (
    typeof value.id === "string" &&
    ID.test(value.id) &&
    typeof value.bot === "string" &&
    value.bot.length <= 64 &&
    Number.isSafeInteger(value.chatId) &&
    typeof value.directory === "string" &&
    path.isAbsolute(value.directory) &&
    value.directory.length <= MAX_PATH &&
    !value.directory.includes("\0") &&
    isWhen(value.when) &&
    typeof value.instruction === "string" &&
    value.instruction.length > 0 &&
    value.instruction.length <= MAX_INSTRUCTION &&
    Number.isSafeInteger(value.next) &&
    Number.isSafeInteger(value.created)
  );
}
