// The Bridge the benchmarks measure: the real telegraf client against the fake Telegram server.
import pino from "pino";
import { Bridge, type BridgeOptions } from "../lib/bridge/bridge.ts";
import { Registry } from "../lib/registry/registry.ts";
import { createTelegramApi } from "../lib/telegram/wire/api.ts";
import type { PaceLimits } from "../lib/telegram/wire/pacer.ts";
import { DEFAULT_CHAT_ID, type FakeTelegram } from "../tests/support/fake-telegram.ts";

export function benchBridge(fake: FakeTelegram, pacing?: PaceLimits, chatId: number = DEFAULT_CHAT_ID, extra: Partial<BridgeOptions> = {}): Bridge {
  return new Bridge({
    telegram: createTelegramApi(fake.token, fake.apiRoot),
    registry: new Registry(),
    logger: pino({ level: "silent" }),
    access: { chatId, allowedUsers: [] },
    questionTtlMs: 0,
    ...(pacing ? { pacing } : {}),
    ...extra,
  });
}
