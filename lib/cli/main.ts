// The `hermes` command line (bin/hermes.mjs loads this file): `hermes setup` finds the chat and
// prints the configuration, `hermes attach` bridges a running `opencode serve` from outside.
import fs from "node:fs";
import { attach } from "./attach.ts";
import { EXIT, processIo, type CliIo } from "./io.ts";
import { setup } from "./setup.ts";

export const USAGE = `Usage: hermes <command> [options]

Commands:
  setup     guided setup: checks the bot token, finds your chat when you send /start to the bot,
            and prints the environment variables and the opencode.json entry
  attach    bridges a running OpenCode server (opencode serve / opencode web) to Telegram
  help      this text

Run \`hermes <command> --help\` for a command's options. Exit status 64: usage error.`;

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
    default:
      io.err(`hermes: unknown command "${command}"\n\n${USAGE}`);
      return EXIT.usage;
  }
}

function version(): string {
  try {
    const pkg = JSON.parse(fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { name?: string; version?: string };
    return `${pkg.name ?? "hermes"} ${pkg.version ?? "?"}`;
  } catch {
    return "hermes";
  }
}
