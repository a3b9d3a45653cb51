// A run started: the text its first prompt will show is made ready now, on a timer, off the
// prompt's path. Cold, the first question's render loaded marked, compiled its rules on the first
// lex (80–110 ms under Node) and created the grapheme segmenter (30–40 ms); a run's question or
// Done notice needs both anyway, so nothing is loaded that the run would not load.
import { cutText } from "./html.ts";
import { loadMarkdown } from "./markdown.ts";

let warmed = false;

/** Once per process: marked loaded and run once, the segmenter made; nothing at start-up. */
export function warmUpTextSoon(): void {
  if (warmed) return;
  warmed = true;
  setTimeout(() => {
    cutText("warm-up", 4);
    void loadMarkdown().then((markdown) => markdown("**A** run's `first` [prompt](https://example.org)\n\n- one\n- two"));
  }, 0).unref?.();
}
