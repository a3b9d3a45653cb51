// How a step of `opencode-hermes setup` gives up: the lines to print (stderr) and the exit status.
import { EXIT } from "./io.ts";

export class SetupFailure extends Error {
  constructor(
    readonly lines: string[],
    readonly status: number = EXIT.error,
  ) {
    super(lines.join("\n"));
  }
}

/** What to say when another program polls the bot: setup would take its updates. */
export function alreadyPolled(username: string, why: string): string[] {
  return [
    why,
    `Setup won't take the bot's messages from it. Send /start to @${username} in Telegram instead ` +
      `(https://t.me/${username}, or in your group): Hermes itself answers /start with the chat id.`,
    "Or quit that OpenCode (and any opencode-hermes attach) and run opencode-hermes setup again.",
  ];
}
