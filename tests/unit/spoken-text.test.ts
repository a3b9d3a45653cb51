// What of an answer is read aloud: code blocks, tables and links named, not spelled; Markdown marks
// gone; a long answer cut after a sentence at about two minutes, saying the rest is in the text.
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { SPOKEN_LIMIT_CHARS, spokenText } from "../../lib/voice/spoken-text.ts";

const say = CATALOGS.en.speech.spoken;

describe("spokenText", () => {
  it("a code block is named with its lines, not read", () => {
    const { text } = spokenText("Here is the fix:\n\n```ts\nconst a = 1;\nconst b = 2;\nexport { a, b };\n```\n\nThat is all.", say);
    expect(text).toBe("Here is the fix:\n\n(a code block of 3 lines)\n\nThat is all.");
  });

  it("an unclosed code block is named too", () => {
    expect(spokenText("Look:\n```\nx\ny", say).text).toBe("Look:\n(a code block of 2 lines)");
  });

  it("a table is named with its rows; a link is its label; a bare URL is 'a link'; emphasis, headings, lists and inline code keep only words", () => {
    const answer = [
      "## Results",
      "",
      "| name | value |",
      "| ---- | ----- |",
      "| a | 1 |",
      "| b | 2 |",
      "",
      "- See [the docs](https://example.com/docs) and **bold** _words_ with `npm test`.",
      "- Or https://example.com/raw?x=1 directly.",
    ].join("\n");
    expect(spokenText(answer, say).text).toBe("Results\n\n(a table of 2 rows)\n\nSee the docs and bold words with npm test.\nOr (a link) directly.");
  });

  it("a long answer stops after a sentence near two minutes, and says the rest is in the text", () => {
    const sentence = "This sentence is part of a long answer. ";
    const { text, cut } = spokenText(sentence.repeat(100), say);
    expect(cut).toBe(true);
    expect(text.length).toBeLessThanOrEqual(SPOKEN_LIMIT_CHARS + say.restInText.length + 2);
    expect(text.endsWith(`long answer.\n\n${say.restInText}`)).toBe(true);
    expect(spokenText(sentence.repeat(3), say).cut).toBe(false);
  });
});
