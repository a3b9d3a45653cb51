// A custom command's `` !`…` `` shell lines with the permissions' risk flags (issue 49, item 10): each
// line read as a `!command` from the phone is (lib/shell/bang.ts), for /commands' preview
// (lib/bridge/vocabulary/commands-list.ts gets this through lib/bridge/bridge.ts).
import { flagShellCommand } from "../../shell/bang.ts";
import { templateShellLines } from "../../shell/command-template.ts";

/** Each shell line of `template` with its flags, most severe first; never throws. */
export function flagTemplate(
  template: string,
  place: Parameters<typeof flagShellCommand>[1],
): Promise<Array<{ line: string; flags: Awaited<ReturnType<typeof flagShellCommand>> }>> {
  return Promise.all(templateShellLines(template).map(async (line) => ({ line, flags: await flagShellCommand(line, place) })));
}
