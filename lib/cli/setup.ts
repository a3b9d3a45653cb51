// `opencode-hermes setup`: the guided setup. Checks the bot token (getMe), pairs with the user's
// chat through a one-time /start code (setup-wait.ts; never against a running Hermes), prints the
// exact environment lines, checks that the bot can post in that chat, and offers to add Hermes to
// the global opencode.json (setup-plugin-entry.ts). Guidance goes to stdout, failures to stderr.
import { DEFAULT_API_ROOT } from "../config/config.ts";
import { ANYONE } from "../config/config-options.ts";
import { formatDurationDecimal } from "../i18n/duration.ts";
import { makeScrubber, secretsOf } from "../system/log.ts";
import { createTelegramApi, TelegramApiError } from "../telegram/wire/api.ts";
import { escapeHtml, html } from "../text/html.ts";
import { CALL_TIMEOUT_MS, LONG_POLL_SECONDS } from "../telegram/wire/timeouts.ts";
import { withTimeout } from "../util/with-timeout.ts";
import { EXIT, type CliIo } from "./io.ts";
import { newPairingCode, pairingLinks } from "./pairing.ts";
import { hermesPollsHere } from "./running-hermes.ts";
import { alreadyPolled, SetupFailure } from "./setup-failure.ts";
import { askToken, parseOptions, USAGE } from "./setup-options.ts";
import { getMeProblem, postHint } from "./setup-problems.ts";
import type { SetupTuning } from "./setup-tuning.ts";
import { skipBacklog, waitForStart } from "./setup-wait.ts";
import { offerPluginEntry } from "./setup-plugin-entry.ts";
import { opencodeVersion } from "./opencode-version.ts";
import { forTerminal } from "./terminal-text.ts";

const TEST_MESSAGE = "Hermes is set up: OpenCode's questions will appear here.";

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
    throw new SetupFailure(
      alreadyPolled(username, "A running OpenCode with Hermes (or `opencode-hermes attach`) on this machine is already polling this bot."),
    );
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
    const text = html`✅ Found this chat: <code>${chat.chatId}</code>.\nYour user id is <code>${chat.userId}</code>. Finish the setup in the terminal.`;
    await boundedCall(api.sendMessage(chat.chatId, text, { replyTo: chat.messageId }), stop);
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
    io.out(
      `(HERMES_TELEGRAM_ALLOWED_USERS: only you may answer in the group; add more user ids separated by ` +
        `commas, or set it to "${ANYONE}" to let every member of the group answer. A group without it leaves Hermes off.)`,
    );
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
  const found = tuning.opencodeVersion ? await tuning.opencodeVersion() : await opencodeVersion(io.env).then((f) => ("version" in f ? f.version : undefined));
  const entry = await offerPluginEntry(io, { yes: options.yes, now: tuning.now ?? Date.now, ...(found ? { opencodeVersion: found } : {}) }, stop);
  if (stop.aborted) throw new Error("stopped");
  io.out("");
  io.out(
    entry === "written" || entry === "present"
      ? "Done. Set the variables above (in your shell profile), then restart OpenCode: its questions will come to Telegram."
      : "Almost done. Add Hermes to opencode.json as shown, set the variables above (in your shell profile), then restart OpenCode.",
  );
  return EXIT.ok;
}

// ── Helpers ────────────────────────────────────────────────────────────────────────────────────

/** A single Bot API call: abandoned on Ctrl-C or after CALL_TIMEOUT_MS (as a network error). */
function boundedCall<T>(work: Promise<T>, stop: AbortSignal): Promise<T> {
  return withTimeout(work, CALL_TIMEOUT_MS, () => new TelegramApiError(0, `no answer within ${CALL_TIMEOUT_MS / 1000} s`), stop);
}
