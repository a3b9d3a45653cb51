// Attach mode without a complete configuration: it fails at once with the problems, unless only the
// chat is missing; then it answers /start (with the chat id) until stopped, and bridges nothing.
import { acquireBridge, setupOnlyConfig, type BridgeLease } from "../plugin/hub.ts";
import type { ConfigResult } from "../config/config.ts";
import { deferred } from "../util/deferred.ts";
import { createLogger, environmentSecrets, secretsOf } from "../system/log.ts";
import { AttachError, bridgeRefused, failedHandle, type AttachHandle, type AttachOptions } from "./attach-mode.ts";

export function startUnconfigured(options: AttachOptions, result: Extract<ConfigResult, { ok: false }>): AttachHandle {
  const report = options.report ?? (() => undefined);
  const token = result.setupToken;
  const logger = options.logger ?? createLogger(result.log, [...environmentSecrets(options.env ?? process.env), ...secretsOf(token, options.auth?.password)]);
  const message = `Hermes is off: ${result.problems.join("; ")}`;
  logger.error({ problems: result.problems }, message);
  if (!token) return failedHandle(new AttachError("config", message));
  // Only the chat is missing: answer /start so the user can find their chat id.
  const lease = acquireBridge({
    config: setupOnlyConfig(token, result.apiRoot),
    logger,
    ...(options.telegram ? { telegram: options.telegram } : {}),
  });
  if ("refused" in lease) return bridgeRefused(lease);
  report("Hermes: HERMES_TELEGRAM_CHAT_ID is not set. Send /start to your bot: it replies with the chat id. (Ctrl-C to stop)");
  return setupMode(lease);
}

function setupMode(lease: BridgeLease): AttachHandle {
  const done = deferred();
  let stopping: Promise<void> | undefined;
  return {
    ready: Promise.resolve(),
    done: done.promise,
    attached: () => [],
    skipped: () => [],
    stop() {
      stopping ??= lease.release().then(() => done.resolve());
      return stopping;
    },
  };
}
