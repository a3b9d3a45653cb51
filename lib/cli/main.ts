// The `opencode-hermes` command line (bin/opencode-hermes.mjs loads this file): `opencode-hermes setup` finds the chat and
// prints the configuration, `opencode-hermes attach` bridges a running `opencode serve` from outside,
// `opencode-hermes doctor` checks a setup.
import { attach } from "./attach.ts";
import { doctor } from "./doctor.ts";
import { EXIT, processIo, type CliIo } from "./io.ts";
import { PACKAGE_NAME, packageVersion } from "../config/package-info.ts";
import { setup } from "./setup.ts";

export const USAGE = `Usage: opencode-hermes <command> [options]

Commands:
  setup     guided setup: checks the bot token, finds your chat when you send /start to the bot,
            and prints the environment variables and the opencode.json entry
  attach    bridges a running OpenCode server (opencode serve / opencode web) to Telegram
  doctor    checks the setup (versions, opencode.json, the token, the chat and the bot's rights,
            the relay, the log) and prints one line per check with the fix for each problem
  help      this text

Run \`opencode-hermes <command> --help\` for a command's options. Exit status 64: usage error.`;

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      io.err(USAGE);
      return EXIT.usage;
    case "help":
    case "--help":
    case "-h":
      io.out(USAGE);
      return EXIT.ok;
    case "version":
    case "--version":
      io.out(version());
      return EXIT.ok;
    case "setup":
      return setup(rest, io);
    case "attach":
      return attach(rest, io);
    case "doctor":
      return doctor(rest, io);
    default:
      io.err(`opencode-hermes: unknown command "${command}"\n\n${USAGE}`);
      return EXIT.usage;
  }
}

function version(): string {
  return `${PACKAGE_NAME} ${packageVersion() ?? "?"}`;
}
