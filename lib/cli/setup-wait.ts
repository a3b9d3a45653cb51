// The waiting step of `opencode-hermes setup`: long-polls getUpdates (never against a running
// Hermes) until the /start with this setup's pairing code arrives. Updates that were already
// waiting when setup began are skipped by offset, so an old /start (anyone's) can't pair.
import { formatDurationDecimal } from "../i18n/duration.ts";
import { isRecord } from "../util/is-record.ts";
import { sleep } from "../util/sleep.ts";
import { TelegramApiError, type TelegramApi } from "../telegram/wire/api.ts";
import { LONG_POLL_GRACE_MS } from "../telegram/wire/timeouts.ts";
import type { CliIo } from "./io.ts";
import { pairingStart, type PairedChat } from "./pairing.ts";
import { alreadyPolled, SetupFailure } from "./setup-failure.ts";
import { forTerminal } from "./terminal-text.ts";

export interface WaitContext {
  api: TelegramApi;
  io: CliIo;
  username: string;
  code: string;
  /** The offset from which updates are newer than setup's start (see skipBacklog). */
  offset: number;
  timeoutMs: number;
  pollSeconds: number;
  stop: AbortSignal;
  explain: (error: unknown) => string;
  apiRoot: string;
  link: string;
  now: () => number;
}

/**
 * The offset past every update already waiting: Telegram's offset -1 returns only the latest one
 * (and forgets the earlier ones), so one call finds where "newer than now" begins.
 */
export async function skipBacklog(api: TelegramApi, signal: AbortSignal): Promise<number> {
  const last = (await api.getUpdates(-1, 0, signal)).at(-1);
  return isRecord(last) && typeof last.update_id === "number" ? last.update_id + 1 : 0;
}

export async function waitForStart(ctx: WaitContext): Promise<PairedChat & { updateId: number }> {
  const { api, io, stop, explain } = ctx;
  const deadline = ctx.now() + ctx.timeoutMs;
  let offset = ctx.offset;
  let troubleReported = false;
  let otherReported = false;
  for (;;) {
    const left = deadline - ctx.now();
    if (left <= 0) {
      throw new SetupFailure([
        `Nobody opened the setup link of @${ctx.username} and pressed Start within ${formatDurationDecimal(ctx.timeoutMs)}.`,
        `Run opencode-hermes setup again and open the new link it prints (each link works for one setup only). --timeout gives you longer.`,
      ]);
    }
    const seconds = Math.min(ctx.pollSeconds, Math.ceil(left / 1000));
    let updates: unknown[];
    try {
      updates = await api.getUpdates(offset, seconds, AbortSignal.any([stop, AbortSignal.timeout(seconds * 1000 + LONG_POLL_GRACE_MS)]));
    } catch (error) {
      if (stop.aborted) throw error;
      if (error instanceof TelegramApiError && error.code === 409) {
        throw new SetupFailure(
          /webhook/i.test(error.message)
            ? [
                `@${ctx.username} has a webhook set, so its messages can't be polled (Telegram answers 409 Conflict: ${explain(error)}).`,
                "Hermes polls too: remove the webhook (Bot API deleteWebhook) if nothing else needs it, or use another bot.",
              ]
            : alreadyPolled(
                ctx.username,
                "Another program is already polling this bot (Telegram answers 409 Conflict): most likely a running OpenCode with Hermes.",
              ),
        );
      }
      if (error instanceof TelegramApiError && (error.code === 401 || error.code === 404)) {
        throw new SetupFailure([
          `Telegram no longer accepts the token (${explain(error)}): it was revoked or changed. Copy the current one from @BotFather (/mybots → API Token).`,
        ]);
      }
      if (error instanceof TelegramApiError && !error.isTransient) {
        throw new SetupFailure([`Telegram refused to deliver the bot's messages: ${explain(error)}.`]);
      }
      if (!troubleReported) io.err(`(Telegram at ${ctx.apiRoot} did not answer: ${explain(error)}. Retrying…)`);
      troubleReported = true;
      const retryAfterMs = error instanceof TelegramApiError && error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : 2_000;
      await sleep(Math.min(retryAfterMs, Math.max(deadline - ctx.now(), 0)), stop);
      continue;
    }
    if (troubleReported) io.err("(Telegram answers again.)");
    troubleReported = false;
    for (const update of updates) {
      if (!isRecord(update) || typeof update.update_id !== "number") continue;
      const updateId = update.update_id;
      const found = pairingStart(update, ctx.username, ctx.code);
      if (found === "other") {
        if (!otherReported) io.out(`(Got a message that is not this setup's /start; still waiting. Open ${ctx.link} and press Start.)`);
        otherReported = true;
      } else if (found === "wrong-code") {
        const from = isRecord(update.message) && isRecord(update.message.from) ? update.message.from : {};
        const name = typeof from.username === "string" ? `@${from.username}` : typeof from.first_name === "string" ? from.first_name : "someone";
        io.out(`(Ignored a /start without this setup's code, from ${forTerminal(name)}. Only the link above pairs.)`);
      } else if (found) {
        return { ...found, updateId };
      }
      // Not what setup waits for. Moving past it confirms it: without a running Hermes it is nobody's.
      offset = updateId + 1;
    }
  }
}
