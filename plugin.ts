// Hermes: answer OpenCode's questions from Telegram. OpenCode calls every export of this file as
// a plugin, so it has exactly one: the plugin function. It never throws and never blocks start-up.
// `options`: what opencode.json lists next to it (`["opencode-hermes", { "chatId": … }]`; OpenCode
// 1.18 passes them, 1.1.x has no such form and passes nothing).
import type { Hooks, PluginInput, PluginOptions } from "@opencode-ai/plugin";
import { startPlugin } from "./lib/plugin/plugin-instance.ts";

export default async function HermesPlugin(input: PluginInput, options?: PluginOptions): Promise<Hooks> {
  try {
    return startPlugin(input, process.env, options);
  } catch {
    return {};
  }
}
