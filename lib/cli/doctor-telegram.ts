// The checks of `opencode-hermes doctor` that ask Telegram (and the relay socket): the token
// (getMe: the bot's @username), no webhook in the way of the long poll, the chat (getChat), the
// bot's right to post there (getChatMember in a group; in a private chat a "typing" action, the one
// call that finds a blocked bot without sending a message), topics, privacy mode, the allow-list of
// a group, and whether an OpenCode with Hermes polls this bot right now. Read-only: nothing is sent
// to the chat but that "typing" action, and getUpdates is never called (it would take the running
// Hermes' updates).
import { looksLikeBotToken } from "../config/bot-token.ts";
import { ANYONE } from "../config/config-options.ts";
import { globalConfigDirectory } from "../config/global-config.ts";
import { isRecord } from "../util/is-record.ts";
import { relayAddress } from "../relay/address.ts";
import { probeSocket } from "../relay/socket-file.ts";
import { callBotApi } from "../telegram/wire/bot-api-call.ts";
import { CALL_TIMEOUT_MS } from "../telegram/wire/timeouts.ts";
import { ok, problem, skipped, type Check } from "./doctor-check.ts";
import { loadedCheck, runningOpencodes, type RunningOpencode } from "./doctor-spec.ts";
import { ownCommand } from "./plugin-spec.ts";
import { forTerminal } from "./terminal-text.ts";

type Env = Record<string, string | undefined>;

export interface TelegramSettings {
  token?: string;
  apiRoot: string;
  chatId?: number;
  /** The chat id as written, when it is not a number (the settings check names that problem). */
  badChatId?: string;
  /** HERMES_TELEGRAM_ALLOWED_USERS (or the option) as written. */
  allowedUsers?: string;
  topics: boolean;
}

type Answer = { ok: true; result: Record<string, unknown> } | { ok: false; code: number; description: string };

async function call(settings: TelegramSettings & { token: string }, method: string, payload: object = {}): Promise<Answer> {
  const answer = await callBotApi(settings.token, settings.apiRoot, method, payload, AbortSignal.timeout(CALL_TIMEOUT_MS)).catch((error: unknown) => ({
    ok: false as const,
    code: 0,
    description: error instanceof Error ? error.message : String(error),
  }));
  if (!answer.ok) return { ok: false, code: answer.code, description: forTerminal(answer.description, 160) };
  return { ok: true, result: isRecord(answer.result) ? answer.result : {} };
}

export async function telegramChecks(settings: TelegramSettings, env: Env): Promise<Check[]> {
  const token = settings.token?.trim();
  if (!token) return [problem("HERMES_TELEGRAM_TOKEN is not set", `create a bot with @BotFather, then run ${ownCommand()} setup.`)];
  if (!looksLikeBotToken(token)) return [problem("HERMES_TELEGRAM_TOKEN does not look like a bot token (123456:ABC…)", "copy it again from @BotFather.")];
  const withToken = { ...settings, token };

  const me = await call(withToken, "getMe");
  if (!me.ok) {
    const fix =
      me.code === 401 || me.code === 404
        ? "the token is wrong or was revoked: copy it again from @BotFather (/mybots → your bot → API Token)."
        : `check the network (and HERMES_TELEGRAM_API_ROOT, now ${settings.apiRoot}).`;
    const what =
      me.code === 0 ? `Telegram at ${settings.apiRoot} did not answer (${me.description})` : `Telegram rejected the token (${me.code}: ${me.description})`;
    return [problem(what, fix), skipped("The chat, the bot's rights and the relay were not checked (no working token)")];
  }
  const botId = Number(me.result.id);
  const name = typeof me.result.username === "string" ? `@${forTerminal(me.result.username)}` : `bot ${botId}`;
  const checks: Check[] = [ok(`The token works: the bot is ${name}`)];

  const webhook = await call(withToken, "getWebhookInfo");
  const hookUrl = webhook.ok ? webhook.result.url : undefined;
  if (typeof hookUrl === "string" && hookUrl !== "")
    checks.push(problem(`${name} has a webhook set, so Hermes' long poll gets nothing`, "remove it: open <api root>/bot<token>/deleteWebhook once."));

  checks.push(...(await chatChecks(withToken, name, botId, me.result.can_read_all_group_messages === true)));

  const polled = await probeSocket(relayAddress(token, settings.apiRoot, env));
  checks.push(
    polled === "answers"
      ? ok(`An OpenCode with Hermes (or attach mode) on this machine is polling ${name} right now`)
      : skipped(`No OpenCode with Hermes polls ${name} on this machine right now (it will once OpenCode starts with Hermes loaded)`),
  );
  // An OpenCode of this setup (this token, this global config) keeps its relay socket where its own environment says.
  const seen: Array<{ pid: number; polled: boolean }> = [];
  const ours = (p: RunningOpencode) => p.env.HERMES_TELEGRAM_TOKEN?.trim() === token && globalConfigDirectory(p.env) === globalConfigDirectory(env);
  for (const running of runningOpencodes().filter(ours)) {
    const apiRoot = (running.env.HERMES_TELEGRAM_API_ROOT?.trim() || settings.apiRoot).replace(/\/+$/, "");
    seen.push({ pid: running.pid, polled: polled === "answers" || (await probeSocket(relayAddress(token, apiRoot, running.env))) === "answers" });
  }
  const loaded = loadedCheck(seen);
  if (loaded) checks.push(loaded);
  return checks;
}

