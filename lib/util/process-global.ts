// State shared by every copy of a module in one process: OpenCode may load the plugin's module more
// than once (once per instance), and every copy must find the same bridges, loggers and books.

/** The value kept on globalThis under `key` (a Symbol.for key), made by `create` on first use. */
export function processGlobal<T>(key: symbol, create: () => T): T {
  const globals = globalThis as Record<symbol, unknown>;
  globals[key] ??= create();
  return globals[key] as T;
}
