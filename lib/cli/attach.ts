// `opencode-hermes attach`: bridges a running `opencode serve` from outside. Unlike the plugin, it runs in a
// terminal of its own: status lines go to stderr (one per change), details to the log file
// (HERMES_LOG_FILE). lib/cli/main.ts dispatches to it.
import { parseArgs } from "node:util";
import { startAttachFor } from "../attach/dispatch.ts";
import { AttachError, type AttachHandle, type AttachOptions } from "../attach/attach-mode.ts";
import { DEFAULT_SERVER_USERNAME, serverAuthFrom } from "../opencode/http-transport.ts";
import { EXIT, type CliIo } from "./io.ts";

/** Where `opencode serve` listens unless told otherwise. */
const DEFAULT_URL = "http://127.0.0.1:4096";

const USAGE = `Usage: opencode-hermes attach [--url URL] [--username USER] [--password PASS] [--directory DIR]...

Bridges a running OpenCode server (opencode serve / opencode web) to Telegram, without loading
Hermes as a plugin in that server. Every project directory of the server is covered.

  --url URL          the server (default ${DEFAULT_URL})
  --username USER    HTTP Basic user (default: $OPENCODE_SERVER_USERNAME, else "${DEFAULT_SERVER_USERNAME}")
  --password PASS    HTTP Basic password (default: $OPENCODE_SERVER_PASSWORD; the variable keeps it out of ps)
  --directory DIR    also bridge DIR from the start (repeatable); others join when they become active

Telegram settings come from the same variables as the plugin: HERMES_TELEGRAM_TOKEN,
HERMES_TELEGRAM_CHAT_ID, … (see README). Exit status: 0 stopped (Ctrl-C), 1 error,
2 the Hermes plugin is already loaded in that server, 64 usage.`;

/** `opencode-hermes attach [options]`: `args` are the arguments after "attach". */
export async function attach(args: string[], io: CliIo): Promise<number> {
  let values: { url?: string; username?: string; password?: string; directory?: string[]; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
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
    io.err(`opencode-hermes: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (values.help) {
    io.out(USAGE);
    return EXIT.ok;
  }
  const parsed = parseUrl(values.url ?? DEFAULT_URL);
  if (!parsed) {
    io.err(`opencode-hermes: --url must be an http(s) URL (got "${values.url}")`);
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
  const handle: AttachHandle = startAttachFor(io.tune ? io.tune(options) : options);
  const removeHandlers = io.onSignal(() => void handle.stop());
  try {
    await handle.done;
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof AttachError)) {
      io.err(`opencode-hermes: ${error instanceof Error ? error.message : String(error)}`);
      return EXIT.error;
    }
    // The runner already reported it through `report`, except a configuration problem.
    if (error.kind === "config") io.err(error.message);
    return error.kind === "plugin-loaded" ? EXIT.pluginLoaded : EXIT.error;
  } finally {
    removeHandlers();
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
