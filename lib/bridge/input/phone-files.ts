// Photos and files sent from the phone: a photo or document sent as a reply to any Hermes message
// of a session (or posted in its forum topic) becomes that session's next prompt, with its caption;
// an album (several photos or files sent at once) becomes one prompt.
// Only the allowed users in the configured chat are heard (lib/bridge/core/gate.ts hands nothing else here): nobody
// else's file is ever downloaded.
// Files stay in memory (a `data:` URL or a text part) and are never written to disk.
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { PromptPart } from "../../opencode/endpoint.ts";
import type { MessageOwner, Registry } from "../../registry/registry.ts";
import type { Claim } from "../../relay/update-handler.ts";
import { BOT_DOWNLOAD_LIMIT_BYTES, type TelegramApi } from "../../telegram/wire/api.ts";
import { escapeHtml, escapeWithin, html, type Html } from "../../text/html.ts";
import { errorText } from "../../util/error-text.ts";
import { audioType } from "../../voice/audio-type.ts";
import { reveal } from "../../text/reveal.ts";
import type { IncomingFile } from "../../telegram/wire/updates.ts";
import type { ActivityTracker } from "../../notices/activity.ts";
import type { Chat } from "../core/chat.ts";
import type { ActingFile } from "../core/gate.ts";
import { filePart } from "./file-part.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { downloadFromPhone } from "./phone-download.ts";
import type { TalkBack, UserMessage } from "../runs/talk-back.ts";
import type { SessionTopics } from "../core/topics.ts";
import type { VoiceNotes } from "./voice-notes.ts";

export interface PhoneFilesDeps {
  telegram: TelegramApi;
  registry: Registry;
  topics: SessionTopics;
  log: Logger;
  t: Strings;
  links: Pick<InstanceLinks, "linkFor">;
  activity: Pick<ActivityTracker, "isBusy">;
  /** The prompt reached the session: the same receipt as for typed text. */
  talk: Pick<TalkBack, "acknowledge">;
  chat: Pick<Chat, "reply">;
  /** Where a document whose bytes are audio goes: it is transcribed, not attached. */
  voice: Pick<VoiceNotes, "heard">;
  /** Bytes a bot may download (Telegram's 20 MB unless a test says otherwise). */
  limitBytes?: number;
  /** How long to wait for the rest of an album (Telegram sends each of its items as a message). */
  quietMs: number;
}

interface Item {
  intent: ActingFile;
  userMessage: UserMessage;
}

interface Album {
  owner: MessageOwner;
  items: Item[];
  timer?: ReturnType<typeof setTimeout>;
}

/** A file name or type as it may appear in a refusal: marked, escaped, short. */
const SHOWN_NAME_LIMIT = 80;

export class PhoneFiles {
  readonly #deps: PhoneFilesDeps;
  readonly #limit: number;
  readonly #albums = new Map<string, Album>();

  constructor(deps: PhoneFilesDeps) {
    this.#deps = deps;
    this.#limit = deps.limitBytes ?? BOT_DOWNLOAD_LIMIT_BYTES;
  }

  /**
   * Whether the file is for one of this process' sessions: what taking it means (run once the claim
   * is granted), or undefined to leave it to another process sharing the bot. Deciding changes nothing.
   */
  claim(intent: ActingFile): Claim | undefined {
    const { registry, topics } = this.#deps;
    // Voice notes and audio files are voice-notes.ts'.
    if (intent.file.kind === "audio") return undefined;
    const replyTo = intent.replyTo === undefined ? undefined : registry.ownerOf({ chatId: intent.from.chatId, messageId: intent.replyTo });
    const inTopic = replyTo === undefined && intent.threadId !== undefined ? topics.ownerOf(intent.threadId) : undefined;
    const owner = replyTo ?? inTopic;
    if (!owner) return undefined;
    const userMessage: UserMessage = {
      chatId: intent.from.chatId,
      messageId: intent.messageId,
      ...(intent.threadId !== undefined ? { threadId: intent.threadId } : {}),
    };
    return async () => this.#collect(owner, { intent, userMessage });
  }

