// Answers in the form they were asked in: a run started or continued by a voice note gets, after
// its Done notice, the answer as a voice message (HERMES_SPEECH_URL; the text stays above it).
// `/voice on|off|auto` chooses for the chat (auto, the default: only for voice prompts); every
// process sharing the bot takes the choice (it is gathered, as /pending is). What is read aloud is
// lib/voice/spoken-text.ts' (code blocks and links named, at most about two minutes); the audio comes
// from the one speech client (lib/voice/openai-speech.ts, loaded on first use). A failure is said
// once, replying to the Done notice, with the service's status and never its key.
import { errorText } from "../../util/error-text.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner } from "../../registry/registry.ts";
import type { SpeechSettings } from "../../config/speech-settings.ts";
import { loadOpenaiSpeaker, type LoadSpeaker } from "../../voice/load-speaker.ts";
import { SPEECH_TIMEOUT_MS, SpeechError, type Speaker } from "../../voice/speaker.ts";
import { spokenText } from "../../voice/spoken-text.ts";
import { escapeWithin, type Html } from "../../text/html.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import type { Outbox } from "../../telegram/wire/outbox.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingCommand, Gate } from "../core/gate.ts";

export type VoiceMode = "on" | "off" | "auto";
const MODES: readonly VoiceMode[] = ["on", "off", "auto"];
/** Sessions remembered as asked by voice (a run's mark goes with its Done notice). */
const VOICE_SESSIONS_KEPT = 200;
/** The upload of a voice message may take this long. */
const VOICE_UPLOAD_MS = 120_000;

export interface SpokenAnswerDeps {
  telegram: Pick<TelegramApi, "sendVoice">;
  outbox: Pick<Outbox, "upload">;
  log: Logger;
  t: Strings;
  chatId: number | undefined;
  chat: Pick<Chat, "reply">;
  /** Undefined: no speech service (HERMES_SPEECH_URL): nothing is spoken, and /voice says how to set one. */
  settings: SpeechSettings | undefined;
  /** Tests: how the speaker is built, and how long it may take. */
  load?: LoadSpeaker;
  timeoutMs?: number;
}

export class SpokenAnswers {
  readonly #deps: SpokenAnswerDeps;
  #mode: VoiceMode = "auto";
  /** Sessions whose current run a voice note started or continued. */
  readonly #byVoice = new Set<string>();
  #speaker?: Promise<Speaker>;

  constructor(deps: SpokenAnswerDeps) {
    this.#deps = deps;
  }

  /** A voice note's words reached the session: its run's answer is spoken (unless /voice off). */
  heardVoice(sessionID: string): void {
    this.#byVoice.delete(sessionID);
    this.#byVoice.add(sessionID);
    if (this.#byVoice.size > VOICE_SESSIONS_KEPT) this.#byVoice.delete(this.#byVoice.values().next().value!);
  }

  /** After a run's Done notice (`doneId`): its answer as a voice message, when the chat's mode asks for it. */
  async afterDone(owner: MessageOwner, answer: string, doneId: number, threadId: number | undefined): Promise<void> {
    const asked = this.#byVoice.delete(owner.sessionID);
    const { settings, chatId, t, log } = this.#deps;
    if (!settings || chatId === undefined || answer.trim() === "") return;
    if (this.#mode === "off" || (this.#mode === "auto" && !asked)) return;
    const { text, cut } = spokenText(answer, t.speech.spoken);
    const started = Date.now();
    try {
      const audio = await this.#speak(settings, text);
      const options = { caption: t.speech.caption, replyTo: doneId, ...(threadId !== undefined ? { threadId } : {}) };
      await this.#deps.outbox.upload(chatId, () => () => this.#deps.telegram.sendVoice(chatId, audio, options), VOICE_UPLOAD_MS);
      log.info({ sessionID: owner.sessionID, chars: text.length, cut, bytes: audio.length, ms: Date.now() - started }, "answer spoken");
    } catch (error) {
      log.warn({ err: errorText(error), sessionID: owner.sessionID }, "could not speak the answer");
      await this.#deps.chat.reply(this.#refusalFor(error), doneId, threadId);
    }
  }

  /** /voice on|off|auto on the gate: every process takes the mode (gathered), the one that polls answers. */
  route(gate: Pick<Gate, "route">): void {
    const isVoice = (command: ActingCommand) => command.name === "voice";
    gate.route("command", {
      gathers: isVoice,
      partFor: async (command) => ({ voice: this.#choose(command.args) }),
      unclaimed: (command) => (isVoice(command) ? this.#answer(command) : undefined),
    });
  }

  #choose(args: string): VoiceMode | undefined {
    const asked = args.trim().toLowerCase();
    if ((MODES as readonly string[]).includes(asked)) this.#mode = asked as VoiceMode;
    return asked === "" || MODES.includes(asked as VoiceMode) ? this.#mode : undefined;
  }

  #answer(command: ActingCommand): Promise<void> {
    const { t, settings } = this.#deps;
    const mode = this.#choose(command.args);
    const text = mode === undefined ? t.speech.usage : !settings && mode !== "off" ? t.speech.notConfigured : t.speech.mode[mode];
    return this.#deps.chat.reply(text, command.messageId);
  }

  async #speak(settings: SpeechSettings, text: string): Promise<Uint8Array> {
    const { load = loadOpenaiSpeaker, timeoutMs = SPEECH_TIMEOUT_MS } = this.#deps;
    this.#speaker ??= load(settings, timeoutMs);
    const speaker = await this.#speaker.catch((error: unknown) => {
      this.#speaker = undefined;
      throw error;
    });
    return speaker.speak(text);
  }

  #refusalFor(error: unknown): Html {
    const { t } = this.#deps;
    if (!(error instanceof SpeechError)) return t.speech.failed(escapeWithin(errorText(error), 200));
    const { failure } = error;
    if (failure.kind === "refused") return t.speech.keyRefused;
    if (failure.kind === "foreignListener") return t.speech.foreignListener(escapeWithin(failure.address, 80), failure.uid);
    return t.speech.failed(escapeWithin(failure.detail, 300));
  }
}
