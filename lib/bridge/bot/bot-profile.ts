// What the process that polls tells Telegram about the bot, and learns from it: the command menu
// (setMyCommands) and the bot's own @username (getMe, for "/status@bot" in groups). Sent by the
// bridge once per lead; a process that leads before its bridge is loaded sends it when the bridge
// loads (lib/bridge/on-demand-bridge.ts): a waiting OpenCode makes no Bot API call but the long poll.
import { errorText } from "../../util/error-text.ts";
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { TelegramApi } from "../../telegram/wire/api.ts";
import { commandsFor } from "../../telegram/render/render-status.ts";

/** Registers the commands in Telegram's menu and resolves to the bot's @username (undefined when Telegram did not say). */
export function announceBot(telegram: Pick<TelegramApi, "setCommands" | "getMe">, t: Strings, log: Logger): Promise<string | undefined> {
  void telegram.setCommands(commandsFor(t)).catch((error) => log.warn({ err: errorText(error) }, "could not register the bot's commands"));
  return telegram
    .getMe()
    .then((me) => me.username)
    .catch(() => undefined);
}
