// Runs in a fresh process (spawned by bench/startup.ts): what the plugin costs OpenCode when an
// instance starts. Times `import("../plugin.ts")` (cold: nothing of Hermes loaded yet) and the
// plugin factory that OpenCode awaits, with a fake PluginInput and the environment pointing at a
// fake Telegram. Prints one JSON line.
import type { PluginInput } from "@opencode-ai/plugin";

const t0 = performance.now();
const { default: plugin } = await import("../plugin.ts");
const t1 = performance.now();

function pluginInput(directory: string): PluginInput {
  // A plain object, not a Response: constructing the first Response loads undici lazily (~8 ms),
  // which OpenCode's real client has long paid for.
  const ok = async (data: unknown) => ({ data, response: { status: 200 } });
  const client = {
    _client: {
      get: (options: { url: string }) => ok(options.url === "/question" || options.url === "/permission" ? [] : {}),
      post: () => ok(true),
    },
    tui: { showToast: async () => true },
  };
  return {
    client,
    directory,
    worktree: directory,
    project: { id: "bench", worktree: directory },
    serverUrl: new URL("http://127.0.0.1:4096"),
    $: undefined,
  } as unknown as PluginInput;
}

const hooks = await plugin(pluginInput("/bench/start/one"));
const t2 = performance.now();
// A second instance in the same process (another project directory): joins the running bridge.
const second = await plugin(pluginInput("/bench/start/two"));
const t3 = performance.now();

const result = {
  importMs: t1 - t0,
  factoryMs: t2 - t1,
  coldMs: t2 - t0,
  secondFactoryMs: t3 - t2,
  hooks: Object.keys(hooks).sort(),
};
await second.dispose?.();
await hooks.dispose?.();
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
