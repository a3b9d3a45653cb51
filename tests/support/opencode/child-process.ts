import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream, type WriteStream } from "node:fs";
import { sleep } from "../wait.ts";

/**
 * A child started in its own process group, with stdout+stderr captured into memory and a
 * log file, killed as a group. A detached shell watchdog kills the group if this Node process
 * dies without cleaning up (e.g. a vitest worker killed on timeout), and an 'exit' hook
 * SIGKILLs whatever is still alive when this process exits normally.
 */
export interface ManagedChild {
  pid: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  isRunning(): boolean;
  logs(): string;
  tail(lines?: number): string;
  waitForOutput(re: RegExp, timeoutMs: number, what: string): Promise<RegExpExecArray>;
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pid of live) killGroup(pid, "SIGKILL");
  });
}

function startWatchdog(groupPid: number): ChildProcess {
  const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 -${groupPid} 2>/dev/null; do sleep 1; done; kill -KILL -${groupPid} 2>/dev/null; exit 0`;
  const dog = spawn("sh", ["-c", script], { detached: true, stdio: "ignore" });
  dog.unref();
  return dog;
}

export function spawnManaged(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string>; logFile: string }): ManagedChild {
  installExitHook();
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  if (child.pid === undefined) throw new Error(`failed to spawn ${cmd}`);
  const pid = child.pid;
  live.add(pid);
  const watchdog = startWatchdog(pid);
  const file: WriteStream = createWriteStream(opts.logFile, { flags: "a" });
  let buffer = "";
  const capture = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    buffer += text;
    file.write(text);
  };
  child.stdout!.on("data", capture);
  child.stderr!.on("data", capture);
  let running = true;
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code, signal) => {
      running = false;
      live.delete(pid);
      buffer += `\n[harness] process ${pid} exited (code ${code}, signal ${signal})\n`;
      resolve(code);
    });
  });
  child.once("error", (err) => {
    buffer += `\n[harness] spawn error: ${err.message}\n`;
  });

  const tail = (lines = 40) => buffer.split("\n").slice(-lines).join("\n");
  let stopping: Promise<void> | undefined;

  return {
    pid,
    child,
    exited,
    isRunning: () => running,
    logs: () => buffer,
    tail,
    async waitForOutput(re, timeoutMs, what) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const m = re.exec(buffer);
        if (m) return m;
        if (!running) throw new Error(`process ${pid} exited before ${what}\n--- last log lines ---\n${tail()}`);
        if (Date.now() >= deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}\n--- last log lines ---\n${tail()}`);
        await sleep(50);
      }
    },
    stop(graceMs = 5_000) {
      stopping ??= (async () => {
        if (running) {
          killGroup(pid, "SIGTERM");
          const timedOut = await Promise.race([exited.then(() => false), sleep(graceMs).then(() => true)]);
          if (timedOut) killGroup(pid, "SIGKILL");
        }
        killGroup(pid, "SIGKILL"); // grandchildren that ignored SIGTERM
        await Promise.race([exited, sleep(2_000)]);
        if (watchdog.pid !== undefined) killGroup(watchdog.pid, "SIGKILL");
        live.delete(pid);
        await new Promise<void>((resolve) => file.end(() => resolve()));
      })();
      return stopping;
    },
  };
}
