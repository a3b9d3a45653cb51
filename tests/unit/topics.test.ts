import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { SessionTopics } from "../../lib/bridge/core/topics.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { TelegramApiError } from "../../lib/telegram/wire/api.ts";
import { Outbox } from "../../lib/telegram/wire/outbox.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

function make(enabled = true) {
  const telegram = new MemoryTelegram();
  const registry = new Registry();
  const outbox = new Outbox({ logger: pino({ level: "silent" }), limits: false });
  const topics = new SessionTopics(enabled, { telegram, outbox, registry, chatId: -100, log: pino({ level: "silent" }) });
  return { telegram, registry, topics, outbox };
}

describe("SessionTopics", () => {
  it("creates one topic per root session, named after its title; sub-agents share their root's", async () => {
    const { telegram, registry, topics, outbox } = make();
    registry.sessions.upsert({ id: "root", title: "Build the API" });
    registry.sessions.upsert({ id: "child", parentID: "root" });
    registry.sessions.upsert({ id: "grandchild", parentID: "child" });
    const [a, b, c] = await Promise.all([topics.threadOf("root", "/p"), topics.threadOf("child", "/p"), topics.threadOf("grandchild", "/p")]);
    expect(a).toBeDefined();
    expect(new Set([a, b, c]).size).toBe(1);
    expect(telegram.topics).toEqual([{ chatId: -100, threadId: a, name: "Build the API" }]);
    expect(topics.ownerOf(a!)).toEqual({ sessionID: "root", directory: "/p" });
    topics.rename("root", "Build the API, v2");
    await vi.waitFor(() => expect(telegram.topics[0]?.name).toBe("Build the API, v2"));
    await outbox.stop();
  });

  it("names an untitled session after its project, and falls back to the main chat when topics can't be made", async () => {
    const { telegram, topics, outbox } = make();
    expect(await topics.threadOf("ses_abcdef123456", "/home/me/shop")).toBeDefined();
    expect(telegram.topics[0]?.name).toBe("shop · 123456");
    telegram.createTopic = async () => {
      throw new TelegramApiError(400, "Bad Request: the chat is not a forum");
    };
    expect(await topics.threadOf("other", "/p")).toBeUndefined();
    await outbox.stop();
  });

  it("does nothing when off", async () => {
    const { telegram, topics, outbox } = make(false);
    expect(await topics.threadOf("root", "/p")).toBeUndefined();
    expect(telegram.topics).toEqual([]);
    await outbox.stop();
  });
});
