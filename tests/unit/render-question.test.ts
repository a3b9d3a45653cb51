import { describe, expect, it } from "vitest";
import type { PromptState } from "../../lib/registry/prompt.ts";
import { createQuestionPrompt, tapOption, type QuestionPrompt } from "../../lib/registry/question-prompt.ts";
import type { QuestionInfo } from "../../lib/hermes-events.ts";
import { CALLBACK_DATA_LIMIT, decodeCallback } from "../../lib/telegram/codec.ts";
import { MESSAGE_LIMIT, visibleLength } from "../../lib/text/html.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { colorQuestion } from "../support/fixtures.ts";
import { renderQuestion } from "../../lib/telegram/render/render-question.ts";
import type { RenderedMessage } from "../../lib/telegram/wire/rendered-message.ts";

const BUTTON = CATALOGS.en.button;

const KEY = "Kx7Yz2Qa";
const CONTEXT = { project: "project", sessionTitle: "Fix the bug" };

const q = colorQuestion;

function prompt(questions: QuestionInfo[], over: Partial<QuestionPrompt> = {}): QuestionPrompt {
  return { ...createQuestionPrompt({ id: "que_1", sessionID: "ses_1", questions }, "/home/dev/project", KEY, 0), ...over };
}

function buttons(message: RenderedMessage) {
  return message.keyboard.flat();
}

function texts(message: RenderedMessage): string[] {
  return buttons(message).map((button) => button.text);
}

function decoded(message: RenderedMessage) {
  return buttons(message).map((button) => decodeCallback(button.callback_data));
}

describe("renderQuestion: a single-choice question", () => {
  const message = renderQuestion(prompt([q()]), CONTEXT);

  it("shows status, context, header, question and options", () => {
    expect(message.text).toBe(
      [
        "❓ <b>OpenCode is asking</b>",
        "📁 <code>project</code> · Fix the bug",
        "",
        "<b>Color</b>",
        "Which color?",
        "• <b>Red</b> — warm",
        "• <b>Blue</b> — cool",
      ].join("\n"),
    );
  });

  it("has one button per option, labelled with the option label, then Type an answer, then Dismiss", () => {
    expect(message.keyboard.map((row) => row.map((button) => button.text))).toEqual([["Red"], ["Blue"], [BUTTON.type], [BUTTON.dismiss]]);
  });

  it("encodes each button with the prompt key and its indexes", () => {
    expect(decoded(message)).toEqual([
      { key: KEY, action: "option", question: 0, option: 0 },
      { key: KEY, action: "option", question: 0, option: 1 },
      { key: KEY, action: "type", question: 0, option: 0 },
      { key: KEY, action: "dismiss", question: 0, option: 0 },
    ]);
  });

  it("does not number a lone question or mark it with ▶", () => {
    expect(message.text).not.toContain("1/1");
    expect(message.text).not.toContain("▶");
  });

  it("names an untitled question 'Question' and leaves out the session title when unknown", () => {
    const untitled = renderQuestion(prompt([q({ header: "" })]), { project: "p" });
    expect(untitled.text.split("\n").slice(1, 4)).toEqual(["📁 <code>p</code>", "", "<b>Question</b>"]);
  });

  it("omits the description dash when an option has none", () => {
    const text = renderQuestion(prompt([q({ options: [{ label: "Only", description: "" }] })]), CONTEXT).text;
    expect(text.endsWith("\n• <b>Only</b>")).toBe(true);
    expect(text).not.toContain("Only</b> —");
  });
});

