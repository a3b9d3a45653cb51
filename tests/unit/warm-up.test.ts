// A run's start makes the text of its first prompt ready (marked loaded and run once, the grapheme
// segmenter made) on a timer, once per process, off the prompt's path; nothing else warms it.
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.useRealTimers();
  vi.doUnmock("../../lib/text/markdown.ts");
  vi.resetModules();
});

describe("warmUpTextSoon", () => {
  it("loads and runs marked on a timer, not in the caller's turn, and only once per process", async () => {
    vi.useFakeTimers();
    const rendered: string[] = [];
    const loadMarkdown = vi.fn(async () => (source: string) => {
      rendered.push(source);
      return { text: source, entities: [] };
    });
    vi.doMock("../../lib/text/markdown.ts", () => ({ loadMarkdown }));
    const { warmUpTextSoon } = await import("../../lib/text/warm-up.ts");
    warmUpTextSoon();
    warmUpTextSoon();
    expect(loadMarkdown).not.toHaveBeenCalled();
    await vi.runAllTimersAsync();
    expect(loadMarkdown).toHaveBeenCalledTimes(1);
    expect(rendered).toHaveLength(1);
    warmUpTextSoon();
    await vi.runAllTimersAsync();
    expect(loadMarkdown).toHaveBeenCalledTimes(1);
  });

  it("the bridge warms it when a run starts (busy), not for other events", async () => {
    const warmUpTextSoon = vi.fn();
    vi.doMock("../../lib/text/warm-up.ts", () => ({ warmUpTextSoon }));
    const { setup, DIRECTORY } = await import("../support/bridge-rig.ts");
    const { bridge } = setup();
    bridge.handleEvent(DIRECTORY, { type: "session.upserted", info: { id: "ses_w", title: "Warm" } });
    bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_w", status: "idle" });
    expect(warmUpTextSoon).not.toHaveBeenCalled();
    bridge.handleEvent(DIRECTORY, { type: "session.status", sessionID: "ses_w", status: "busy" });
    expect(warmUpTextSoon).toHaveBeenCalledTimes(1);
    await bridge.stop();
    vi.doUnmock("../../lib/text/warm-up.ts");
  });

  it("a run's start also runs the question renderer a few times on a timer, once per process, off the caller's turn", async () => {
    vi.useFakeTimers();
    const renderQuestion = vi.fn(() => ({ text: "", keyboard: [] }));
    vi.doMock("../../lib/telegram/render/render-question.ts", () => ({ renderQuestion }));
    const { warmUpRendererSoon } = await import("../../lib/telegram/render/render-warm-up.ts");
    const { CATALOGS } = await import("../../lib/i18n/catalog.ts");
    warmUpRendererSoon(CATALOGS.en);
    warmUpRendererSoon(CATALOGS.en);
    expect(renderQuestion).not.toHaveBeenCalled();
    await vi.runAllTimersAsync();
    expect(renderQuestion).toHaveBeenCalledTimes(3);
    warmUpRendererSoon(CATALOGS.en);
    await vi.runAllTimersAsync();
    expect(renderQuestion).toHaveBeenCalledTimes(3);
    vi.doUnmock("../../lib/telegram/render/render-question.ts");
  });

  it("the made-up question renders as a real one does (valid for Telegram, nothing thrown)", async () => {
    const { renderQuestion } = await import("../../lib/telegram/render/render-question.ts");
    const spy = vi.fn(renderQuestion);
    vi.doMock("../../lib/telegram/render/render-question.ts", () => ({ renderQuestion: spy }));
    vi.useFakeTimers();
    const { warmUpRendererSoon } = await import("../../lib/telegram/render/render-warm-up.ts");
    const { CATALOGS } = await import("../../lib/i18n/catalog.ts");
    warmUpRendererSoon(CATALOGS.en);
    await vi.runAllTimersAsync();
    expect(spy).toHaveBeenCalledTimes(3);
    const shown = spy.mock.results[0]!.value as { text: string };
    expect(shown.text).toContain("No &lt;b&gt;");
    vi.doUnmock("../../lib/telegram/render/render-question.ts");
  });
});
