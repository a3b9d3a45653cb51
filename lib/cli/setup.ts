// `opencode-hermes setup`: the guided setup. Checks the bot token (getMe), pairs with the user's
// chat through a one-time /start code (setup-wait.ts; never against a running Hermes), prints the
// exact environment lines, checks that the bot can post in that chat, and offers to add Hermes to
// the global opencode.json (setup-plugin-entry.ts). Guidance goes to stdout, failures to stderr.
import { parseArgs } from "node:util";
import { DEFAULT_API_ROOT, isHttpUrl } from "../config.ts";
import { looksLikeBotToken } from "../bot-token.ts";
import { ANYONE } from "../config-options.ts";
import { formatDurationDecimal, parseDuration } from "../duration.ts";
import { makeScrubber, secretsOf } from "../log.ts";
import { relayAddress } from "../relay/address.ts";
import { probeSocket } from "../relay/socket-file.ts";
import { createTelegramApi, TelegramApiError, type TelegramApi } from "../telegram/api.ts";
import { CALL_TIMEOUT_MS, LONG_POLL_SECONDS } from "../telegram/timeouts.ts";
import { escapeHtml } from "../telegram/html.ts";
import { withTimeout } from "../with-timeout.ts";
import { ask } from "./ask.ts";
import { EXIT, type CliIo } from "./io.ts";
import { newPairingCode, pairingLinks } from "./pairing.ts";
import { alreadyPolled, SetupFailure } from "./setup-failure.ts";
import { skipBacklog, waitForStart } from "./setup-wait.ts";
import { offerPluginEntry } from "./setup-plugin-entry.ts";
import { forTerminal } from "./terminal-text.ts";

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

export const DEFAULT_SETUP_TIMEOUT_MS = 5 * 60_000;
export const TEST_MESSAGE = "Hermes is set up: OpenCode's questions will appear here.";

/** What tests (and embedders) may change; everything has a sensible default. */
export interface SetupTuning {
  /** Builds the Bot API client (default: the telegraf-backed one). */
  api?: (token: string, apiRoot: string) => TelegramApi;
  /** How long to wait for /start when --timeout is not given. */
  timeoutMs?: number;
  /** Length of each long poll, in seconds (default 25). */
  pollSeconds?: number;
  /** Whether a Hermes on this machine already polls this bot (default: asks its relay socket). */
  hermesPollsHere?: (token: string, apiRoot: string) => Promise<boolean>;
  /** The one-time pairing code (default: 16 random bytes). */
  pairingCode?: () => string;
  now?: () => number;
}

