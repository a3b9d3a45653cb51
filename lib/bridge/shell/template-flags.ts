// A custom command's `` !`…` `` shell lines with the permissions' risk flags (issue 49, item 10): the
// text OpenCode makes of the template and the typed arguments (lib/shell/command-template.ts), each
// of its lines read as a `!command` from the phone is (lib/shell/bang.ts), for /commands' preview
// (lib/bridge/vocabulary/commands-list.ts gets this through lib/bridge/bridge.ts).
import { flagShellCommand } from "../../shell/bang.ts";
import { expandCommandTemplate, templateShellLines } from "../../shell/command-template.ts";

/** Each shell line of `template` with `args` put in as OpenCode does, with its flags, most severe first; never throws. */
export function flagTemplate(
  template: string,
  args: string,
  place: Parameters<typeof flagShellCommand>[1],
): Promise<Array<{ line: string; flags: Awaited<ReturnType<typeof flagShellCommand>> }>> {
  const lines = templateShellLines(expandCommandTemplate(template, args));
  return Promise.all(lines.map(async (line) => ({ line, flags: await flagShellCommand(line, place) })));
}
