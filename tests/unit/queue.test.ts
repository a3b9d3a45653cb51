// The queue's pure halves (issue 53): the order of the messages held for busy sessions
// (lib/registry/message-queue.ts) and how they look (lib/telegram/render/render-queue.ts), in both
// languages, HTML that Telegram parses, callback data within 64 bytes.
import { describe, expect, it } from "vitest";
import { CATALOGS, LANGUAGES } from "../../lib/i18n/catalog.ts";
import { MessageQueue, QUEUE_LIMIT } from "../../lib/registry/message-queue.ts";
import { CALLBACK_DATA_LIMIT, decodeCallback } from "../../lib/telegram/codec.ts";
import { LISTED_LIMIT, renderQueuedNotice, renderQueuedOutcome, renderQueueList, renderSendNowConfirm } from "../../lib/telegram/render/render-queue.ts";
import { parseTelegramHtml } from "../support/telegram/html.ts";

let counter = 0;
const queue = () => new MessageQueue<string>(() => `key${String(++counter).padStart(5, "0")}`);

describe("MessageQueue", () => {
  it("keeps each session's messages in the order they came, with their places; the run's end takes the first", () => {
    const q = queue();
    const a = q.add("ses_1", "a", 1)!;
    const b = q.add("ses_1", "b", 2)!;
    const c = q.add("ses_2", "c", 3)!;
    expect([a.place, b.place, c.place]).toEqual([1, 2, 1]);
    expect(q.list().map((e) => e.item)).toEqual(["a", "b", "c"]);
    expect(q.list(new Set(["ses_2"])).map((e) => e.item)).toEqual(["c"]);
    expect(q.next("ses_1")?.item).toBe("a");
    expect(q.placeOf(b.entry.key)).toBe(1);
    expect(q.placeOf(a.entry.key)).toBe(0);
    expect(q.has("ses_1")).toBe(true);
    expect(q.next("ses_1")?.item).toBe("b");
    expect(q.has("ses_1")).toBe(false);
    expect(q.next("ses_1")).toBeUndefined();
  });

  it("Remove takes one out for good; Send now puts one first; a gone key changes nothing", () => {
    const q = queue();
    const a = q.add("ses_1", "a", 1)!;
    const b = q.add("ses_1", "b", 2)!;
    const c = q.add("ses_1", "c", 3)!;
    expect(q.remove(b.entry.key)?.item).toBe("b");
    expect(q.remove(b.entry.key)).toBeUndefined();
    expect(q.promote(b.entry.key)).toBe(false);
    expect(q.promote(c.entry.key)).toBe(true);
    expect(q.placeOf(c.entry.key)).toBe(1);
    expect(q.placeOf(a.entry.key)).toBe(2);
    // The list is still oldest first; the line is the session's order.
    expect(q.list().map((e) => e.item)).toEqual(["a", "c"]);
    expect(q.next("ses_1")?.item).toBe("c");
    expect(q.drop("ses_1").map((e) => e.item)).toEqual(["a"]);
    expect(q.list()).toEqual([]);
  });

  it(`refuses more than ${QUEUE_LIMIT} messages (the caller sends it instead), never dropping one`, () => {
    const q = queue();
    for (let i = 0; i < QUEUE_LIMIT; i++) expect(q.add(`ses_${i % 3}`, `m${i}`, i)).toBeDefined();
    expect(q.add("ses_1", "one more", 999)).toBeUndefined();
    expect(q.list()).toHaveLength(QUEUE_LIMIT);
  });
});

describe("render-queue", () => {
  const views = (n: number) =>
    Array.from({ length: n }, (_, i) => ({
      key: `key${String(i).padStart(5, "0")}`,
      text: `message <${i}> & more\nwords`,
      who: "Ann <b>",
      at: 1_000 * i,
      project: "proj",
      sessionTitle: "Fix <it>",
    }));

  for (const language of LANGUAGES) {
    const t = CATALOGS[language];
    it(`${language}: the notice, the list, the confirmation and the outcomes parse as Telegram HTML; buttons fit 64 bytes`, () => {
      const rendered = [
        renderQueuedNotice("key00001", 2, t),
        renderQueueList(views(3), 120_000, t),
        renderQueueList([], 0, t),
        renderSendNowConfirm("key00001", "a <b>bold</b> ask", t),
        ...(["removed", "sent", "sendingNow"] as const).map((outcome) => renderQueuedOutcome(outcome, "x & y", t)),
      ];
      for (const message of rendered) {
        expect(parseTelegramHtml(message.text).ok).toBe(true);
        for (const button of message.keyboard.flat()) {
          expect(Buffer.byteLength(button.callback_data!)).toBeLessThanOrEqual(CALLBACK_DATA_LIMIT);
          expect(decodeCallback(button.callback_data)).toBeDefined();
        }
      }
    });
  }

  it("the list: oldest first, numbered, who and when, escaped; its buttons name the number; at most LISTED_LIMIT lines", () => {
    const t = CATALOGS.en;
    const list = renderQueueList(views(2), 61_000, t);
    expect(list.text).toContain("2 waiting");
    expect(list.text).toContain("1. «message &lt;0&gt; &amp; more words» · Ann &lt;b&gt;, 1 min 1 s ago · proj · Fix &lt;it&gt;");
    expect(list.keyboard.map((row) => row.map((b) => [b.text, decodeCallback(b.callback_data)?.action]))).toEqual([
      [
        ["✖ Remove 1", "queueRemove"],
        ["⏩ Send 1 now", "queueSendNow"],
      ],
      [
        ["✖ Remove 2", "queueRemove"],
        ["⏩ Send 2 now", "queueSendNow"],
      ],
    ]);
    const long = renderQueueList(views(LISTED_LIMIT + 5), 0, t);
    expect(long.keyboard).toHaveLength(LISTED_LIMIT);
    expect(long.text).toContain("and 5 more");
  });

  it("Send now's confirmation is red; the notice says its place", () => {
    const t = CATALOGS.en;
    const confirm = renderSendNowConfirm("key00001", "go", t);
    expect(confirm.keyboard[0]!.map((b) => [decodeCallback(b.callback_data)?.action, b.style])).toEqual([
      ["queueConfirm", "danger"],
      ["queueBack", undefined],
    ]);
    expect(renderQueuedNotice("key00001", 3, t).text).toContain("<b>#3</b>");
  });
});
