// What tests (and embedders) may change in `opencode-hermes setup` (passed as CliIo.setup); a type
// of its own, so that io.ts can name it without importing setup.ts (which imports io.ts).
import type { TelegramApi } from "../telegram/wire/api.ts";

/** What tests (and embedders) may change; everything has a sensible default. */
export interface SetupTuning {
  /** Builds the Bot API client (default: the fetch-based one, api.ts). */
  api?: (token: string, apiRoot: string) => TelegramApi;
  /** How long to wait for /start when --timeout is not given. */
  timeoutMs?: number;
  /** Length of each long poll, in seconds (default 25). */
  pollSeconds?: number;
  /** Whether a Hermes on this machine already polls this bot (default: asks its relay socket). */
  hermesPollsHere?: (token: string, apiRoot: string) => Promise<boolean>;
  /** The one-time pairing code (default: 16 random bytes). */
  pairingCode?: () => string;
  now?: () => number;
  /** The version of the OpenCode on the PATH, undefined when none answers (default: `opencode --version`). */
  opencodeVersion?: () => Promise<string | undefined>;
}
