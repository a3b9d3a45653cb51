// The `hermes` command line. Unlike the plugin, it runs in a terminal of its own: status lines go
// to stderr (one per change), details to the log file (HERMES_LOG_FILE).
import fs from "node:fs";
import { parseArgs } from "node:util";
import { serverAuthFrom } from "../opencode/http-transport.ts";
import { AttachError, startAttach, type AttachHandle, type AttachOptions } from "./runner.ts";

export const USAGE = `Usage: hermes attach [--url URL] [--username USER] [--password PASS] [--directory DIR]...

Bridges a running OpenCode server (opencode serve / opencode web) to Telegram, without loading
Hermes as a plugin in that server. Every project directory of the server is covered.

  --url URL          the server (default http://127.0.0.1:4096)
  --username USER    HTTP Basic user (default: $OPENCODE_SERVER_USERNAME, else "opencode")
  --password PASS    HTTP Basic password (default: $OPENCODE_SERVER_PASSWORD; the variable keeps it out of ps)
  --directory DIR    also bridge DIR from the start (repeatable); others join when they become active

Telegram settings come from the same variables as the plugin: HERMES_TELEGRAM_TOKEN,
HERMES_TELEGRAM_CHAT_ID, … (see README). Exit status: 0 stopped (Ctrl-C), 1 error,
2 the Hermes plugin is already loaded in that server, 64 usage.`;

export const EXIT = { ok: 0, error: 1, pluginLoaded: 2, usage: 64 } as const;

export interface CliIo {
  env: Record<string, string | undefined>;
  /** One line for the user (no trailing newline). */
  err(line: string): void;
  out(line: string): void;
  /** Calls `stop` on SIGINT/SIGTERM; returns a function that removes the handlers. */
  onSignal(stop: () => void): () => void;
  /** Tests: adjust what startAttach gets. */
  tune?(options: AttachOptions): AttachOptions;
}

export const processIo: CliIo = {
  env: process.env,
  err: (line) => process.stderr.write(`${line}\n`),
  out: (line) => process.stdout.write(`${line}\n`),
  onSignal(stop) {
    const handler = () => stop();
    process.on("SIGINT", handler);
    process.on("SIGTERM", handler);
    return () => {
      process.off("SIGINT", handler);
      process.off("SIGTERM", handler);
    };
  },
};

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    (command === undefined ? io.err : io.out)(USAGE);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  if (command === "--version" || command === "version") {
    io.out(version());
    return EXIT.ok;
  }
  if (command !== "attach") {
    io.err(`hermes: unknown command "${command}"\n\n${USAGE}`);
    return EXIT.usage;
  }
  let values: { url?: string; username?: string; password?: string; directory?: string[]; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        url: { type: "string" },
        username: { type: "string" },
        password: { type: "string" },
        directory: { type: "string", multiple: true },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`hermes: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (values.help) {
    io.out(USAGE);
    return EXIT.ok;
  }
  const parsed = parseUrl(values.url ?? "http://127.0.0.1:4096");
  if (!parsed) {
    io.err(`hermes: --url must be an http(s) URL (got "${values.url}")`);
    return EXIT.usage;
  }
  // Credentials in the URL (http://user:pass@host) become Basic auth: fetch refuses such URLs.
  const options: AttachOptions = {
    url: parsed.url,
    auth: serverAuthFrom(io.env, { username: values.username ?? parsed.username, password: values.password ?? parsed.password }),
    directories: values.directory ?? [],
    env: io.env,
    report: io.err,
  };
  const handle: AttachHandle = startAttach(io.tune ? io.tune(options) : options);
  const removeHandlers = io.onSignal(() => void handle.stop());
  try {
    await handle.done;
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof AttachError)) {
      io.err(`hermes: ${error instanceof Error ? error.message : String(error)}`);
      return EXIT.error;
    }
    // The runner already reported it through `report`, except a configuration problem.
    if (error.kind === "config") io.err(error.message);
    return error.kind === "plugin-loaded" ? EXIT.pluginLoaded : EXIT.error;
  } finally {
    removeHandlers();
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

function parseUrl(text: string): { url: string; username?: string; password?: string } | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  const username = url.username ? decodeURIComponent(url.username) : undefined;
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.username = "";
  url.password = "";
  return { url: url.href.replace(/\/$/, ""), ...(username ? { username } : {}), ...(password ? { password } : {}) };
}
