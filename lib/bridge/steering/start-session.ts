// Starting a session from the phone, the one way /new and scheduled runs (bridge/schedules/) share:
// a new session in a project this process serves, created through OpenCode's own API (named, when
// a title is given), and the instruction sent as any text from the phone, so the run is reported
// like any other phone-started run (Running with Stop, progress, Done or Failed; a reply continues it).
import type { Strings } from "../../i18n/catalog.ts";
import type { Logger } from "../../system/log.ts";
import type { Registry } from "../../registry/registry.ts";
import { escapeWithin } from "../../text/html.ts";
import { reveal } from "../../text/reveal.ts";
import type { Chat } from "../core/chat.ts";
import type { InstanceLinks } from "../core/instance-links.ts";
import type { SessionTopics } from "../core/topics.ts";
import type { TalkBack, UserMessage } from "../runs/talk-back.ts";

export interface StartSessionDeps {
  registry: Registry;
  topics: Pick<SessionTopics, "enabled">;
  log: Logger;
  t: Strings;
  links: Pick<InstanceLinks, "linkFor">;
  chat: Pick<Chat, "reply">;
  talk: Pick<TalkBack, "talkBack">;
}

/** Creates the session in `directory` and sends it the instruction (Running, 👍, or why not, in reply to `userMessage`); its id, or undefined. */
export async function startSession(
  deps: StartSessionDeps,
  start: { directory: string; text: string; userMessage: UserMessage; title?: string },
): Promise<string | undefined> {
  const { links, registry, log, t, chat, talk, topics } = deps;
  const { directory, text, userMessage, title } = start;
  const link = links.linkFor(directory);
  const created = link ? await link.opencode.createSession(title) : ({ ok: false, error: t.talk.notRunning } as const);
  log.info({ directory, created, titled: title !== undefined }, "new session from the phone");
  if (!created.ok) {
    await chat.reply(t.steer.failed(escapeWithin(reveal(created.error, t), 300)), userMessage.messageId, userMessage.threadId);
    return undefined;
  }
  registry.sessions.upsert({ id: created.sessionID, directory, ...(title === undefined ? {} : { title }) });
  // With topics the session posts in its own new topic, not beside the message that started it in the main chat.
  await talk.talkBack({ sessionID: created.sessionID, directory }, topics.enabled ? { ...userMessage, outsideTopic: true } : userMessage, text);
  return created.sessionID;
}
