// What `opencode-hermes setup` says when Telegram refuses one of its steps: the likely cause and
// what to do about it, in the user's terms.
import { TelegramApiError } from "../telegram/wire/api.ts";

/** Why getMe failed: a wrong token, an unreachable Bot API server, or Telegram's own words. */
export function getMeProblem(error: unknown, apiRoot: string, explain: (error: unknown) => string): string {
  if (error instanceof TelegramApiError) {
    if (error.code === 401 || error.code === 404) {
      return (
        `Telegram rejected the token (${explain(error)}): the token is wrong or was revoked. Copy it again ` +
        `from @BotFather (/mybots → your bot → API Token).`
      );
    }
    if (error.code === 0) {
      const detail = explain(error).replace(/^Telegram unreachable: /, "");
      return `opencode-hermes setup: can't reach Telegram at ${apiRoot} (${detail}). Check the network (or --api-root / HERMES_TELEGRAM_API_ROOT).`;
    }
  }
  return `opencode-hermes setup: Telegram's getMe failed: ${explain(error)}.`;
}

/** What to do when the bot could not post in the paired chat. */
export function postHint(error: unknown, username: string, group: boolean, apiRoot: string): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = error instanceof TelegramApiError ? error.code : 0;
  if (code === 0) return `Telegram at ${apiRoot} did not answer; run opencode-hermes setup again when the network is back.`;
  if (/upgraded to a supergroup/i.test(text)) return "The group became a supergroup (its id changed): send /start there and run opencode-hermes setup again.";
  if (/blocked by the user/i.test(text)) return `You blocked @${username}: unblock it in Telegram, then run opencode-hermes setup again.`;
  if (/kicked|not a member|chat not found/i.test(text))
    return `Add @${username} to the ${group ? "group" : "chat"} again, then run opencode-hermes setup again.`;
  if (/rights|CHAT_WRITE_FORBIDDEN|CHAT_RESTRICTED|not allowed/i.test(text)) {
    return `@${username} may not send messages there: let members send messages, or make the bot an admin, then run opencode-hermes setup again.`;
  }
  return "Fix that in Telegram, then run opencode-hermes setup again.";
}