describe("renderQuestion: free text", () => {
  it("offers Type an answer unless custom is false", () => {
    expect(texts(renderQuestion(prompt([q({ custom: true })]), CONTEXT))).toContain(BUTTON.type);
    expect(texts(renderQuestion(prompt([q({ custom: false })]), CONTEXT))).not.toContain(BUTTON.type);
  });

  it("still offers Dismiss without options or free text", () => {
    const message = renderQuestion(prompt([q({ custom: false, options: [] })]), CONTEXT);
    expect(message.keyboard).toEqual([[{ text: BUTTON.dismiss, callback_data: `h1:${KEY}:x` }]]);
  });

  it("a question with no options and free text offers just Type an answer and Dismiss", () => {
    const message = renderQuestion(prompt([q({ options: [] })]), CONTEXT);
    expect(texts(message)).toEqual([BUTTON.type, BUTTON.dismiss]);
  });
});

describe("renderQuestion: multiple choice", () => {
  const question = q({
    header: "Sizes",
    question: "Which sizes?",
    multiple: true,
    options: [
      { label: "S", description: "" },
      { label: "M", description: "" },
      { label: "L", description: "" },
    ],
  });

  it("hints to choose then Done, and puts Done before Type an answer", () => {
    const message = renderQuestion(prompt([question]), CONTEXT);
    expect(message.text).toContain("<b>Sizes</b> <i>(choose any, then Done)</i>");
    expect(message.keyboard.map((row) => row.map((button) => button.text))).toEqual([["S"], ["M"], ["L"], [BUTTON.done, BUTTON.type], [BUTTON.dismiss]]);
    expect(decodeCallback(message.keyboard[3]![0]!.callback_data)).toEqual({ key: KEY, action: "done", question: 0, option: 0 });
  });

  it("marks ticked options with ✅ and only those", () => {
    const p = prompt([question]);
    tapOption(p, 0, 0);
    tapOption(p, 0, 2);
    const message = renderQuestion(p, CONTEXT);
    expect(message.keyboard.slice(0, 3).map((row) => row[0]!.text)).toEqual(["✅ S", "M", "✅ L"]);
  });

  it("never shows ✅ on single-choice buttons", () => {
    const p = prompt([q()]);
    p.ticked[0]!.add(0);
    expect(texts(renderQuestion(p, CONTEXT)).some((text) => text.startsWith("✅"))).toBe(false);
  });

  it("Done without free text sits alone", () => {
    const message = renderQuestion(prompt([{ ...question, custom: false }]), CONTEXT);
    expect(message.keyboard.at(-2)!.map((button) => button.text)).toEqual([BUTTON.done]);
  });
});

describe("renderQuestion: several questions", () => {
  const questions = [
    q(),
    q({
      header: "Sizes",
      question: "Which sizes?",
      multiple: true,
      options: [
        { label: "S", description: "small" },
        { label: "L", description: "large" },
      ],
    }),
    q({ header: "Name", question: "Name it", options: [] }),
  ];

  it("numbers them and marks the current one with ▶", () => {
    const text = renderQuestion(prompt(questions), CONTEXT).text;
    expect(text).toContain("▶ <b>1/3 · Color</b>");
    expect(text).toContain("\n<b>2/3 · Sizes</b>");
    expect(text).toContain("\n<b>3/3 · Name</b>");
    expect(text.match(/▶/g)).toHaveLength(1);
  });

  it("only shows the current question's buttons", () => {
    const p = prompt(questions);
    const first = renderQuestion(p, CONTEXT);
    expect(texts(first)).toEqual(["Red", "Blue", BUTTON.type, BUTTON.dismiss]);
    expect(
      decoded(first)
        .filter((data) => data?.action === "option")
        .every((data) => data!.question === 0),
    ).toBe(true);

    tapOption(p, 0, 1);
    const second = renderQuestion(p, CONTEXT);
    expect(texts(second)).toEqual(["S", "L", BUTTON.done, BUTTON.type, BUTTON.dismiss]);
    expect(
      decoded(second)
        .filter((data) => data && data.action !== "dismiss")
        .every((data) => data!.question === 1),
    ).toBe(true);
    expect(second.text).toContain("▶ <b>2/3 · Sizes</b>");
    expect(second.text).not.toContain("▶ <b>1/3");
  });

  it("shows '→ answer' under answered questions only", () => {
    const p = prompt(questions);
    p.answers[0] = ["Blue"];
    p.answers[1] = ["S", "my size"];
    const text = renderQuestion(p, CONTEXT).text;
    expect(text).toContain("• <b>Blue</b> — cool\n<b>→ Blue</b>");
    expect(text).toContain("• <b>L</b> — large\n<b>→ S, my size</b>");
    expect(text.match(/→/g)).toHaveLength(2);
    expect(text).toContain("▶ <b>3/3 · Name</b>");
  });

  it("prefers the answers OpenCode reported", () => {
    const p = prompt(questions, { state: "answered_elsewhere", finalAnswers: [["Red"], ["L"], ["typed"]] });
    p.answers[0] = ["Blue"];
    const text = renderQuestion(p, CONTEXT).text;
    expect(text).toContain("<b>→ Red</b>");
    expect(text).toContain("<b>→ L</b>");
    expect(text).toContain("<b>→ typed</b>");
    expect(text).not.toContain("→ Blue");
  });

  it("has no keyboard and no ▶ once every question is answered", () => {
    const p = prompt(questions);
    p.answers = [["Red"], ["S"], ["x"]];
    const message = renderQuestion(p, CONTEXT);
    expect(message.keyboard).toEqual([]);
    expect(message.text).not.toContain("▶");
  });
});

