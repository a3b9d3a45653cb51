// The caption of a file the agent sends: where it comes from, then the agent's text rendered as
// every agent text is (Markdown, hidden characters shown, HTML escaped), within the caption limit.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { renderAgentFileCaption } from "../../lib/telegram/render/render-agent-file.ts";
import { CAPTION_LIMIT, visibleLength } from "../../lib/text/html.ts";
import { loadMarkdown } from "../../lib/text/markdown.ts";
import { LABEL_ROOM } from "../../lib/telegram/render/machine-label.ts";

const t = CATALOGS.en;
const context = { project: "shop", sessionTitle: "Fix the cart", t };

describe("the caption of the agent's file", () => {
  it("says the project and session, and renders the agent's Markdown", async () => {
    const markdown = await loadMarkdown();
    expect(renderAgentFileCaption(context, "The **new** cart page, see `cart.tsx`", markdown, t)).toBe(
      "📁 <code>shop</code> · Fix the cart\nThe <b>new</b> cart page, see <code>cart.tsx</code>",
    );
  });

  it("with no caption it is the context line alone", () => {
    expect(renderAgentFileCaption(context, undefined, undefined, t)).toBe("📁 <code>shop</code> · Fix the cart");
    expect(renderAgentFileCaption(context, "   ", undefined, t)).toBe("📁 <code>shop</code> · Fix the cart");
  });

  it("escapes HTML and shows hidden characters the agent wrote", async () => {
    const html = renderAgentFileCaption(context, "<a href=x>tap</a> safe\u202Eevil", await loadMarkdown(), t);
    expect(html).toContain("&lt;a href=x&gt;tap&lt;/a&gt;");
    expect(html).toContain("⟨U+202E⟩");
    expect(html).not.toContain("\u202E");
  });

  it("keeps its start within Telegram's caption limit, room left for the machine label", async () => {
    const html = renderAgentFileCaption(context, `start ${"word ".repeat(600)}end`, await loadMarkdown(), t);
    expect(visibleLength(html)).toBeLessThanOrEqual(CAPTION_LIMIT - LABEL_ROOM);
    expect(html).toContain("start word");
    expect(html).not.toContain("end");
  });
});
