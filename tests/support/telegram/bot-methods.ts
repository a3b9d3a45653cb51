import type { MethodHandler } from "./context.ts";
import { badRequest } from "./types.ts";
import { requireChatId } from "./validate.ts";

/** Bot-level methods: identity, webhook, polling, callbacks, commands, chat info, actions. */

const QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid";

const answerCallbackQuery: MethodHandler = ({ payload, state }) => {
  const id = String(payload.callback_query_id ?? "");
  if (!state.issuedCallbackIds.has(id) || state.answeredCallbackIds.has(id)) throw badRequest(QUERY_INVALID);
  if (typeof payload.text === "string" && payload.text.length > 200) throw badRequest("MESSAGE_TOO_LONG");
  state.answeredCallbackIds.add(id);
  state.callbackAnswers.push({
    callbackQueryId: id,
    ...(payload.text !== undefined ? { text: String(payload.text) } : {}),
    ...(payload.show_alert !== undefined ? { showAlert: Boolean(payload.show_alert) } : {}),
  });
  return true;
};

const setMyCommands: MethodHandler = ({ payload, state }) => {
  const commands = payload.commands;
  if (!Array.isArray(commands)) throw badRequest('field "commands" must be an Array');
  for (const c of commands) {
    if (typeof c?.command !== "string" || /^[a-z0-9_]{1,32}$/.exec(c.command) === null) throw badRequest("BOT_COMMAND_INVALID");
    if (typeof c.description !== "string" || c.description.length === 0) throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
  }
  state.commands = commands;
  return true;
};

export const botMethods: Record<string, MethodHandler> = {
  getMe: ({ state }) => ({
    ...state.store.bot,
    can_join_groups: true,
    can_read_all_group_messages: !state.rights.privacyMode,
    supports_inline_queries: false,
  }),
  deleteWebhook: () => true,
  getWebhookInfo: () => ({ url: "", has_custom_certificate: false, pending_update_count: 0 }),
  getUpdates: ({ payload, state, signal }) => state.poll.getUpdates(payload, signal),
  answerCallbackQuery,
  setMyCommands,
  getMyCommands: ({ state }) => state.commands,
  deleteMyCommands: ({ state }) => {
    state.commands = [];
    return true;
  },
  getChat: ({ payload, state }) => {
    const chatId = requireChatId(payload);
    state.rights.checkVisible(chatId);
    return { ...state.store.chat(chatId), ...state.rights.chatFields(chatId) };
  },
  getChatMember: ({ payload, state }) => {
    const chatId = requireChatId(payload);
    if (Number(payload.user_id) !== state.store.bot.id) throw badRequest("user not found");
    return state.rights.botMember(chatId, state.store.bot);
  },
  createForumTopic: ({ payload, state }) => {
    const chatId = requireChatId(payload);
    if (chatId > 0) throw badRequest("the chat is not a forum");
    const name = String(payload.name ?? "");
    if (name.length < 1 || name.length > 128) throw badRequest("TOPIC_NAME_INVALID");
    const threadId = 1000 + state.topics.length;
    state.topics.push({ chatId, threadId, name });
    return { message_thread_id: threadId, name, icon_color: 7322096 };
  },
  editForumTopic: ({ payload, state }) => {
    const chatId = requireChatId(payload);
    const topic = state.topics.find((entry) => entry.chatId === chatId && entry.threadId === Number(payload.message_thread_id));
    if (!topic) throw badRequest("TOPIC_ID_INVALID");
    if (typeof payload.name === "string") topic.name = payload.name;
    return true;
  },
  setMessageReaction: ({ payload }) => {
    requireChatId(payload);
    return true;
  },
  sendChatAction: ({ payload, state }) => {
    state.rights.checkPost(requireChatId(payload));
    if (typeof payload.action !== "string") throw badRequest("wrong parameter action in request");
    return true;
  },
};