describe("renderQuestion: dismiss", () => {
  it("turns Dismiss into Confirm and warns when armed", () => {
    const idle = renderQuestion(prompt([q()]), CONTEXT);
    expect(idle.keyboard.at(-1)).toEqual([{ text: BUTTON.dismiss, callback_data: `h1:${KEY}:x` }]);
    expect(idle.text).not.toContain("Confirm");

    const armed = renderQuestion(prompt([q()], { dismissArmed: true }), CONTEXT);
    // The confirmation of what stops the run is red.
    expect(armed.keyboard.at(-1)).toEqual([{ text: BUTTON.confirm, callback_data: `h1:${KEY}:c`, style: "danger" }]);
    expect(texts(armed)).not.toContain(BUTTON.dismiss);
    expect(armed.text.endsWith("⚠️ Dismissing stops the agent's run. Tap <b>Confirm</b> to dismiss, or pick an answer.")).toBe(true);
    // Options stay available while armed.
    expect(texts(armed).slice(0, 2)).toEqual(["Red", "Blue"]);
  });

  it("shows a notice, escaped", () => {
    const text = renderQuestion(prompt([q()], { notice: () => "Reply failed: <500>" }), CONTEXT).text;
    expect(text).toContain("⚠️ Reply failed: &lt;500&gt;");
  });
});

describe("renderQuestion: busy and final states", () => {
  const FINAL: PromptState[] = ["answered", "answered_elsewhere", "dismissed", "dismissed_elsewhere", "expired", "gone"];

  it("shows 'Sending your answer…' without buttons while busy", () => {
    const message = renderQuestion(prompt([q()], { busy: true }), CONTEXT);
    expect(message.text.split("\n")[0]).toBe("⏳ <b>Sending your answer…</b>");
    expect(message.keyboard).toEqual([]);
  });

  it.each(FINAL)("%s has no keyboard, no ▶ and no armed warning", (state) => {
    const message = renderQuestion(prompt([q(), q()], { state, dismissArmed: true }), CONTEXT);
    expect(message.keyboard).toEqual([]);
    expect(message.text).not.toContain("▶");
    expect(message.text).not.toContain("Tap <b>Confirm</b>");
  });

  it("gives every state its own status line", () => {
    const lines = [...FINAL, "pending" as const].map((state) => renderQuestion(prompt([q()], { state }), CONTEXT).text.split("\n")[0]);
    lines.push(renderQuestion(prompt([q()], { busy: true }), CONTEXT).text.split("\n")[0]);
    expect(new Set(lines).size).toBe(FINAL.length + 2);
    expect(lines.slice(0, FINAL.length)).toEqual([
      "✅ <b>Answered from Telegram</b>",
      "✅ <b>Answered in the terminal</b>",
      "🚫 <b>Dismissed from Telegram</b>",
      "🚫 <b>Dismissed in the terminal</b>",
      "⌛ <b>Expired</b>: nobody answered in time, so the question was dismissed",
      "⚪ <b>No longer pending</b>: OpenCode closed this question",
    ]);
  });
});

