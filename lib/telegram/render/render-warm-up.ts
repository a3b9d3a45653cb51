// A run started: the question renderer runs a few times on a made-up question, on a timer, so that
// the run's first real prompts do not pay for code that runs for the first time (measured: the
// first two prompts of a process took 4.4 and 3.9 ms against 1.4–2.0 ms for the rest, which set
// the group rounds' p90). The text it needs is made ready by lib/text/warm-up.ts.
import type { Strings } from "../../i18n/catalog.ts";
import { createQuestionPrompt } from "../../registry/question-prompt.ts";
import { renderQuestion } from "./render-question.ts";

const ROUNDS = 3;
let warmed = false;

/** Once per process, on a timer: nothing at start-up, nothing on a prompt's path. */
export function warmUpRendererSoon(t: Strings): void {
  if (warmed) return;
  warmed = true;
  setTimeout(() => {
    const options = [
      { label: "Yes", description: "go on" },
      { label: "No <b>", description: "stop & think" },
    ];
    const request = { id: "que_warm", sessionID: "ses_warm", questions: [{ question: "Which one?", header: "Pick", options, multiple: false, custom: true }] };
    for (let round = 0; round < ROUNDS; round++) renderQuestion(createQuestionPrompt(request, "/warm-up", "warmup00", 0), { project: "warm-up", t });
  }, 0).unref?.();
}
