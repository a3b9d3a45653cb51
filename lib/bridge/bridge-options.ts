// What a bridge is made with: the Telegram client, the registry, the log, who may act, and every
// setting that changes what the phone gets (bridge.ts reads them once, at construction).
import type { HermesConfig, TranscriptionSettings } from "../config/config.ts";
import type { Language } from "../i18n/catalog.ts";
import type { NoticePolicy } from "../notices/policy.ts";
import type { Logger } from "../system/log.ts";
import type { Registry } from "../registry/registry.ts";
import type { AccessPolicy } from "../telegram/access.ts";
import type { TelegramApi } from "../telegram/wire/api.ts";
import type { PaceLimits } from "../telegram/wire/pacer.ts";
import type { LoadTranscriber } from "../voice/load-transcriber.ts";
import type { ApprovalOptions } from "./approvals/approvals-routes.ts";
import type { ScheduleSetup } from "./schedules/schedules-routes.ts";

export interface BridgeOptions extends ApprovalOptions {
  telegram: TelegramApi;
  registry: Registry;
  logger: Logger;
  access: AccessPolicy;
  /** 0 means questions never expire. */
  questionTtlMs: number;
  /** 0 (the default) means permission requests never expire. */
  permissionTtlMs?: number;
  /** How long to wait for the rest of a typed answer Telegram split into several messages. */
  textQuietMs?: number;
  /** How long to wait for OpenCode's event confirming a reply before checking its pending list. */
  confirmTimeoutMs?: number;
  /** Telegram's flood limits; `false` turns pacing off (tests with an in-memory Telegram). */
  pacing?: PaceLimits | false;
  /** Which run endings are worth a message. Default: done (after 30 s of work) and failed. */
  notices?: NoticePolicy;
  /** How long "Done" waits for a late abort (OpenCode 1.1.53 reports Esc just after the idle). */
  doneGraceMs?: number;
  /** The chat's language (English by default). */
  language?: Language;
  /** One forum topic per session (the chat must be a supergroup with topics). */
  topics?: boolean;
  /** One live, silent progress message per run (HERMES_PROGRESS; off unless asked). */
  progress?: boolean;
  /** HERMES_SHELL=off: `!command` from the phone is refused (lib/bridge/shell/). */
  shell?: boolean;
  /** HERMES_STREAM (answer-stream.ts); undefined: on in a private chat only. */
  stream?: boolean | undefined;
  /** Answers spoken back (HERMES_SPEECH_URL, spoken-answers.ts). */
  speech?: HermesConfig["speech"];
  /** The machine's name, on every message (see telegram/machine-label.ts). */
  machine?: string | undefined;
  /** The transcription service for voice notes; undefined: voice notes are refused, naming the setting. */
  transcription?: TranscriptionSettings | undefined;
  /** Tests: how the transcriber is built, and how long a transcription may take. */
  loadTranscriber?: LoadTranscriber;
  transcribeTimeoutMs?: number;
  now?: () => number;
  schedules?: ScheduleSetup | undefined;
  /** HERMES_STALL_AFTER: a busy run with no new event (or one tool call running) this long gets an alert; 0: off. */
  stallAfterMs?: number;
  /** HERMES_DESK_DELAY: while the person is at the desk, a new prompt waits this long before it reaches the phone; undefined: off. */
  deskDelayMs?: number | undefined;
}
