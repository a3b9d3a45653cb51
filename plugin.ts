// Hermes: answer OpenCode's questions from Telegram. OpenCode calls every export of this file as
// a plugin, so it has exactly one: the plugin function. It never throws and never blocks start-up.
import type { Hooks, PluginInput } from "@opencode-ai/plugin";
import { startPlugin } from "./lib/plugin-instance.ts";

export default async function HermesPlugin(input: PluginInput): Promise<Hooks> {
  try {
    return startPlugin(input);
  } catch {
    return {};
  }
}
