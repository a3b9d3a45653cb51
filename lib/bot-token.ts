// The shape of a bot token as @BotFather hands it out ("123456789:AA…"): the bot's numeric id, a
// colon, then the secret in [A-Za-z0-9_-]. Checked before the plugin or setup sends one anywhere.
const BOT_TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]+$/;

/** Whether `text` has a bot token's shape (it says nothing about whether Telegram accepts it). */
export function looksLikeBotToken(text: string): boolean {
  return BOT_TOKEN_SHAPE.test(text);
}
