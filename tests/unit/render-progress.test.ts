import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { endProgress, reduceProgress, startProgress, type ProgressEvent, type RunProgress } from "../../lib/progress/run-progress.ts";
import { renderProgress, TODOS_SHOWN } from "../../lib/telegram/render/render-progress.ts";
import { stopButton } from "../../lib/telegram/render/render-stop.ts";

const t = CATALOGS.en;
const stop = stopButton("k1", t);
const context = { project: "shop", t, sessionTitle: "Fix <login>", stop };

function run(...events: ProgressEvent[]): RunProgress {
  return events.reduce((state, event) => reduceProgress(state, event, false), startProgress(1_000));
}
const todos = (...statuses: string[]): ProgressEvent => ({
  type: "todo.updated",
  sessionID: "s",
  todos: statuses.map((status, index) => ({ content: `Item ${index}`, status })),
});
const tool = (callID: string, name: string, state: "running" | "completed" | "failed", input?: Record<string, unknown>): ProgressEvent => ({
  type: "tool.step",
  sessionID: "s",
  step: { callID, tool: name, state, ...(input ? { input } : {}) },
});

describe("renderProgress", () => {
  it("shows the run, the clock and steps, the command now running, the todo list with a count, the steps before, and Stop", () => {
    const state = run(
      todos("completed", "in_progress", "pending", "cancelled"),
      tool("a", "read", "running", { filePath: "src/app.ts" }),
      tool("a", "read", "completed"),
      tool("b", "bash", "running", { command: "npm test && rm -rf <tmp>" }),
    );
    const rendered = renderProgress(state, 66_000, context);
    expect(rendered.text).toBe(
      [
        "▶️ <b>Running</b> · 📁 <code>shop</code> · Fix &lt;login&gt;",
        "⏱ 1 min 5 s · 2 steps",
        "▸ <b>bash</b> <code>npm test &amp;&amp; rm -rf &lt;tmp&gt;</code>",
        "📋 <b>To do</b> 1/3",
        "✅ Item 0",
        "🔄 Item 1",
        "⬜ Item 2",
        "✖️ Item 3",
        "<i>Earlier:</i>",
        "✓ <b>read</b> <code>src/app.ts</code>",
        "<i>⏹ Stop ends the run, as Esc does in the terminal.</i>",
      ].join("\n"),
    );
    expect(rendered.keyboard).toEqual([[stop]]);
    // The clock is not part of what counts as a change.
    expect(renderProgress(state, 999_000, context).body).toBe(rendered.body);
    expect(renderProgress(run(todos("completed")), 66_000, context).body).not.toBe(rendered.body);
  });

  it("a long todo list shows a window from just before the first open item, and says how many it leaves out", () => {
    const statuses = [...Array(20).fill("completed"), ...Array(20).fill("pending")];
    const text = renderProgress(run(todos(...statuses)), 2_000, context).text;
    expect(text).toContain("📋 <b>To do</b> 20/40");
    expect(text).toContain("… and 18 more\n✅ Item 18\n✅ Item 19\n⬜ Item 20");
    expect(text.split("\n").filter((line) => /^(✅|⬜) Item/.test(line))).toHaveLength(TODOS_SHOWN);
    expect(text).toContain("… and 10 more");
  });

  it("a sub-agent's task, and its own steps marked", () => {
    const state = reduceProgress(
      run(tool("t", "task", "running", { subagent_type: "general", description: "Find <the> bug" })),
      tool("x", "grep", "running", { pattern: "TODO" }),
      true,
    );
    const text = renderProgress(state, 2_000, context).text;
    expect(text).toContain("▸ ↳ <b>grep</b> <code>TODO</code>");
    const first = renderProgress(run(tool("t", "task", "running", { subagent_type: "general", description: "Find <the> bug" })), 2_000, context).text;
    expect(first).toContain("▸ <b>task</b> <i>general</i>: Find &lt;the&gt; bug");
  });

  it("at the end: one short line without buttons, how it ended, and the todo count", () => {
    const state = run(todos("completed", "completed", "pending"));
    expect(renderProgress(endProgress(state, "done"), 91_000, context)).toMatchObject({
      text: "☑️ <b>Run finished</b> after 1 min 30 s · 📁 <code>shop</code> · Fix &lt;login&gt;\n📋 <b>To do</b> 2/3",
      keyboard: [],
    });
    expect(renderProgress(endProgress(run(), "stopped"), 5_000, context).text).toBe(
      "⏹ <b>Run stopped</b> after 4 s · 📁 <code>shop</code> · Fix &lt;login&gt;",
    );
    expect(renderProgress(endProgress(run(), "failed"), 5_000, { ...context, t: CATALOGS.zh }).text).toContain("✖️ <b>运行失败</b>，用时 4 秒");
  });

  it("a long command is cut on graphemes and revealed: nothing hidden, the message within Telegram's limit", () => {
    const command = `echo ${"👨‍👩‍👧".repeat(400)}\u202Eevil`;
    const text = renderProgress(run(tool("b", "bash", "running", { command })), 2_000, context).text;
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text).not.toContain("\u202E");
    expect(text).toMatch(/👨‍👩‍👧…<\/code>/);
  });
});
