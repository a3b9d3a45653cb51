// Voice notes and audio files from the phone: one that replies to a Hermes message of a session (or
// is posted in its forum topic) is downloaded, transcribed by the configured service, and its text
// becomes that session's next prompt, as a typed reply would; one that replies to "Type an answer"
// or "Reject with feedback" gives that answer. The phone is shown what was heard first, as a reply
// to the voice note (a reply to that message reaches the session too). Only allowed users' voice
// reaches this file (lib/bridge/core/gate.ts decides, once), so a stranger's is never downloaded; the audio stays
// in memory and goes to the transcription service and nowhere else.
// Every refusal is said on the phone, and one voice note never makes two prompts.
import type { TranscriptionSettings } from "../../config/config.ts";
import { formatDuration } from "../../i18n/duration.ts";
import { errorText } from "../../util/error-text.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { MessageOwner, Registry, TextInput } from "../../registry/registry.ts";
import { BOT_DOWNLOAD_LIMIT_BYTES, type TelegramApi } from "../../telegram/wire/api.ts";
import { escapeHtml, escapeWithin, html, type Html } from "../../text/html.ts";
import { type AudioType, audioType } from "../../voice/audio-type.ts";
import { loadOpenaiTranscriber, type LoadTranscriber } from "../../voice/load-transcriber.ts";
import { TRANSCRIBE_TIMEOUT_MS, TranscriptionError, type Transcriber } from "../../voice/transcriber.ts";
import type { Claim } from "../../relay/update-handler.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingFile } from "../core/gate.ts";
import { downloadFromPhone } from "./phone-download.ts";
import type { TalkBack, UserMessage } from "../runs/talk-back.ts";
import type { SessionTopics } from "../core/topics.ts";
import type { PromptTaps } from "../prompts/prompt-taps.ts";

/** Where the words go: an awaited answer (or feedback), or a session's next prompt. */
export type VoiceTarget = { input: TextInput; by?: string } | { owner: MessageOwner };

export interface VoiceNotesDeps {
  telegram: TelegramApi;
  registry: Registry;
  topics: SessionTopics;
  log: Logger;
  t: Strings;
  chat: Pick<Chat, "reply" | "post">;
  inputs: Pick<PromptTaps, "typed">;
  talk: Pick<TalkBack, "talkBack" | "heardVoice">;
  /** Undefined: no service configured (HERMES_TRANSCRIBE_URL): voice notes are refused, naming it. */
  settings: TranscriptionSettings | undefined;
  /** How the transcriber is built (on first use); tests give their own. */
  load?: LoadTranscriber;
  timeoutMs?: number;
  /** Bytes a bot may download (Telegram's 20 MB unless a test says otherwise). */
  limitBytes?: number;
}

/** The transcript as shown on the phone, at most (the prompt gets all of it). */
const SHOWN_TRANSCRIPT_LIMIT = 3_500;

export class VoiceNotes {
  readonly #deps: VoiceNotesDeps;
  #transcriber?: Promise<Transcriber>;
  /** Each chat's voice notes are taken one after the other: two sent back to back become prompts in that order. */
  readonly #turns = new Map<number, Promise<void>>();

  constructor(deps: VoiceNotesDeps) {
    this.#deps = deps;
  }

  /**
   * Whether the voice note (or an audio document answering a prompt) is for this process: what
   * taking it means, or undefined to leave it to another process sharing the bot (or to phone-files.ts).
   */
  claim(intent: ActingFile): Claim | undefined {
    const { registry, topics } = this.#deps;
    const { file } = intent;
    const replyTo = intent.replyTo === undefined ? undefined : { chatId: intent.from.chatId, messageId: intent.replyTo };
    const input = replyTo ? registry.inputFor(replyTo) : undefined;
    // A document is an answer only if it says it is audio (its bytes decide below); else it is phone-files.ts'.
    if (file.kind !== "audio" && !(input && file.kind === "document" && claimsAudio(file.mime, file.name))) return undefined;
    const owner = replyTo ? registry.ownerOf(replyTo) : undefined;
    const topicOwner = intent.threadId !== undefined ? topics.ownerOf(intent.threadId) : undefined;
    const target: VoiceTarget | undefined = input
      ? { input, by: intent.from.name ?? String(intent.from.userId) }
      : (owner ?? topicOwner)
        ? { owner: (owner ?? topicOwner)! }
        : undefined;
    if (!target) return undefined;
    const userMessage: UserMessage = {
      chatId: intent.from.chatId,
      messageId: intent.messageId,
      ...(intent.threadId !== undefined ? { threadId: intent.threadId } : {}),
      ...(intent.from.name !== undefined ? { sender: intent.from.name } : {}),
    };
    // The claim is granted at once: the download and the transcription go on after it.
    return async () => void this.#inTurn(userMessage.chatId, () => this.#hear(target, intent, userMessage));
  }