  /** A lone file goes now; an album's items wait for the rest of it. */
  #collect(owner: MessageOwner, item: Item): void {
    const take = (album: Album) =>
      void this.#take(album.owner, album.items).catch((error) => this.#deps.log.warn({ err: errorText(error) }, "could not take a file from the phone"));
    const { intent } = item;
    if (intent.albumId === undefined) {
      take({ owner, items: [item] });
      return;
    }
    const key = `${intent.from.chatId}:${intent.from.userId}:${intent.albumId}`;
    const album = this.#albums.get(key) ?? { owner, items: [] };
    this.#albums.set(key, album);
    album.items.push(item);
    clearTimeout(album.timer);
    album.timer = setTimeout(() => {
      this.#albums.delete(key);
      take(album);
    }, this.#deps.quietMs);
    album.timer.unref?.();
  }

  /** Stops waiting for the rest of albums (Hermes is stopping). */
  clear(): void {
    for (const album of this.#albums.values()) clearTimeout(album.timer);
    this.#albums.clear();
  }

  /** A file nobody claimed: it was not for a session, so say how to send it (a voice note, or a file). */
  async unclaimed(intent: ActingFile): Promise<void> {
    const { t } = this.#deps;
    await this.#deps.chat.reply(escapeHtml(intent.file.kind === "audio" ? t.voice.noSession : t.files.noSession), intent.messageId, intent.threadId);
  }

  /** One prompt for the files that can go (one, or an album's), with the caption; each refusal said on its own. */
  async #take(owner: MessageOwner, items: Item[]): Promise<void> {
    const parts: PromptPart[] = [];
    let bytes = 0;
    for (const item of items) {
      const taken = await this.#partOf(owner, item);
      if (!taken) continue;
      parts.push(taken.part);
      bytes += taken.bytes;
    }
    if (parts.length === 0) return;
    const captions = items.flatMap((item): PromptPart[] => (item.intent.caption !== undefined ? [{ type: "text", text: item.intent.caption }] : []));
    await this.#send(owner, [...captions, ...parts], items[0]!.userMessage, bytes);
  }

  /**
   * The file as a prompt part, or undefined once the phone has been told why not, or once a
   * document that is audio went to be transcribed.
   */
  async #partOf(owner: MessageOwner, { intent, userMessage }: Item): Promise<{ part: PromptPart; bytes: number } | undefined> {
    const { t } = this.#deps;
    const { file } = intent;
    const refuse = async (text: Html) => void (await this.#deps.chat.reply(text, userMessage.messageId, userMessage.threadId));
    if (file.kind === "other" || file.kind === "audio") return refuse(t.files.typeRefused(shownType(file, t)));
    const downloaded = await downloadFromPhone(this.#deps, file, this.#limit);
    if (!downloaded.ok) return refuse(downloaded.refusal);
    const { bytes } = downloaded;
    const audio = file.kind === "document" ? audioType(bytes) : undefined;
    if (audio) return void (await this.#deps.voice.heard({ owner }, userMessage, intent.caption, bytes, audio));
    const part = filePart(bytes, file, t);
    if (!part.ok) return refuse(t.files.typeRefused(shownType(file, t)));
    return { part: part.part, bytes: bytes.length };
  }

  async #send(owner: MessageOwner, parts: PromptPart[], userMessage: UserMessage, bytes: number): Promise<void> {
    const { t, log } = this.#deps;
    const link = this.#deps.links.linkFor(owner.directory);
    const busy = this.#deps.activity.isBusy(owner.sessionID);
    const outcome = link ? await link.opencode.prompt(owner.sessionID, parts) : ({ ok: false, gone: false, error: t.talk.notRunning } as const);
    log.info({ sessionID: owner.sessionID, outcome, busy, bytes, parts: parts.map((part) => part.type) }, "file from the phone sent to a session");
    if (outcome.ok) return this.#deps.talk.acknowledge(owner, userMessage, busy);
    const why = outcome.gone ? escapeHtml(t.talk.sessionGone) : escapeWithin(outcome.error, 300);
    await this.#deps.chat.reply(t.files.notSent(why), userMessage.messageId, userMessage.threadId);
  }
}

/** "photo", "video", or the document's type and name as the sender gave them (marked and escaped). */
function shownType(file: IncomingFile, t: Strings): Html {
  if (file.kind !== "document") return escapeHtml(file.type);
  const label = [file.mime, file.name].filter((part): part is string => !!part).join(" ") || file.type;
  return html`<code>${escapeWithin(reveal(label, t), SHOWN_NAME_LIMIT)}</code>`;
}
