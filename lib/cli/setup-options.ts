// What `opencode-hermes setup` is told: its usage text, its arguments (else the environment), and
// the bot token, asked for on a terminal when neither gives one. A usage error is a SetupFailure
// with exit status 64.
import { parseArgs } from "node:util";
import { looksLikeBotToken } from "../config/bot-token.ts";
import { DEFAULT_API_ROOT, isHttpUrl } from "../config/config.ts";
import { parseDuration } from "../i18n/duration.ts";
import { askSecret } from "./ask.ts";
import { EXIT, type CliIo } from "./io.ts";
import { SetupFailure } from "./setup-failure.ts";
import type { SetupTuning } from "./setup-tuning.ts";

export const USAGE = `Usage: opencode-hermes setup [--token TOKEN] [--api-root URL] [--timeout DURATION] [--yes]

Guided setup: checks the bot token, prints a one-time link that pairs the bot with your chat (a
private chat or the group you want to use), prints the environment variables to set, checks that
the bot can post in that chat, and offers to add Hermes to your global opencode.json.

  --token TOKEN       the bot token from @BotFather (default: $HERMES_TELEGRAM_TOKEN; asked for
                      on a terminal when neither is given)
  --api-root URL      Bot API server (default: $HERMES_TELEGRAM_API_ROOT, else ${DEFAULT_API_ROOT})
  --timeout DURATION  how long to wait for /start: milliseconds or 90s / 5m (default 5m)
  --yes, -y           add Hermes to opencode.json without asking (the change is still shown,
                      and the old file is kept as a backup)

Don't run it while an OpenCode with Hermes is running with the same bot: that one already answers
/start with the chat id. Exit status: 0 set up, 1 failed, 64 usage, 130 interrupted.`;

const DEFAULT_SETUP_TIMEOUT_MS = 5 * 60_000;

export interface SetupOptions {
  token?: string;
  apiRoot: string;
  timeoutMs: number;
  yes: boolean;
}

export function parseOptions(args: string[], io: CliIo, tuning: SetupTuning): "help" | SetupOptions {
  let values: { token?: string; "api-root"?: string; timeout?: string; yes?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        token: { type: "string" },
        "api-root": { type: "string" },
        timeout: { type: "string" },
        yes: { type: "boolean", short: "y" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw usage(`opencode-hermes: ${error instanceof Error ? error.message : String(error)}`, USAGE);
  }
  if (values.help) return "help";

  const token = (values.token ?? io.env.HERMES_TELEGRAM_TOKEN)?.trim() || undefined;
  if (token !== undefined && !looksLikeBotToken(token)) {
    const source = values.token !== undefined ? "--token" : "HERMES_TELEGRAM_TOKEN";
    throw usage(`opencode-hermes setup: ${source} does not look like a bot token (expected 123456789:AA…, as @BotFather gives it).`);
  }
  const apiRoot = (values["api-root"] ?? io.env.HERMES_TELEGRAM_API_ROOT)?.trim().replace(/\/+$/, "") || DEFAULT_API_ROOT;
  if (!isHttpUrl(apiRoot)) throw usage(`opencode-hermes setup: the Bot API root must be an http(s) URL (got "${apiRoot}").`);
  let timeoutMs = tuning.timeoutMs ?? DEFAULT_SETUP_TIMEOUT_MS;
  if (values.timeout !== undefined) {
    const parsed = parseDuration(values.timeout);
    if (parsed === undefined || parsed <= 0)
      throw usage(`opencode-hermes setup: --timeout must be milliseconds or a duration like 90s or 5m (got "${values.timeout}").`);
    timeoutMs = parsed;
  }
  return { ...(token !== undefined ? { token } : {}), apiRoot, timeoutMs, yes: values.yes === true };
}

function usage(...lines: string[]): SetupFailure {
  return new SetupFailure(lines.length > 1 ? [`${lines[0]}\n\n${lines.slice(1).join("\n")}`] : lines, EXIT.usage);
}

/** Asks for the token on a terminal; without one there is nobody to ask. */
export async function askToken(io: CliIo, stop: AbortSignal): Promise<string> {
  const input = io.input;
  if (!input?.isTTY) {
    throw usage(
      "opencode-hermes setup: no bot token. Pass --token 123456789:AA… or set HERMES_TELEGRAM_TOKEN (create " +
        "a bot with @BotFather: https://t.me/BotFather, send /newbot and copy its token).",
    );
  }
  io.out("Create a bot with @BotFather (https://t.me/BotFather): send /newbot and copy the token it gives you.");
  for (let attempt = 1; ; attempt++) {
    const answer = await askSecret(input, io.prompt, "Bot token (not shown as you type): ", stop);
    if (answer === null) throw new SetupFailure(["opencode-hermes setup: stopped."], EXIT.interrupted);
    if (answer === undefined) {
      if (stop.aborted) throw new Error("stopped");
      throw usage("opencode-hermes setup: no bot token given.");
    }
    const token = answer.trim();
    if (looksLikeBotToken(token)) return token;
    if (attempt >= 3) throw usage("opencode-hermes setup: that does not look like a bot token (expected 123456789:AA…).");
    io.out(token ? "That does not look like a bot token (expected 123456789:AA…). Try again." : "The token is required.");
  }
}
