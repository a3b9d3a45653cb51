// The OpenCode 2 edge with a stand-in plugin context (a server-wide event bus, in-process
// permission replies) and the fake Bot API on loopback: one bridge per process, each event once,
// only for locations where Hermes was set up, and a repeated setup replacing the older one.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import type { PluginContext2 } from "../../lib/opencode2/endpoint.ts";
import { startLocation } from "../../lib/plugin/opencode2-host.ts";
import { DEFAULT_CHAT_ID, startFakeTelegram, type FakeTelegram } from "../support/fake-telegram.ts";

/** Every subscriber sees every event, as OpenCode 2's server-wide stream does. */
class Bus {
  readonly #subscribers = new Set<(event: unknown) => void>();
  /** Every subscription ever made, ended or not. */
  subscriptions = 0;
  publish(event: unknown): void {
    for (const subscriber of this.#subscribers) subscriber(event);
  }
  get subscribers(): number {
    return this.#subscribers.size;
  }
  subscribe(signal: AbortSignal): AsyncIterable<unknown> {
    this.subscriptions++;
    const queue: unknown[] = [];
    let wake: (() => void) | undefined;
    const push = (event: unknown) => {
      queue.push(event);
      wake?.();
    };
    this.#subscribers.add(push);
    signal.addEventListener("abort", () => {
      this.#subscribers.delete(push);
      wake?.();
    });
    return {
      async *[Symbol.asyncIterator]() {
        while (!signal.aborted) {
          if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          while (queue.length > 0) yield queue.shift();
        }
      },
    };
  }
}

describe("OpenCode 2 host: one bridge, each event once, only for Hermes' locations", () => {
  let telegram: FakeTelegram;
  let logDir: string;
  let env: Record<string, string>;
  const bus = new Bus();
  const replies: unknown[] = [];
  let seq = 0;

  const context = (directory: string): PluginContext2 => ({
    location: { directory },
    event: { subscribe: ({ signal }) => bus.subscribe(signal) },
    permission: {
      async reply(input) {
        replies.push(input);
        bus.publish({
          id: `evt_${++seq}`,
          type: "permission.replied",
          data: { sessionID: input.sessionID, requestID: input.requestID, reply: input.decision },
        });
      },
      list: async () => ({ data: [] }),
    },
    session: { get: async ({ sessionID }) => ({ data: { id: sessionID, title: `Session ${sessionID}`, location: { directory } } }) },
  });
  const asked = (directory: string, sessionID: string, id: string, command: string) => ({
    id: `evt_${++seq}`,
    type: "permission.asked",
    location: { directory },
    data: { id, sessionID, action: "shell", resources: [command], save: [`${command.split(" ")[0]} *`] },
  });
  const withText = (text: string) => telegram.messages().filter((m) => m.text.includes(text));

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    logDir = fs.mkdtempSync(path.join(os.tmpdir(), "hermes-host2-"));
    env = {
      HERMES_TELEGRAM_TOKEN: telegram.token,
      HERMES_TELEGRAM_CHAT_ID: String(DEFAULT_CHAT_ID),
      HERMES_TELEGRAM_API_ROOT: telegram.apiRoot,
      HERMES_LOG_FILE: path.join(logDir, "hermes.log"),
      // The start and stop lines it reads are debug.
      HERMES_LOG_LEVEL: "debug",
      XDG_CONFIG_HOME: path.join(logDir, "config"),
    };
    // The user's own global config names the chat (a project's options may only repeat it).
    fs.mkdirSync(path.join(logDir, "config", "opencode"), { recursive: true });
    fs.writeFileSync(
      path.join(logDir, "config", "opencode", "opencode.json"),
      JSON.stringify({ plugins: [{ package: "opencode-hermes", options: { chatId: DEFAULT_CHAT_ID } }] }),
    );
  });
  afterAll(async () => {
    await telegram.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  });

