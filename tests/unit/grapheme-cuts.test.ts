// Text cut for Telegram's short fields (callback answers, reply placeholders, topic names) never
// splits what the user sees as one character.
import pino from "pino";
import { describe, expect, it, vi } from "vitest";
import { SessionTopics } from "../../lib/bridge/core/topics.ts";
import { Registry } from "../../lib/registry/registry.ts";
import { CALLBACK_ANSWER_LIMIT, graphemes, PLACEHOLDER_LIMIT, TOPIC_NAME_LIMIT } from "../../lib/text/html.ts";
import { Outbox } from "../../lib/telegram/wire/outbox.ts";
import { question, request, setup } from "../support/bridge-rig.ts";
import { MemoryTelegram } from "../support/memory-telegram.ts";

const FAMILY = "👨‍👩‍👧‍👦";
const FLAG = "🇺🇦";
const WHOLE = new Set([FAMILY, FLAG, "…"]);

/** Every visible character of `text` is a whole family, a whole flag or the ellipsis. */
function splitsNothing(text: string): void {
  for (const part of graphemes(text)) expect(WHOLE.has(part), `split cluster ${JSON.stringify(part)}`).toBe(true);
}

describe("cutting hostile text for Telegram's short fields", () => {
  it("a callback answer quoting a long emoji label stays whole and within 200", async () => {
    const { telegram, tap, ask } = setup();
    const label = (FAMILY + FLAG).repeat(40);
    const message = await ask(
      request([
        question({
          question: "Which family?",
          multiple: true,
          options: [
            { label, description: "" },
            { label: "other", description: "" },
          ],
        }),
      ]),
    );
    await tap(message, message.keyboard.flat()[0]!.text);
    const answer = await vi.waitFor(() => telegram.callbackAnswers[0]?.text ?? Promise.reject(new Error("no answer yet")));
    expect(answer.length).toBeLessThanOrEqual(CALLBACK_ANSWER_LIMIT);
    const quoted = answer.slice(answer.indexOf(FAMILY), answer.lastIndexOf("…") + 1);
    expect(quoted.length).toBeGreaterThan(100);
    splitsNothing(quoted);
  });

  it("the reply placeholder for a long emoji header stays whole and within 64", async () => {
    const { tap, ask, forceReply } = setup();
    const header = (FLAG + FAMILY).repeat(20);
    const message = await ask(request([question({ header })]));
    await tap(message, "Type an answer");
    const prompt = await forceReply();
    expect(prompt.placeholder!.length).toBeLessThanOrEqual(PLACEHOLDER_LIMIT);
    expect(prompt.placeholder!.length).toBeGreaterThan(40);
    splitsNothing(prompt.placeholder!);
  });

  it("a topic named after a long emoji title stays whole and within 128", async () => {
    const telegram = new MemoryTelegram();
    const registry = new Registry();
    const outbox = new Outbox({ logger: pino({ level: "silent" }), limits: false });
    const topics = new SessionTopics(true, { telegram, outbox, registry, chatId: -100, log: pino({ level: "silent" }) });
    registry.sessions.upsert({ id: "root", title: (FAMILY + FLAG).repeat(30), directory: "/p" });
    await topics.threadOf("root", "/p");
    topics.rename("root", (FLAG + FAMILY).repeat(30));
    await vi.waitFor(() => expect(telegram.topics[0]?.name.startsWith(FLAG)).toBe(true));
    await outbox.stop();
    const name = telegram.topics[0]!.name;
    expect(name.length).toBeLessThanOrEqual(TOPIC_NAME_LIMIT);
    expect(name.length).toBeGreaterThan(100);
    splitsNothing(name);
  });

  it("the end of an agent's long last text in a Done notice starts on a whole emoji", async () => {
    const { renderNotice } = await import("../../lib/telegram/render/render-notice.ts");
    const { parseTelegramHtml } = await import("../support/fake-telegram.ts");
    for (const prefix of ["", "x", "xy"]) {
      const html = renderNotice({ kind: "done", sessionID: "s", busyMs: 60_000, lastText: prefix + (FAMILY + FLAG).repeat(300) }, { project: "p" }).html;
      const parsed = parseTelegramHtml(html);
      if (!parsed.ok) throw new Error(parsed.error);
      const quoted = parsed.plain.slice(parsed.plain.indexOf("…"), parsed.plain.lastIndexOf(FLAG) + FLAG.length);
      expect(quoted.length).toBeGreaterThan(1000);
      splitsNothing(quoted);
    }
  });
});
