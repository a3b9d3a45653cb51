// What one plugin instance (one OpenCode directory instance) does: read the config, join the
// process' bridge, feed it this instance's events, and leave it on dispose.
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import { readConfig, type LogSettings } from "../config/config.ts";
import { acquireBridge, setupOnlyConfig } from "./hub.ts";
import { globalHermesOptions } from "../config/global-config.ts";
import { createLogger, environmentSecrets, SecretList, type Logger } from "../system/log.ts";
import { OpencodeApi } from "../opencode/api.ts";
import { pluginClientTransport } from "../opencode/transport.ts";
import { parseEvent } from "../opencode/events.ts";
import { errorText } from "../util/error-text.ts";
import { processGlobal } from "../util/process-global.ts";
import { SEND_FILE_TOOL, sendFileTool } from "../bridge/agent-tools/send-file-tool.ts";
import { withProcessSecrets } from "../config/process-secrets.ts";

const TOAST_DELAY_MS = 2_000;
const STATE_KEY = Symbol.for("hermes.process");
interface ProcessState {
  loggers: Map<string, { logger: Logger; secrets: SecretList }>;
  reportedProblems: boolean;
}
const processState = processGlobal<ProcessState>(STATE_KEY, () => ({ loggers: new Map(), reportedProblems: false }));

export function startPlugin(input: PluginInput, given: Record<string, string | undefined> = process.env, options?: unknown): Hooks {
  // The token and the key leave process.env (the agent's tools inherit it); later instances find them kept.
  const env = withProcessSecrets(given);
  const result = readConfig(env, options, globalHermesOptions(env));
  const { logger, secrets } = loggerFor(result.ok ? result.config.log : result.log, env);

  if (!result.ok) {
    if (!processState.reportedProblems) {
      processState.reportedProblems = true;
      const message = `Hermes is off: ${result.problems.join("; ")}`;
      logger.error({ problems: result.problems }, message);
      toast(input, logger, secrets.scrub(message), "error");
    }
    if (!result.setupToken) return {};
    // Only the chat is missing: answer /start so the user can find their chat id.
    const lease = acquireBridge({ config: setupOnlyConfig(result.setupToken, result.apiRoot), logger });
    if ("refused" in lease) return refuse(input, logger, secrets, lease.refused);
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
    notify: (message) => toast(input, logger, secrets.scrub(`Hermes: ${message}`), "warning"),
  });
  if ("refused" in lease) return refuse(input, logger, secrets, lease.refused);
  const link = { directory: input.directory, opencode: new OpencodeApi(transport, undefined, (directory) => pluginClientTransport(input.client, directory)) };
  // OpenCode 1.x starts a plugin instance while it boots the project instance, whose questions and
  // permissions are its own state: none can be pending yet, so there is nothing to list. Asking
  // anyway made OpenCode build its in-process API for the plugin client at boot (3–4 MB, measured:
  // docs/performance.md), which now waits for Hermes' first real call to OpenCode.
  lease.bridge.attach(link, { listPending: false });
  logger.debug({ directory: input.directory }, "plugin instance started");

  let disposed = false;
  // The agent's telegram_send_file (HERMES_AGENT_TOOLS, on by default): only with a chat to send to, which this is.
  const tools = result.config.agentTools
    ? { tool: { [SEND_FILE_TOOL]: sendFileTool(lease.bridge, { directory: input.directory, worktree: input.worktree }) } }
    : {};
  return {
    ...tools,
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
        logger.debug({ directory: input.directory }, "plugin instance disposed");
        await lease.bridge.detach(link);
        await lease.release();
      } catch (error) {
        logger.error({ err: errorText(error) }, "dispose failed");
      }
    },
  };
}

/**
 * One logger per log file and level in the process (OpenCode 2 locations share them too). Each
 * scrubs the secrets of every environment it was asked for (environmentSecrets), whatever the
 * configuration's state: a token pasted into the wrong variable is still the token.
 */
export function loggerFor(settings: LogSettings, env: Record<string, string | undefined>): { logger: Logger; secrets: SecretList } {
  const id = `${settings.file}|${settings.level}`;
  let entry = processState.loggers.get(id);
  if (!entry) {
    const secrets = new SecretList();
    entry = { logger: createLogger(settings, secrets), secrets };
    processState.loggers.set(id, entry);
  }
  entry.secrets.add(environmentSecrets(env));
  return entry;
}

/** This instance's settings differ from the bridge running in this process (hub.ts logged it): a toast, and no hooks. */
function refuse(input: PluginInput, logger: Logger, secrets: SecretList, reason: string): Hooks {
  toast(input, logger, secrets.scrub(`Hermes is off for ${input.directory}: ${reason}`), "error");
  return {};
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
