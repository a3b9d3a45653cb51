// What one plugin instance (one OpenCode directory instance) does: read the config, join the
// process' bridge, feed it this instance's events, and leave it on dispose.
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import { readConfig, type LogSettings } from "./config.ts";
import { acquireBridge, setupOnlyConfig } from "./hub.ts";
import { createLogger, secretsOf, type Logger } from "./log.ts";
import { OpencodeApi } from "./opencode/api.ts";
import { pluginClientTransport } from "./opencode/transport.ts";
import { parseEvent } from "./opencode/events.ts";
import { errorText } from "./error-text.ts";
import { processGlobal } from "./process-global.ts";

const TOAST_DELAY_MS = 2_000;
const STATE_KEY = Symbol.for("hermes.process");
interface ProcessState {
  loggers: Map<string, Logger>;
  reportedProblems: boolean;
}
const processState = processGlobal<ProcessState>(STATE_KEY, () => ({ loggers: new Map(), reportedProblems: false }));

export function startPlugin(input: PluginInput, env: Record<string, string | undefined> = process.env, options?: unknown): Hooks {
  const result = readConfig(env, options);
  const logger = result.ok ? loggerFor(result.config.log, result.config.token, result.config.transcription?.key) : loggerFor(result.log, result.setupToken);

  if (!result.ok) {
    if (!processState.reportedProblems) {
      processState.reportedProblems = true;
      const message = `Hermes is off: ${result.problems.join("; ")}`;
      logger.error({ problems: result.problems }, message);
      toast(input, logger, message, "error");
    }
    if (!result.setupToken) return {};
    // Only the chat is missing: answer /start so the user can find their chat id.
    const lease = acquireBridge({ config: setupOnlyConfig(result.setupToken, result.apiRoot), logger });
    return { dispose: () => lease.release() };
  }

  const transport = pluginClientTransport(input.client, input.directory);
  if (!transport) {
    logger.error("this OpenCode's plugin client has no raw transport (client._client); Hermes stays off");
    return {};
  }
  const lease = acquireBridge({
    config: result.config,
    logger,
    notify: (message) => toast(input, logger, `Hermes: ${message}`, "warning"),
  });
  const link = { directory: input.directory, opencode: new OpencodeApi(transport) };
  lease.bridge.attach(link);
  logger.info({ directory: input.directory }, "plugin instance started");

  let disposed = false;
  return {
    async event({ event }) {
      try {
        const parsed = parseEvent(event);
        if (parsed) lease.bridge.handleEvent(parsed.directory ?? input.directory, parsed.event);
      } catch (error) {
        logger.error({ err: errorText(error) }, "event handling failed");
      }
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      try {
        logger.info({ directory: input.directory }, "plugin instance disposed");
        await lease.bridge.detach(link);
        await lease.release();
      } catch (error) {
        logger.error({ err: errorText(error) }, "dispose failed");
      }
    },
  };
}

/** One logger per log file and level in the process (OpenCode 2 locations share them too). */
export function loggerFor(settings: LogSettings, token: string | undefined, ...secrets: Array<string | undefined>): Logger {
  const id = `${settings.file}|${settings.level}`;
  let logger = processState.loggers.get(id);
  if (!logger) {
    logger = createLogger(settings, secretsOf(token, ...secrets));
    processState.loggers.set(id, logger);
  }
  return logger;
}

/** Later, not now: the TUI subscribes to events after plugins load, and start-up must not wait. */
function toast(input: PluginInput, logger: Logger, message: string, variant: "error" | "warning"): void {
  const timer = setTimeout(() => {
    Promise.resolve()
      .then(() => input.client.tui.showToast({ body: { title: "Hermes", message, variant, duration: 10_000 } }))
      .catch((error) => logger.debug({ err: errorText(error) }, "could not show a toast"));
  }, TOAST_DELAY_MS);
  timer.unref?.();
}
