// The shape of a bot token as @BotFather hands it out ("123456789:AA…"): the bot's numeric id, a
// colon, then the secret in [A-Za-z0-9_-]. Checked before the plugin or setup sends one anywhere,
// and looked for in what Hermes is about to quote back (a token pasted into the wrong setting).
const BOT_TOKEN_SHAPE = /^\d+:[A-Za-z0-9_-]+$/;
/** A token inside other text: a bot id, a colon and a secret long enough not to be a time or a ratio. */
const EMBEDDED_BOT_TOKEN = /\d+:[A-Za-z0-9_-]{8,}/;

/** Whether `text` has a bot token's shape (it says nothing about whether Telegram accepts it). */
export function looksLikeBotToken(text: string): boolean {
  return BOT_TOKEN_SHAPE.test(text);
}

/** Whether `text` holds something shaped like a bot token anywhere in it (never to be echoed). */
export function holdsBotToken(text: string): boolean {
  return EMBEDDED_BOT_TOKEN.test(text);
}