/** `opencode-hermes setup [options]`: `args` are the arguments after "setup". */
export async function setup(args: string[], io: CliIo): Promise<number> {
  const tuning = io.setup ?? {};
  const stop = new AbortController();
  const removeHandlers = io.onSignal(() => stop.abort());
  try {
    return await run(args, io, tuning, stop.signal);
  } catch (error) {
    if (stop.signal.aborted) {
      io.err("opencode-hermes setup: stopped.");
      return EXIT.interrupted;
    }
    if (error instanceof SetupFailure) {
      for (const line of error.lines) io.err(line);
      return error.status;
    }
    io.err(`opencode-hermes setup: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.error;
  } finally {
    removeHandlers();
  }
}

async function run(args: string[], io: CliIo, tuning: SetupTuning, stop: AbortSignal): Promise<number> {
  const options = parseOptions(args, io, tuning);
  if (options === "help") {
    io.out(USAGE);
    return EXIT.ok;
  }
  const { apiRoot, timeoutMs } = options;
  const token = options.token ?? (await askToken(io, stop));
  const scrub = makeScrubber(secretsOf(token));
  const explain = (error: unknown) => scrub(error instanceof Error ? error.message : String(error));
  const api = (tuning.api ?? createTelegramApi)(token, apiRoot);

  // 1. The token.
  let username: string;
  try {
    const me = await boundedCall(api.getMe(), stop);
    username = me.username ?? String(me.id);
  } catch (error) {
    if (stop.aborted) throw error;
    throw new SetupFailure([getMeProblem(error, apiRoot, explain)]);
  }
  io.out(`✅ The token works: the bot is @${username}.`);

  // 2. Nobody else may be polling: setup would take the updates of a running Hermes.
  if (await (tuning.hermesPollsHere ?? hermesPollsHere)(token, apiRoot)) {
    throw new SetupFailure(alreadyPolled(username, "A running OpenCode with Hermes (or `opencode-hermes attach`) on this machine is already polling this bot."));
  }

  // 3. Pairing: only the /start carrying this setup's one-time code, sent after setup began.
  // Skipping the backlog is a second fence (the code is the first): if it fails, the wait below
  // meets the same error and explains it.
  let offset = 0;
  try {
    offset = await skipBacklog(api, AbortSignal.any([stop, AbortSignal.timeout(CALL_TIMEOUT_MS)]));
  } catch (error) {
    if (stop.aborted) throw error;
  }
  const code = (tuning.pairingCode ?? newPairingCode)();
  const links = pairingLinks(username, code);
  io.out("");
  io.out(`Now open this link on the phone and press Start: ${links.privateChat}`);
  io.out(`For a group: open ${links.group} and pick the group (or add @${username} to the group first and send "/start ${code}" there).`);
  io.out(`The link works for this setup only; a /start without it is ignored.`);
  io.out(`Waiting up to ${formatDurationDecimal(timeoutMs)} for /start… (Ctrl-C to stop)`);
  const chat = await waitForStart({
    api,
    io,
    username,
    code,
    offset,
    timeoutMs,
    timeoutText: formatDurationDecimal(timeoutMs),
    pollSeconds: tuning.pollSeconds ?? LONG_POLL_SECONDS,
    stop,
    explain,
    apiRoot,
    link: links.privateChat,
    now: tuning.now ?? Date.now,
  });

  // The offset after the /start confirms it, so a Hermes started later doesn't get it again.
  try {
    await api.getUpdates(chat.updateId + 1, 0, AbortSignal.any([stop, AbortSignal.timeout(CALL_TIMEOUT_MS)]));
  } catch (error) {
    if (stop.aborted) throw error;
    io.err(`(Could not confirm the /start with Telegram: ${explain(error)}. Hermes may answer it once more when it starts.)`);
  }
  const group = chat.chatType !== "private" || chat.chatId < 0;
  let confirmation: unknown;
  try {
    const lines = [`✅ Found this chat: <code>${chat.chatId}</code>.`, `Your user id is <code>${chat.userId}</code>. Finish the setup in the terminal.`];
    await boundedCall(api.sendMessage(chat.chatId, lines.join("\n"), { replyTo: chat.messageId }), stop);
  } catch (error) {
    if (stop.aborted) throw error;
    confirmation = error;
  }

  // 4. What to set.
  const where = group ? `the group${chat.chatTitle ? ` "${forTerminal(chat.chatTitle)}"` : ""}` : `a private chat with ${forTerminal(chat.userName)}`;
  io.out("");
  io.out(`✅ Found the chat: ${chat.chatId} (${where}). Your user id: ${chat.userId}.`);
  io.out("");
  io.out("Set these variables (add them to your shell profile, e.g. ~/.bashrc or ~/.zshrc):");
  io.out("");
  io.out(`export HERMES_TELEGRAM_TOKEN=${token}`);
  io.out(`export HERMES_TELEGRAM_CHAT_ID=${chat.chatId}`);
  if (group) io.out(`export HERMES_TELEGRAM_ALLOWED_USERS=${chat.userId}`);
  if (apiRoot !== DEFAULT_API_ROOT) io.out(`export HERMES_TELEGRAM_API_ROOT=${apiRoot}`);
  if (group) {
    io.out("");
    io.out(`(HERMES_TELEGRAM_ALLOWED_USERS: only you may answer in the group; add more user ids separated by commas, or set it to "${ANYONE}" to let every member of the group answer. A group without it leaves Hermes off.)`);
  }
  io.out("");

  // 5. Can the bot post there?
  try {
    await boundedCall(api.sendMessage(chat.chatId, escapeHtml(TEST_MESSAGE)), stop);
  } catch (error) {
    if (stop.aborted) throw error;
    const lines = [`❌ The bot could not post in chat ${chat.chatId}: ${explain(error)}.`, postHint(error, username, group, apiRoot)];
    if (confirmation !== undefined && explain(confirmation) !== explain(error)) lines.push(`(Its reply to /start failed too: ${explain(confirmation)}.)`);
    throw new SetupFailure(lines);
  }
  if (confirmation !== undefined) io.err(`(The bot's reply to /start failed: ${explain(confirmation)}; the test message went through.)`);
  io.out(`✅ The bot can post in that chat: it just sent a test message.`);
  io.out("");

  // 6. Load it in OpenCode.
  const entry = await offerPluginEntry(io, { yes: options.yes, now: tuning.now ?? Date.now }, stop);
  if (stop.aborted) throw new Error("stopped");
  io.out("");
  io.out(
    entry === "written" || entry === "present"
      ? "Done. Set the variables above (in your shell profile), then restart OpenCode: its questions will come to Telegram."
      : "Almost done. Add Hermes to opencode.json as shown, set the variables above (in your shell profile), then restart OpenCode.",
  );
  return EXIT.ok;
}

// ── Options and the token ──────────────────────────────────────────────────────────────────────

function parseOptions(args: string[], io: CliIo, tuning: SetupTuning): "help" | { token?: string; apiRoot: string; timeoutMs: number; yes: boolean } {
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
    if (parsed === undefined || parsed <= 0) throw usage(`opencode-hermes setup: --timeout must be milliseconds or a duration like 90s or 5m (got "${values.timeout}").`);
    timeoutMs = parsed;
  }
  return { ...(token !== undefined ? { token } : {}), apiRoot, timeoutMs, yes: values.yes === true };
}

function usage(...lines: string[]): SetupFailure {
  return new SetupFailure(lines.length > 1 ? [`${lines[0]}\n\n${lines.slice(1).join("\n")}`] : lines, EXIT.usage);
}

/** Asks for the token on a terminal; without one there is nobody to ask. */
async function askToken(io: CliIo, stop: AbortSignal): Promise<string> {
  const input = io.input;
  if (!input?.isTTY) {
    throw usage(
      "opencode-hermes setup: no bot token. Pass --token 123456789:AA… or set HERMES_TELEGRAM_TOKEN (create a bot with @BotFather: https://t.me/BotFather, send /newbot and copy its token).",
    );
  }
  io.out("Create a bot with @BotFather (https://t.me/BotFather): send /newbot and copy the token it gives you.");
  for (let attempt = 1; ; attempt++) {
    const answer = await ask(input, io.prompt, "Bot token: ", stop);
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

// ── Messages ───────────────────────────────────────────────────────────────────────────────────

function getMeProblem(error: unknown, apiRoot: string, explain: (error: unknown) => string): string {
  if (error instanceof TelegramApiError) {
    if (error.code === 401 || error.code === 404) {
      return `Telegram rejected the token (${explain(error)}): the token is wrong or was revoked. Copy it again from @BotFather (/mybots → your bot → API Token).`;
    }
    if (error.code === 0) {
      const detail = explain(error).replace(/^Telegram unreachable: /, "");
      return `opencode-hermes setup: can't reach Telegram at ${apiRoot} (${detail}). Check the network (or --api-root / HERMES_TELEGRAM_API_ROOT).`;
    }
  }
  return `opencode-hermes setup: Telegram's getMe failed: ${explain(error)}.`;
}

function postHint(error: unknown, username: string, group: boolean, apiRoot: string): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = error instanceof TelegramApiError ? error.code : 0;
  if (code === 0) return `Telegram at ${apiRoot} did not answer; run opencode-hermes setup again when the network is back.`;
  if (/upgraded to a supergroup/i.test(text)) return "The group became a supergroup (its id changed): send /start there and run opencode-hermes setup again.";
  if (/blocked by the user/i.test(text)) return `You blocked @${username}: unblock it in Telegram, then run opencode-hermes setup again.`;
  if (/kicked|not a member|chat not found/i.test(text)) return `Add @${username} to the ${group ? "group" : "chat"} again, then run opencode-hermes setup again.`;
  if (/rights|CHAT_WRITE_FORBIDDEN|CHAT_RESTRICTED|not allowed/i.test(text)) {
    return `@${username} may not send messages there: let members send messages, or make the bot an admin, then run opencode-hermes setup again.`;
  }
  return "Fix that in Telegram, then run opencode-hermes setup again.";
}

// ── Helpers ────────────────────────────────────────────────────────────────────────────────────

/** Whether a Hermes on this machine leads the polling of this bot: its relay socket answers. */
export async function hermesPollsHere(token: string, apiRoot: string): Promise<boolean> {
  return (await probeSocket(relayAddress(token, apiRoot))) === "answers";
}

/** A single Bot API call: abandoned on Ctrl-C or after CALL_TIMEOUT_MS (as a network error). */
function boundedCall<T>(work: Promise<T>, stop: AbortSignal): Promise<T> {
  return withTimeout(work, CALL_TIMEOUT_MS, () => new TelegramApiError(0, `no answer within ${CALL_TIMEOUT_MS / 1000} s`), stop);
}