async function chatChecks(settings: TelegramSettings & { token: string }, name: string, botId: number, readsAll: boolean): Promise<Check[]> {
  const chatId = settings.chatId;
  if (chatId === undefined && settings.badChatId !== undefined) return [skipped("The chat was not checked: its id is not a number")];
  if (chatId === undefined)
    return [
      problem("HERMES_TELEGRAM_CHAT_ID is not set", `run ${ownCommand()} setup, or send /start to ${name} while OpenCode runs: it replies with the chat id.`),
    ];
  const chat = await call(settings, "getChat", { chat_id: chatId });
  if (!chat.ok) {
    const fix =
      chatId > 0
        ? `open ${name} in Telegram and press Start (or check HERMES_TELEGRAM_CHAT_ID).`
        : `add ${name} to the group (or check HERMES_TELEGRAM_CHAT_ID).`;
    return [problem(`${name} cannot see chat ${chatId} (${chat.code}: ${chat.description})`, fix)];
  }
  const group = chat.result.type !== "private";
  const title = typeof chat.result.title === "string" ? ` "${forTerminal(chat.result.title)}"` : "";
  const forum = chat.result.is_forum === true;
  const checks: Check[] = [
    ok(group ? `The chat ${chatId} is the ${String(chat.result.type)}${title}${forum ? " (with topics)" : ""}` : `The chat ${chatId} is a private chat`),
  ];

  if (!group) {
    // The one call that meets a block without posting anything.
    const typing = await call(settings, "sendChatAction", { chat_id: chatId, action: "typing" });
    checks.push(
      typing.ok
        ? ok(`${name} can post in the chat`)
        : problem(`${name} cannot post there (${typing.code}: ${typing.description})`, postFix(typing.description, name)),
    );
    return checks;
  }

  const member = await call(settings, "getChatMember", { chat_id: chatId, user_id: botId });
  const status = member.ok ? String(member.result.status) : "unknown";
  const admin = status === "administrator" || status === "creator";
  const membersPost = !isRecord(chat.result.permissions) || chat.result.permissions.can_send_messages !== false;
  if (!member.ok) checks.push(problem(`Could not read ${name}'s rights in the group (${member.code}: ${member.description})`, `add ${name} to the group.`));
  else if (status === "left" || status === "kicked") checks.push(problem(`${name} is not in the group (${status})`, `add ${name} to the group again.`));
  else if (status === "restricted" && member.result.can_send_messages !== true)
    checks.push(problem(`${name} is restricted in the group and may not send messages`, `lift the restriction, or make ${name} an admin.`));
  else if (!admin && !membersPost)
    checks.push(problem(`Members may not send messages in the group, and ${name} is not an admin`, `make ${name} an admin, or let members send messages.`));
  else checks.push(ok(`${name} can post in the group${admin ? " (it is an admin)" : ""}`));

  if (settings.topics) {
    if (!forum)
      checks.push(
        problem("HERMES_TELEGRAM_TOPICS is on but the group has no topics", "turn Topics on in the group's settings, or set HERMES_TELEGRAM_TOPICS=off."),
      );
    else if (!admin || member.ok !== true || member.result.can_manage_topics !== true)
      checks.push(problem(`HERMES_TELEGRAM_TOPICS is on but ${name} may not manage topics`, `make ${name} an admin with the right to manage topics.`));
    else checks.push(ok(`${name} may create a topic per session`));
  }

  if (readsAll || admin) checks.push(ok(`${name} sees every message in the group (${readsAll ? "privacy mode off" : "an admin"})`));
  else if (settings.topics)
    checks.push(
      problem(
        `${name}'s privacy mode is on: it won't see a plain message in a session's topic`,
        `@BotFather → /setprivacy → Disable (or make ${name} an admin).`,
      ),
    );
  else checks.push(ok(`${name}'s privacy mode is on: it sees replies to its messages and commands, which is all Hermes needs without topics`));

  checks.push(allowListCheck(settings.allowedUsers));
  return checks;
}

function allowListCheck(raw: string | undefined): Check {
  const value = raw?.trim() ?? "";
  if (value.toLowerCase() === ANYONE) return ok("HERMES_TELEGRAM_ALLOWED_USERS is anyone: every member of the group may answer");
  const ids = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (ids.length === 0)
    return problem(
      "The chat is a group and HERMES_TELEGRAM_ALLOWED_USERS is not set: Hermes stays off, so that not every member can approve",
      `export HERMES_TELEGRAM_ALLOWED_USERS=<your user id> (setup prints it), or "${ANYONE}".`,
    );
  const bad = ids.filter((id) => !/^\d+$/.test(id));
  if (bad.length > 0)
    return problem(
      `HERMES_TELEGRAM_ALLOWED_USERS has entries that are not user ids (${forTerminal(bad.join(", "))})`,
      "list numeric user ids, comma-separated.",
    );
  return ok(`Only ${ids.length === 1 ? "user" : "users"} ${ids.join(", ")} may answer in the group`);
}

function postFix(description: string, name: string): string {
  if (/blocked/i.test(description)) return `unblock ${name} in Telegram.`;
  if (/chat not found|initiate/i.test(description)) return `open ${name} in Telegram and press Start.`;
  return "fix that in Telegram, then run doctor again.";
}
