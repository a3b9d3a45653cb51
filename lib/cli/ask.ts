// One line typed by the user on the terminal (setup asks for the token and whether to edit
// opencode.json).
import readline from "node:readline";

/** One line from `input`; undefined at the end of input, null for Ctrl-C. */
export function ask(
  input: NodeJS.ReadableStream,
  output: (NodeJS.WritableStream & { isTTY?: boolean }) | undefined,
  question: string,
  stop: AbortSignal,
): Promise<string | undefined | null> {
  const rl = readline.createInterface({ input, ...(output ? { output, terminal: Boolean(output.isTTY) } : {}) });
  return new Promise<string | undefined | null>((resolve) => {
    const onStop = () => rl.close();
    stop.addEventListener("abort", onStop, { once: true });
    rl.once("close", () => {
      stop.removeEventListener("abort", onStop);
      resolve(undefined);
    });
    // Ctrl-C on a terminal in raw mode reaches readline, not the process.
    rl.on("SIGINT", () => {
      output?.write("\n");
      resolve(null);
      rl.close();
    });
    rl.question(question, (answer) => {
      resolve(answer);
      rl.close();
    });
  });
}
