// /model and /agent: what the phone's prompts use. Every process sharing the bot adds what its
// OpenCode instances report (gathered like /status), and the one that polls answers with a picker, a
// page at a time, the one in use marked. A tap on it is gathered too: each process applies it
// (if its OpenCode reports the tapped one; otherwise it falls back to OpenCode's default, never to an
// older choice), so the choice holds whichever process sends the next prompt. `/model default` and
// `/agent plan` choose without a picker. Only updates from those who may act arrive here (lib/bridge/core/gate.ts).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { decodeCallback, type CallbackData } from "../../telegram/codec.ts";
import { escapeHtml, html, type Html } from "../../text/html.ts";
import { Priority, type Outbox } from "../../telegram/wire/outbox.ts";
import { CHOICES_PER_PAGE, currentText, DEFAULT_KEY, renderChoicePicker, type ChoiceKind } from "../../telegram/render/render-choice.ts";
import { errorText } from "../../util/error-text.ts";
import type { Chat } from "../core/chat.ts";
import { mergeChoiceParts, parseChoicePart, type ChoicePart } from "./choice-part.ts";
import type { ActingCommand, ActingTap } from "../core/gate.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import { agentChoice, modelChoice, namesLabel, type Choosable, type PromptChoices } from "../core/prompt-choices.ts";

export interface ChoiceCommandDeps {
  telegram: TelegramApi;
  outbox: Outbox;
  log: Logger;
  t: Strings;
  chatId: number | undefined;
  links: Pick<InstanceLinks, "linkFor" | "directories">;
  chat: Pick<Chat, "send" | "answerCallback">;
  choices: PromptChoices;
}

const DEFAULT_WORD = "default";
const NOT_ANSWERED = "could not answer /model or /agent";

export class ChoiceCommands {
  readonly #deps: ChoiceCommandDeps;
  /** What this process used before applying a tap, by callback id (the answer says whether it changed). */
  readonly #before = new Map<string, string | undefined>();

  constructor(deps: ChoiceCommandDeps) {
    this.#deps = deps;
  }

  gathers(intent: ActingCommand): boolean {
    return kindOfCommand(intent.name) !== undefined;
  }

  gathersTap(intent: ActingTap): boolean {
    return tapOf(intent) !== undefined;
  }

  /** This process' list; `/model <name>` and `/model default` choose first. */
  async partFor(intent: ActingCommand): Promise<ChoicePart | undefined> {
    const kind = kindOfCommand(intent.name);
    if (!kind) return undefined;
    const available = await this.#available(kind);
    const typed = intent.args;
    if (typed.toLowerCase() === DEFAULT_WORD) this.#deps.choices.set(kind, undefined);
    else if (typed !== "") {
      const named = available.find((choosable) => namesLabel(choosable.label, typed));
      if (named) this.#deps.choices.set(kind, named);
    }
    return this.#part(kind, available);
  }

  /** This process' list; a tap on an entry is applied here first. */
  async tapPart(intent: ActingTap): Promise<ChoicePart | undefined> {
    const tap = tapOf(intent);
    if (!tap) return undefined;
    const available = await this.#available(tap.kind);
    if (!tap.page) {
      this.#before.set(intent.id, this.#deps.choices.current(tap.kind)?.key);
      if (this.#before.size > 100) this.#before.delete(this.#before.keys().next().value!);
      const chosen = tap.data.key === DEFAULT_KEY ? undefined : available.find((choosable) => choosable.key === tap.data.key);
      if (tap.data.key !== DEFAULT_KEY && !chosen)
        this.#deps.log.info({ kind: tap.kind }, "the chosen one is not reported here: OpenCode's default for this process");
      this.#deps.choices.set(tap.kind, chosen);
    }
    return this.#part(tap.kind, available);
  }

  unclaimed(intent: ActingCommand, parts: readonly unknown[] | undefined): Promise<void> | undefined {
    const kind = kindOfCommand(intent.name);
    return kind ? this.#answer(intent, kind, this.#merge(parts)) : undefined;
  }

  unclaimedTap(intent: ActingTap, parts: readonly unknown[] | undefined): Promise<void> | undefined {
    const tap = tapOf(intent);
    return tap ? this.#answerTap(intent, tap, this.#merge(parts)) : undefined;
  }

  /** /status: what the phone's prompts use (escaped HTML). */
  statusLine(): Html {
    const { t, choices } = this.#deps;
    const text = (kind: ChoiceKind) => {
      const current = choices.current(kind);
      return current ? currentText({ items: [current], current: current.key }, t) : escapeHtml(t.steer.openCodeDefault);
    };
    return t.steer.status(text("model"), text("agent"));
  }

  async #answer(intent: ActingCommand, kind: ChoiceKind, merged: ChoicePart): Promise<void> {
    const { t } = this.#deps;
    const typed = intent.args;
    const picker = renderChoicePicker(kind, merged, pageOf(merged), t);
    const chosenNow = typed.toLowerCase() === DEFAULT_WORD || merged.items.some((item) => item.key === merged.current && namesLabel(item.label, typed));
    const text = chosenNow || typed === "" ? picker.text : html`${t.steer.notFound(escapeHtml(typed))}\n${picker.text}`;
    await this.#deps.chat.send(text, { replyTo: intent.messageId, ...(chosenNow ? {} : { keyboard: picker.keyboard }) }, Priority.Answer, NOT_ANSWERED);
  }

