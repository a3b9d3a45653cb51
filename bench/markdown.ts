// Rendering the agent's Markdown: how long marked takes to load (in a fresh process, as the first
// question or answer pays it), and how long a Done notice with a 12,000-character answer and a
// question with a Markdown text take to render, parse included (every edit of a question renders
// it again).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CATALOGS } from "../lib/i18n/catalog.ts";
import { createQuestionPrompt } from "../lib/registry/question-prompt.ts";
import { loadMarkdown } from "../lib/text/markdown.ts";
import { renderNotice } from "../lib/telegram/render/render-notice.ts";
import { renderQuestion } from "../lib/telegram/render/render-question.ts";
import { median, round, summarize, type Summary } from "./stats.ts";

export interface MarkdownResult {
  /** import("marked") in a fresh Node process, ms (median of `loads`). */
  loadMs: number;
  loads: number;
  answerChars: number;
  /** renderNotice of a Done notice carrying the answer, ms. */
  doneNotice: Summary;
  /** renderQuestion of a question whose text and descriptions are Markdown, ms. */
  question: Summary;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const ANSWER = `# Migration report\n\n${Array.from(
  { length: 100 },
  (_, i) => `- table **t${i}** migrated: \`ok\` ✅ see [log](https://example.com/log/${i})\n  - rows: *1000*`,
).join("\n")}\n\n| table | rows |\n|---|---:|\n| users | 10 |\n\n\`\`\`ts\nconst done = a && b<T>();\n\`\`\`\n\n> next: drop the old tables`;

export async function runMarkdown(options: { samples: number; loads: number }): Promise<MarkdownResult> {
  const loadTimes: number[] = [];
  for (let run = 0; run < options.loads; run++) {
    const script = 'const t = performance.now(); await import("marked"); console.log(performance.now() - t);';
    loadTimes.push(Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" }).trim()));
  }
  const markdown = await loadMarkdown();
  const answer = ANSWER.repeat(Math.ceil(12_000 / ANSWER.length)).slice(0, 12_000);
  const context = { project: "bench", t: CATALOGS.en, markdown };
  const prompt = createQuestionPrompt(
    {
      id: "que_bench",
      sessionID: "ses_bench",
      questions: [
        {
          question: `Which **migration** should run first? See \`db/migrate.ts\` and [the plan](https://example.com/plan).\n\n${ANSWER.slice(0, 800)}`,
          header: "Migration",
          options: Array.from({ length: 8 }, (_, i) => ({ label: `Option ${i}`, description: `*step* ${i}: \`run ${i}\`` })),
          multiple: false,
          custom: true,
        },
      ],
    },
    "/bench",
    "BenchKey",
    0,
  );
  const time = (work: () => unknown) => {
    const samples: number[] = [];
    for (let run = 0; run < options.samples; run++) {
      const started = performance.now();
      work();
      samples.push(performance.now() - started);
    }
    return summarize(samples);
  };
  const doneNotice = time(() => renderNotice({ kind: "done", sessionID: "s", busyMs: 60_000, lastText: answer }, context));
  const question = time(() => renderQuestion(prompt, context));
  return { loadMs: round(median(loadTimes), 1), loads: options.loads, answerChars: answer.length, doneNotice, question };
}