describe("renderQuestion: untrusted text is escaped", () => {
  const evil = `<b onclick="x">&amp;</b><a href="javascript:alert(1)">"q"</a>`;
  const escaped = `&lt;b onclick=&quot;x&quot;&gt;&amp;amp;&lt;/b&gt;&lt;a href=&quot;javascript:alert(1)&quot;&gt;&quot;q&quot;&lt;/a&gt;`;

  it("escapes header, question, labels, descriptions, project, title and answers", () => {
    const p = prompt([q({ header: `H${evil}`, question: `Q${evil}`, options: [{ label: `L${evil}`, description: `D${evil}` }] }), q({ header: "2" })]);
    p.answers[0] = [`A${evil}`];
    const text = renderQuestion(p, { project: `P${evil}`, sessionTitle: `T${evil}` }).text;
    for (const prefix of ["H", "Q", "L", "D", "P", "T", "A"]) expect(text).toContain(prefix + escaped);
    // Only Hermes' own tags remain.
    const tags = new Set([...text.matchAll(/<\/?([a-z-]+)[^>]*>/gi)].map((match) => match[1]));
    expect([...tags].sort()).toEqual(["b", "code"]);
    expect(text).not.toContain('onclick="');
    expect(text).not.toContain("<a ");
  });

  it("keeps button texts as plain labels (buttons are not HTML)", () => {
    const message = renderQuestion(prompt([q({ options: [{ label: "<b>&amp;</b>", description: "" }] })]), CONTEXT);
    expect(message.keyboard[0]![0]!.text).toBe("<b>&amp;</b>");
  });

  it("never puts labels or request ids in callback data", () => {
    const message = renderQuestion(prompt([q({ options: [{ label: "SECRET-LABEL", description: "" }] })]), CONTEXT);
    for (const button of buttons(message)) {
      expect(button.callback_data).not.toContain("SECRET");
      expect(button.callback_data).not.toContain("que_1");
      expect(button.callback_data).toMatch(/^h1:/);
    }
  });
});

