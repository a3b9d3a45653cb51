// Undo's routes on the gate: its taps are claimed with Stop's (input/user-input.ts); here, `/undo`
// in reply to a session's message (a reply starting with "/" arrives as text) is claimed by the
// process whose message it is, and a bare /undo (or one replying to no session's message) is
// answered with how to use it. Added before typed text's route and Commands' (which answers
// any command it does not know with /help).
import type { Strings } from "../../i18n/catalog.ts";
import type { Registry } from "../../registry/registry.ts";
import type { Chat } from "../core/chat.ts";
import type { Gate } from "../core/gate.ts";
import { isUndoCommand, type UndoControl } from "./undo-control.ts";

export interface UndoRouteDeps {
  registry: Pick<Registry, "ownerOf">;
  chat: Pick<Chat, "reply">;
  t: Strings;
}

export function routeUndo(gate: Gate, undos: Pick<UndoControl, "offer">, { registry, chat, t }: UndoRouteDeps): void {
  gate.route("text", {
    claim: (text) => {
      if (text.replyTo === undefined || !isUndoCommand(text.text)) return undefined;
      const owner = registry.ownerOf({ chatId: text.from.chatId, messageId: text.replyTo });
      return owner ? () => undos.offer(owner, text.messageId) : undefined;
    },
    unclaimed: (text) => (isUndoCommand(text.text) ? chat.reply(t.undo.howTo, text.messageId, text.threadId) : undefined),
  });
  gate.route("command", { unclaimed: (command) => (command.name === "undo" ? chat.reply(t.undo.howTo, command.messageId) : undefined) });
}
