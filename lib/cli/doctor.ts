// `opencode-hermes doctor`: checks a setup and prints one line per check, ✅ fine, ❌ wrong (with
// the fix), ➖ nothing to check. Exit status 0 when nothing is wrong, 1 otherwise. The settings are
// read as the plugin reads them (the environment, then Hermes' options in opencode.json); every
// line is scrubbed of the bot token and the transcription key, which are never printed.
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parse } from "jsonc-parser";
import { DEFAULT_API_ROOT, readConfig } from "../config/config.ts";
import { globalHermesOptions, hermesEntryOptions } from "../config/global-config.ts";
import { environmentSecrets, makeScrubber } from "../system/log.ts";
import { checkLine, ok, problem, type Check } from "./doctor-check.ts";
import { opencodeVersion } from "./opencode-version.ts";
import { ownEntry } from "./plugin-spec.ts";
import {
  effectiveEntry,
  entryFormCheck,
  logCheck,
  nodeCheck,
  opencodeCheck,
  pluginEntryChecks,
  projectConfigFiles,
  speechCheck,
  transcriptionCheck,
} from "./doctor-local.ts";
import { specCheck } from "./doctor-spec.ts";
import { telegramChecks, type TelegramSettings } from "./doctor-telegram.ts";
import { EXIT, type CliIo } from "./io.ts";

export const DOCTOR_USAGE = `Usage: opencode-hermes doctor [--directory DIR]

Checks your Hermes setup and prints one line per check: ✅ fine, ❌ wrong (with the fix), ➖ nothing
to check. Node and OpenCode versions; Hermes in the global opencode.json and in the project; the bot
token (the bot's @username); the chat and the bot's rights there (posting, topics, privacy mode);
the allow-list of a group; whether an OpenCode with Hermes polls the bot now; the transcription
service if set; the log file. Reads the same environment variables as the plugin. Never prints
the token or the transcription key.

  --directory DIR  the project to check (default: the current directory)

Exit status: 0 nothing wrong, 1 something to fix, 64 usage.`;

type Env = Record<string, string | undefined>;

export async function doctor(args: string[], io: CliIo): Promise<number> {
  let values: { directory?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: { directory: { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    io.err(`opencode-hermes: ${error instanceof Error ? error.message : String(error)}\n\n${DOCTOR_USAGE}`);
    return EXIT.usage;
  }
  if (values.help) {
    io.out(DOCTOR_USAGE);
    return EXIT.ok;
  }
  const directory = path.resolve(values.directory ?? process.cwd());
  const scrub = makeScrubber(environmentSecrets(io.env));
  const print = (check: Check) => io.out(scrub(checkLine(check)));
  let wrong = 0;
  const report = (checks: Check[]) => {
    for (const check of checks) {
      print(check);
      if (check.state === "problem") wrong++;
    }
  };

  const found = await opencodeVersion(io.env);
  const version = "version" in found ? found.version : undefined;
  // The entry that loads this Hermes in the OpenCode on the PATH: what every fix below names.
  const own = ownEntry(version);
  report([nodeCheck(), opencodeCheck(found)]);
  report(pluginEntryChecks(io.env, directory, own));
  const entry = effectiveEntry(io.env, directory);
  if (entry) report([entryFormCheck(entry, version, own) ?? (await specCheck(entry.spec, entry.file, io.env, fetch, own))]);
  const options = effectiveOptions(io.env, directory);
  report(settingsChecks(io.env, options.project ?? options.global));
  report(await telegramChecks(telegramSettings(io.env, options), io.env));
  report([await transcriptionCheck(io.env), await speechCheck(io.env), logCheck(io.env)]);
  io.out("");
  io.out(wrong === 0 ? "Nothing to fix." : `${wrong} ${wrong === 1 ? "thing" : "things"} to fix (❌ above).`);
  return wrong === 0 ? EXIT.ok : EXIT.error;
}

interface Options {
  global?: Record<string, unknown>;
  project?: Record<string, unknown>;
}

/** Hermes' options in the global config and in the project's nearest config that lists Hermes. */
function effectiveOptions(env: Env, directory: string): Options {
  const global = globalHermesOptions(env).options;
  let project: Record<string, unknown> | undefined;
  for (const file of projectConfigFiles(directory)) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    project = hermesEntryOptions(
      parse(
        text.replace(/\{env:([^}]+)\}/g, (_, name: string) => env[name] ?? ""),
        [],
        { allowTrailingComma: true },
      ),
    );
    if (project !== undefined) break;
  }
  return { ...(global ? { global } : {}), ...(project ? { project } : {}) };
}

/** The plugin's own verdict on the settings, less what the Telegram checks say better (token, chat, allow-list). */
function settingsChecks(env: Env, options: Record<string, unknown> | undefined): Check[] {
  const verdict = readConfig(env, options, globalHermesOptions(env));
  // What the plugin ignores for its default (it stays on, and says so once on the phone): still a mistake to fix.
  const ignored = (verdict.ok ? verdict.config.ignored : verdict.ignored) ?? [];
  const ignoredChecks = ignored.map((text) =>
    problem(`Ignored: ${text}`, "fix it or remove it (docs/configuration.md lists every setting); Hermes runs on the default meanwhile."),
  );
  if (verdict.ok) return ignoredChecks.length > 0 ? ignoredChecks : [ok("The settings are valid (as the plugin reads them)")];
  const covered = /^HERMES_TELEGRAM_(TOKEN|CHAT_ID is not set|ALLOWED_USERS is required)/;
  const rest = verdict.problems.filter((text) => !covered.test(text));
  return [...rest.map((text) => problem(`Setting: ${text}`, "change it as said (docs/configuration.md lists every setting).")), ...ignoredChecks];
}

function telegramSettings(env: Env, options: Options): TelegramSettings {
  const fromEnv = (name: string) => (env[name]?.trim() ? env[name]!.trim() : undefined);
  const option = (name: string) => options.project?.[name] ?? options.global?.[name];
  // The chat and the allow-list come from an option only as the global config says (lib/config/config-options.ts).
  const chatText = fromEnv("HERMES_TELEGRAM_CHAT_ID") ?? optionText(options.global?.chatId);
  const chatId = chatText !== undefined && /^-?\d+$/.test(chatText) ? Number(chatText) : undefined;
  const allowed = fromEnv("HERMES_TELEGRAM_ALLOWED_USERS") ?? optionText(options.global?.allowedUsers);
  const topicsText = (fromEnv("HERMES_TELEGRAM_TOPICS") ?? optionText(option("topics")) ?? "off").toLowerCase();
  const token = fromEnv("HERMES_TELEGRAM_TOKEN");
  return {
    ...(token ? { token } : {}),
    apiRoot: (fromEnv("HERMES_TELEGRAM_API_ROOT") ?? DEFAULT_API_ROOT).replace(/\/+$/, ""),
    ...(chatId !== undefined ? { chatId } : {}),
    ...(chatText !== undefined && chatId === undefined ? { badChatId: chatText } : {}),
    ...(allowed !== undefined ? { allowedUsers: allowed } : {}),
    topics: ["1", "true", "on", "yes"].includes(topicsText),
  };
}

function optionText(value: unknown): string | undefined {
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(String).join(",");
  return undefined;
}
