// One line typed by the user on the terminal (setup asks for the token, without echoing it, and
// whether to edit opencode.json).
import readline from "node:readline";
import { Writable } from "node:stream";

type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** One line from `input`; undefined at the end of input, null for Ctrl-C. */
export function ask(input: NodeJS.ReadableStream, output: Output | undefined, question: string, stop: AbortSignal): Promise<string | undefined | null> {
  return askLine(input, output, question, stop, false);
}

/**
 * The same, for a secret (the bot token): the question is shown, what is typed is not (readline
 * echoes through its output, so after the question its output writes nothing until the line ends).
 */
export function askSecret(input: NodeJS.ReadableStream, output: Output | undefined, question: string, stop: AbortSignal): Promise<string | undefined | null> {
  return askLine(input, output, question, stop, true);
}

function askLine(input: NodeJS.ReadableStream, output: Output | undefined, question: string, stop: AbortSignal, secret: boolean) {
  let muted = false;
  const shown =
    output && secret
      ? Object.assign(
          new Writable({
            write(chunk, _encoding, done) {
              if (!muted) output.write(chunk);
              done();
            },
          }),
          { isTTY: output.isTTY, columns: output.columns },
        )
      : output;
  const rl = readline.createInterface({ input, ...(shown ? { output: shown, terminal: Boolean(output?.isTTY) } : {}) });
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
      if (muted) {
        muted = false;
        output?.write("\n");
      }
      resolve(answer);
      rl.close();
    });
    // The question is written; from here on nothing typed is shown.
    if (secret) muted = true;
  });
}