describe("renderQuestion: limits", () => {
  const huge = (length: number, seed: string) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length);

  function checkLimits(message: RenderedMessage): void {
    // Telegram counts the text after entity parsing (what the user sees), not the HTML.
    expect(visibleLength(message.text)).toBeLessThanOrEqual(MESSAGE_LIMIT);
    for (const button of buttons(message)) {
      expect(Buffer.byteLength(button.callback_data)).toBeLessThanOrEqual(CALLBACK_DATA_LIMIT);
      expect(decodeCallback(button.callback_data)).toBeDefined();
    }
    // The text stays well-formed: every tag opened is closed.
    const open = (message.text.match(/<(b|i|code)>/g) ?? []).length;
    const close = (message.text.match(/<\/(b|i|code)>/g) ?? []).length;
    expect(open).toBe(close);
  }

  it("a 10k-character question with 50 options of 500-character labels fits Telegram's limits", () => {
    const options = Array.from({ length: 50 }, (_, index) => ({ label: `${index}:${huge(500, "label <&> ")}`, description: huge(500, "desc & more ") }));
    const p = prompt([q({ question: huge(10_000, "why? <b>& "), header: huge(500, "H<"), options, multiple: true })]);
    p.ticked[0]!.add(49);
    const message = renderQuestion(p, { project: huge(500, "p&"), sessionTitle: huge(500, "t<") });
    checkLimits(message);
    // By design, not blind truncation: every option keeps a numbered line in the text.
    for (let index = 1; index <= 50; index++) expect(message.text).toContain(`<b>${index}. ${index - 1}:label`);
    expect(message.text).toContain("(cut: the full question is in the terminal)");
    expect(message.keyboard).toHaveLength(52);
    expect(decoded(message)[49]).toEqual({ key: KEY, action: "option", question: 0, option: 49 });
    // Long button labels are numbered and cut, on code points, to 60 characters.
    expect(message.keyboard[0]![0]!.text.startsWith("1. 0:label")).toBe(true);
    expect(Array.from(message.keyboard[0]![0]!.text)).toHaveLength(63);
    expect(message.keyboard[0]![0]!.text.endsWith("…")).toBe(true);
    expect(message.keyboard[49]![0]!.text.startsWith("✅ 50. 49:")).toBe(true);
  });

  it("puts short labels several to a row", () => {
    const options = Array.from({ length: 7 }, (_, index) => ({ label: `Opt ${index}`, description: "" }));
    const message = renderQuestion(prompt([q({ options })]), CONTEXT);
    expect(message.keyboard.slice(0, 3).map((row) => row.map((button) => button.text))).toEqual([
      ["Opt 0", "Opt 1", "Opt 2"],
      ["Opt 3", "Opt 4", "Opt 5"],
      ["Opt 6"],
    ]);
  });

  it("stays within limits with many questions full of emoji and entities", () => {
    const questions = Array.from({ length: 6 }, (_, index) =>
      q({
        header: huge(200, "😀&"),
        question: huge(3000, "漢<字>"),
        options: Array.from({ length: 10 }, (_, option) => ({ label: `${index}.${option} ${huge(300, "👍🏽<")}`, description: huge(400, "&😀") })),
      }),
    );
    const p = prompt(questions, { dismissArmed: true, notice: () => huge(300, "oops <x> ") });
    for (let index = 0; index < 5; index++) p.answers[index] = [huge(2000, "answer & 😀")];
    const message = renderQuestion(p, CONTEXT);
    checkLimits(message);
    expect(message.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(
      decoded(message)
        .filter((data) => data?.action === "option")
        .every((data) => data!.question === 5),
    ).toBe(true);
  });

  // BUG: rendering is slow on big prompts because cutHtml is O(limit × text length)
  // (lib/text/html.ts:28, `Array.from(rest)` per character; see html.test.ts). This 20-question
  // prompt (~100k characters of HTML before the cut) takes well over a second on every render, and
  // the bridge renders on every tap, inside OpenCode's process. Fix cutHtml as described there.
  it("renders a big 20-question prompt within the message limit", () => {
    const questions = Array.from({ length: 20 }, () =>
      q({
        question: huge(3000, "why <this> & that? "),
        options: Array.from({ length: 10 }, () => ({ label: huge(300, "label "), description: huge(400, "description ") })),
      }),
    );
    const message = renderQuestion(prompt(questions), CONTEXT);
    expect(message.text.length).toBeLessThanOrEqual(MESSAGE_LIMIT);
    expect(message.text).toMatch(/…(<\/[a-z]+>)*$/);
  });

  it("cuts long fields by their escaped length, so entities are never split", () => {
    const message = renderQuestion(prompt([q({ question: "&".repeat(5000) })]), CONTEXT);
    expect(message.text).not.toMatch(/&(?!amp;|lt;|gt;|quot;)/);
    expect(visibleLength(message.text)).toBeLessThanOrEqual(MESSAGE_LIMIT);
    const header = renderQuestion(prompt([q({ header: "&".repeat(200) })]), CONTEXT);
    expect(header.text).toContain(`<b>${"&amp;".repeat(39)}…</b>`); // 200 characters once escaped
  });
});
