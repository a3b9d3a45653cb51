import { isOpencode2, type OpencodeVersion } from "./binary.ts";

/**
 * The tools each version's agent calls, as measured: 1.x `bash` (1.1.53 requires `description`),
 * `write { filePath }`, `task`; 2.0.15 `shell { command }`, `write { path }`, `subagent { agent }`.
 */
export function toolsOf(version: OpencodeVersion) {
  const v2 = isOpencode2(version);
  return {
    shellName: v2 ? "shell" : "bash",
    permission: v2 ? { shell: "ask", edit: "ask" } : { bash: "ask", edit: "ask" },
    shell: (command: string) => (v2 ? { tool: "shell", args: { command } } : { tool: "bash", args: { command, description: `run ${command}` } }),
    write: (file: string, content: string) => ({ tool: "write", args: v2 ? { path: file, content } : { filePath: file, content } }),
    subagent: (description: string, prompt: string) =>
      v2 ? { tool: "subagent", args: { agent: "general", description, prompt } } : { tool: "task", args: { description, subagent_type: "general", prompt } },
  };
}