  it("two locations share one bridge; each prompt reaches the phone once; other locations are ignored", async () => {
    const cleanupA = startLocation(context("/srv/project-a"), env)!;
    const cleanupB = startLocation(context("/srv/project-b"), env)!;
    await vi.waitFor(() => expect(bus.subscriptions).toBe(2));
    expect(bus.subscribers).toBe(2);

    bus.publish(asked("/srv/project-a", "ses_a", "per_a", "echo from-a"));
    bus.publish(asked("/srv/project-b", "ses_b", "per_b", "echo from-b"));
    bus.publish(asked("/srv/project-c", "ses_c", "per_c", "echo from-c")); // a project without Hermes
    const fromA = await telegram.waitForMessage((m) => m.text.includes("echo from-a") && telegram.buttons(m).length > 0, { what: "a's permission" });
    await telegram.waitForMessage((m) => m.text.includes("echo from-b"), { what: "b's permission" });

    await telegram.tapButton(fromA, "Allow once");
    await telegram.waitFor(() => withText("echo from-a").find((m) => m.text.includes("Allowed once") && telegram.buttons(m).length === 0), {
      what: "a settled",
    });
    expect(replies).toEqual([{ sessionID: "ses_a", requestID: "per_a", decision: "once" }]);
    // That edit left the one outbox after anything the three events had queued (prompts go first):
    // a copy of a prompt, or c's, would be on the phone by now.
    expect(withText("echo from-a")).toHaveLength(1);
    expect(withText("echo from-b")).toHaveLength(1);
    expect(withText("echo from-c")).toHaveLength(0);

    // A repeated setup of a location (OpenCode 2's /reload, without the old cleanup) replaces the older one.
    const cleanupA2 = startLocation(context("/srv/project-a"), env)!;
    // The new setup has subscribed, and the older one's subscription is gone.
    await vi.waitFor(() => expect(bus.subscriptions).toBe(3));
    expect(bus.subscribers).toBe(2);
    bus.publish(asked("/srv/project-a", "ses_a", "per_a2", "echo again-a"));
    await telegram.waitForMessage((m) => m.text.includes("echo again-a"), { what: "a's second permission" });

    await cleanupA(); // the replaced setup's cleanup must not stop the newer one
    bus.publish(asked("/srv/project-a", "ses_a", "per_a3", "echo third-a"));
    await telegram.waitForMessage((m) => m.text.includes("echo third-a"), { what: "a's third permission after the old cleanup" });
    // Published later, sent later through the same outbox: a second copy of "again-a" would be here.
    expect(withText("echo again-a")).toHaveLength(1);

    await cleanupA2();
    await cleanupB();
    await telegram.waitFor(() => fs.readFileSync(env.HERMES_LOG_FILE!, "utf8").includes("Telegram bridge stopped") || undefined, {
      what: "the bridge stopped",
    });
    const log = fs.readFileSync(env.HERMES_LOG_FILE!, "utf8");
    expect(log.match(/Telegram bridge started/g)).toHaveLength(1);
    expect(bus.subscribers).toBe(0);
  });

  it("takes its settings from the plugins entry's options (ctx.options) as well, the chat as the global config says it", async () => {
    const { HERMES_TELEGRAM_CHAT_ID: _fromEnvironment, ...tokenOnly } = env;
    const cleanup = startLocation({ ...context("/srv/project-d"), options: { chatId: DEFAULT_CHAT_ID, language: "zh" } }, tokenOnly)!;
    bus.publish(asked("/srv/project-d", "ses_d", "per_d", "echo from-d"));
    const message = await telegram.waitForMessage((m) => m.text.includes("echo from-d") && telegram.buttons(m).length > 0, {
      what: "d's permission, in the chat the options name",
    });
    expect(message.chatId).toBe(DEFAULT_CHAT_ID);
    expect(telegram.buttons(message).map((button) => button.text)).toContain(CATALOGS.zh.button.once);
    await cleanup();
  });
});
