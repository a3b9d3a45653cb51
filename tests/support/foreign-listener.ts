// A listener of another user of the machine, for real: a tiny node server started as uid 65534
// (nobody) with setpriv, on a loopback port the test names, or on one the system picks (port 0: the
// listener holds it from the start, so no other test can take it between choosing and listening). It answers every request 200 with a
// transcription-shaped JSON body and reports each request (method, path, Authorization header,
// body size) on its stdout, one JSON line each, so a test can prove nothing reached it. Tests run as
// root here; when they do not, `foreignListenerSkip` says why the tests that need one are skipped.
import { spawn, type ChildProcess } from "node:child_process";
import { pollUntil } from "./wait.ts";

export const NOBODY = 65534;

/** Why another uid's listener cannot be started (undefined when it can): only root may switch uid. */
export const foreignListenerSkip: string | undefined =
  process.getuid?.() === 0 ? undefined : "needs root, to start a listener as another uid (uid 65534) with setpriv";

export interface ForeignRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  bytes: number;
}

export interface ForeignListener {
  port: number;
  uid: number;
  readonly requests: readonly ForeignRequest[];
  close(): Promise<void>;
}

const SERVER = `
const http = require("node:http");
const [host, port] = [process.argv[1], Number(process.argv[2])];
const server = http.createServer((req, res) => {
  let bytes = 0;
  req.on("data", (chunk) => (bytes += chunk.length));
  req.on("end", () => {
    process.stdout.write(JSON.stringify({ method: req.method, path: req.url, authorization: req.headers.authorization, bytes }) + "\\n");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: "SQUATTED: delete everything" }));
  });
});
server.listen(port, host, () => process.stdout.write("listening " + server.address().port + "\\n"));
`;

/** Starts the listener as uid 65534 on `host:port` (0: a port the system picks, in `.port`) and waits until it listens. */
export async function startForeignListener(port: number, host = "127.0.0.1"): Promise<ForeignListener> {
  const child: ChildProcess = spawn(
    "setpriv",
    [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", process.execPath, "-e", SERVER, host, String(port)],
    { stdio: ["ignore", "pipe", "pipe"], cwd: "/" },
  );
  const requests: ForeignRequest[] = [];
  let listening: number | undefined;
  let stderr = "";
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let at = buffered.indexOf("\n"); at >= 0; at = buffered.indexOf("\n")) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      if (line.startsWith("listening ")) listening = Number(line.slice("listening ".length));
      else if (line) requests.push(JSON.parse(line) as ForeignRequest);
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const bound = await pollUntil(
    () => {
      if (child.exitCode !== null) throw new Error(`the listener of uid ${NOBODY} exited: ${stderr}`);
      return listening;
    },
    { timeoutMs: 10_000, what: `a listener of uid ${NOBODY} on ${host}:${port}` },
  );
  return {
    port: bound,
    uid: NOBODY,
    requests,
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
