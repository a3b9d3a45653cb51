// What a permission request is about, read from its metadata: the command it runs, the file it
// touches, the diff it applies. OpenCode ≤ 1.15 sends no metadata: its patterns then say it. Pure.
import type { PermissionRequest } from "../hermes-events.ts";

/** The command a request runs, if any. */
export function commandOf(request: PermissionRequest): string | undefined {
  return stringField(request.metadata, "command");
}

/** The file a request touches, if any. */
export function fileOf(request: PermissionRequest): string | undefined {
  return stringField(request.metadata, "filepath") ?? stringField(request.metadata, "filePath") ?? stringField(request.metadata, "path");
}

/** The diff a request applies, if any. */
export function diffOf(request: PermissionRequest): string | undefined {
  return stringField(request.metadata, "diff");
}

function stringField(metadata: Record<string, unknown>, name: string): string | undefined {
  const value = metadata[name];
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}
