// Whether a path is a directory's own or below it (after both are resolved the same way: the caller
// realpaths them when links matter). Pure.
import path from "node:path";

/** `file` is `root` itself or inside it: no `..` out of it, not on another drive. */
export function isInside(file: string, root: string): boolean {
  const relative = path.relative(root, file);
  return relative === "" || (!relative.startsWith(`..${path.sep}`) && relative !== ".." && !path.isAbsolute(relative));
}