  async #answerTap(intent: ActingTap, tap: ChoiceTap, merged: ChoicePart): Promise<void> {
    const { t, chat, outbox, telegram } = this.#deps;
    const label = merged.items.find((item) => item.key === merged.current)?.label ?? t.steer.openCodeDefault;
    const changed = tap.page || this.#before.get(intent.id) !== merged.current;
    this.#before.delete(intent.id);
    await chat.answerCallback(intent.id, tap.page ? undefined : t.steer.chosen(label));
    const chatId = intent.from.chatId;
    const messageId = intent.messageId;
    if (!changed || chatId === undefined || messageId === undefined) return;
    const picker = renderChoicePicker(tap.kind, merged, tap.page ? tap.data.question : pageOf(merged), t);
    await outbox
      .edit(chatId, messageId, () => () => telegram.editMessage(chatId, messageId, picker.text, picker.keyboard), Priority.Answer)
      .catch((error) => this.#deps.log.warn({ err: errorText(error) }, "could not update a picker"));
  }

  #merge(received: readonly unknown[] | undefined): ChoicePart {
    const parts = (received ?? []).map(parseChoicePart).filter((part) => part !== undefined);
    if (received && parts.length < received.length)
      this.#deps.log.warn({ dropped: received.length - parts.length }, "dropped a malformed /model or /agent part");
    return mergeChoiceParts(parts);
  }

  #part(kind: ChoiceKind, available: readonly Choosable[]): ChoicePart {
    const current = this.#deps.choices.current(kind)?.key;
    return { items: available.map(({ key, label }) => ({ key, label })), ...(current !== undefined ? { current } : {}) };
  }

  /** What this process' OpenCode instances report, each once. */
  async #available(kind: ChoiceKind): Promise<Choosable[]> {
    const { links, log } = this.#deps;
    const lists = await Promise.all(
      links.directories().map(async (directory) => {
        const opencode = links.linkFor(directory)?.opencode;
        try {
          if (!opencode) return [];
          return kind === "model" ? (await opencode.listModels()).map(modelChoice) : (await opencode.listAgents()).map(agentChoice);
        } catch (error) {
          log.warn({ err: errorText(error), directory, kind }, "could not list what OpenCode offers");
          return [];
        }
      }),
    );
    const byKey = new Map<string, Choosable>();
    for (const choosable of lists.flat()) if (!byKey.has(choosable.key)) byKey.set(choosable.key, choosable);
    return [...byKey.values()];
  }
}

interface ChoiceTap {
  kind: ChoiceKind;
  page: boolean;
  data: CallbackData;
}

function kindOfCommand(name: string): ChoiceKind | undefined {
  return name === "model" || name === "agent" ? name : undefined;
}

function tapOf(intent: ActingTap): ChoiceTap | undefined {
  const data = decodeCallback(intent.data);
  switch (data?.action) {
    case "model":
    case "agent":
      return { kind: data.action, page: false, data };
    case "modelPage":
      return { kind: "model", page: true, data };
    case "agentPage":
      return { kind: "agent", page: true, data };
    default:
      return undefined;
  }
}

/** The page that shows the one in use. */
function pageOf(list: ChoicePart): number {
  const index = list.items.findIndex((item) => item.key === list.current);
  return index < 0 ? 0 : Math.floor(index / CHOICES_PER_PAGE);
}
