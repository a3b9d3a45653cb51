// The bot's command menu (setMyCommands), in the chat's language. Its own module: the process that
// polls registers it at start, before anything that renders /status or /help is loaded. Pure.
import type { Strings } from "../i18n/catalog.ts";

/** Every command the bot answers, in menu order. */
const BOT_COMMANDS = ["new", "sessions", "model", "agent", "status", "pending", "stop", "help", "start"] as const;

export function commandsFor(t: Strings): Array<{ command: string; description: string }> {
  return BOT_COMMANDS.map((command) => ({ command, description: t.commands[command] }));
}
