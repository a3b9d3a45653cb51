// Where `npm run screenshots` works: a fresh private directory for every run (mkdtemp makes it 0700,
// under a name nobody could have chosen before), never a fixed folder in the shared temporary
// directory, where another local user could plant an opencode.json (whose plugin the real
// OpenCode would load as the developer) or a symlink for the clean-up to follow. The picture shows
// the project under a fixed path, so it changes only when Hermes does.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The project's path as the picture shows it. */
export const SHOWN_PROJECT = "/tmp/hermes-screenshots/acme-api";

export interface ScreenshotDir {
  /** The private directory (0700, this user's, new). */
  root: string;
  /** Where the project is made (inside `root`; not there yet). */
  project: string;
  /** `text` with the project's real path written as the picture shows it. */
  shown(text: string): string;
  remove(): void;
}

export function screenshotDir(tmp: string = os.tmpdir()): ScreenshotDir {
  const root = fs.mkdtempSync(path.join(tmp, "hermes-screenshots-"));
  const project = path.join(root, "acme-api");
  return {
    root,
    project,
    shown: (text) => text.replaceAll(project, SHOWN_PROJECT),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
