// What the process that polls tells Telegram about the bot, and learns from it: the command menu
// (setMyCommands) and the bot's own @username (getMe, for "/status@bot" in groups). Sent once per
// lead, by the bridge or, before the bridge has loaded, by on-demand-bridge.ts.
import { errorText } from "../error-text.ts";
import type { Strings } from "../i18n/catalog.ts";
import type { Logger } from "../log.ts";
import type { TelegramApi } from "../telegram/api.ts";
import { commandsFor } from "../telegram/bot-commands.ts";

/** Registers the commands in Telegram's menu and resolves to the bot's @username (undefined when Telegram did not say). */
export function announceBot(telegram: Pick<TelegramApi, "setCommands" | "getMe">, t: Strings, log: Logger): Promise<string | undefined> {
  void telegram.setCommands(commandsFor(t)).catch((error) => log.warn({ err: errorText(error) }, "could not register the bot's commands"));
  return telegram
    .getMe()
    .then((me) => me.username)
    .catch(() => undefined);
}
