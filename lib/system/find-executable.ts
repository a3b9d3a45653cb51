// An executable found on PATH the way a shell finds it: the first directory holding a file of that
// name that may be run. Read at the moment of asking (never at start-up).
import fs from "node:fs";
import path from "node:path";

/** The path of `name` in the first directory of `searchPath` (PATH's form) that holds it as an executable file, or undefined. */
export function findExecutable(name: string, searchPath: string | undefined): string | undefined {
  for (const directory of (searchPath ?? "").split(path.delimiter)) {
    if (directory === "") continue;
    const candidate = path.join(directory, name);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // not here, or not runnable: the next directory
    }
  }
  return undefined;
}