  /** Runs `work` after the chat's earlier voice notes are done (however they ended). */
  #inTurn(chatId: number, work: () => Promise<void>): Promise<void> {
    const run = (this.#turns.get(chatId) ?? Promise.resolve())
      .then(work)
      .catch((error) => this.#deps.log.warn({ err: errorText(error) }, "could not take a voice note"));
    this.#turns.set(chatId, run);
    void run.then(() => {
      if (this.#turns.get(chatId) === run) this.#turns.delete(chatId);
    });
    return run;
  }

  /** Audio already downloaded (a document phone-files.ts found to be audio): transcribe it and pass the words on. */
  async heard(target: VoiceTarget, userMessage: UserMessage, caption: string | undefined, bytes: Uint8Array, audio: AudioType): Promise<void> {
    const { t, settings, log } = this.#deps;
    const refuse = (text: Html) => this.#deps.chat.reply(text, userMessage.messageId, userMessage.threadId);
    if (!settings) return refuse(t.voice.notConfigured);
    const started = Date.now();
    const text = await this.#transcribe(bytes, audio).catch((error: unknown) => error);
    if (typeof text !== "string") {
      log.warn({ err: errorText(text), bytes: bytes.length, type: audio.mime }, "could not transcribe a voice note");
      return refuse(this.#refusalFor(text));
    }
    const words = text.trim();
    log.info({ bytes: bytes.length, type: audio.mime, ms: Date.now() - started, chars: words.length }, "voice note transcribed");
    if (words === "") return refuse(escapeHtml(t.voice.empty));
    await this.#pass(target, userMessage, words, caption);
  }

  async #hear(target: VoiceTarget, intent: ActingFile, userMessage: UserMessage): Promise<void> {
    const { t, settings } = this.#deps;
    const refuse = (text: Html) => this.#deps.chat.reply(text, userMessage.messageId, userMessage.threadId);
    // Not configured: said before anything is downloaded.
    if (!settings) return refuse(t.voice.notConfigured);
    const downloaded = await downloadFromPhone(this.#deps, intent.file, this.#deps.limitBytes ?? BOT_DOWNLOAD_LIMIT_BYTES);
    if (!downloaded.ok) return refuse(downloaded.refusal);
    const audio = audioType(downloaded.bytes);
    if (!audio) return refuse(t.voice.typeRefused(html`<code>${escapeWithin(intent.file.mime ?? intent.file.type, 80)}</code>`));
    await this.heard(target, userMessage, intent.caption, downloaded.bytes, audio);
  }

  /** Shows what was heard, then hands it on: to the awaited answer, or to the session as its next prompt. */
  async #pass(target: VoiceTarget, userMessage: UserMessage, words: string, caption: string | undefined): Promise<void> {
    const { registry, chat, t } = this.#deps;
    const shown = escapeWithin(words, SHOWN_TRANSCRIPT_LIMIT);
    if ("input" in target) {
      const prompt = registry.byKey(target.input.key);
      if (prompt?.state !== "pending" || !registry.inputFor(target.input.message))
        return chat.reply(escapeHtml(t.note.notPending), userMessage.messageId, userMessage.threadId);
      const sent = await chat.post(t.voice.heardAnswer(shown), userMessage.messageId, userMessage.threadId);
      if (sent) registry.noteMessage(sent, { sessionID: prompt.sessionID, directory: prompt.directory });
      this.#deps.talk.heardVoice(prompt.sessionID);
      this.#deps.inputs.typed(target.input, words, target.by);
      return;
    }
    // Queued first, so the phone shows the words before the 👍 and Running; the prompt does not wait for Telegram.
    const showing = chat.post(t.voice.heard(shown), userMessage.messageId, userMessage.threadId);
    await this.#deps.talk.talkBack(target.owner, userMessage, caption === undefined ? words : `${caption}\n\n${words}`, true);
    const sent = await showing;
    if (sent) registry.noteMessage(sent, target.owner);
  }

  /** One request to the service; the transcriber module is loaded on the first voice note. */
  async #transcribe(bytes: Uint8Array, audio: AudioType): Promise<string> {
    const { settings, load = loadOpenaiTranscriber, timeoutMs = TRANSCRIBE_TIMEOUT_MS } = this.#deps;
    if (!settings) throw new Error("no transcription service");
    this.#transcriber ??= load(settings, timeoutMs);
    const transcriber = await this.#transcriber.catch((error: unknown) => {
      this.#transcriber = undefined;
      throw error;
    });
    return transcriber.transcribe(bytes, audio);
  }

  #refusalFor(error: unknown): Html {
    const { t, timeoutMs = TRANSCRIBE_TIMEOUT_MS } = this.#deps;
    if (!(error instanceof TranscriptionError)) return t.voice.transcribeFailed(escapeWithin(errorText(error), 200));
    const { failure } = error;
    if (failure.kind === "refused") return t.voice.keyRefused;
    if (failure.kind === "tooLong") return t.voice.tooLong(escapeHtml(failure.limit));
    if (failure.kind === "foreignListener") return t.voice.foreignListener(escapeWithin(failure.address, 80), failure.uid);
    if (failure.kind === "timeout") return t.voice.timedOut(escapeHtml(formatDuration(timeoutMs, t)));
    return t.voice.transcribeFailed(escapeWithin(failure.detail, 300));
  }
}

/** What a document says it is (its type or its name's extension): only a hint, the bytes decide. */
function claimsAudio(mime: string | undefined, name: string | undefined): boolean {
  return (mime ?? "").toLowerCase().startsWith("audio/") || /\.(ogg|oga|opus|mp3|m4a|wav)$/i.test(name ?? "");
}
