import { describe, expect, it } from "vitest";
import pino from "pino";
import { AttachError, runningHandle, stopAttachment, streamFailed } from "../../lib/attach/attach-mode.ts";
import { deferred } from "../../lib/util/deferred.ts";
import { StreamError } from "../../lib/sse/stream.ts";

const URL = "http://127.0.0.1:4096";

describe("streamFailed", () => {
  const withNotFound = (url: string) => new AttachError("not-found", `no events at ${url}`);

  it("401 and 403 are refused credentials, in the same words for every server kind", () => {
    for (const status of [401, 403]) {
      const error = streamFailed(new StreamError("refused", { status, fatal: true }), URL, withNotFound);
      expect(error).toMatchObject({ kind: "auth", message: expect.stringContaining(`refused the credentials (HTTP ${status})`) });
    }
  });

  it("404 has its own words where the server kind gives them, and is any failure otherwise", () => {
    const notFound = new StreamError("no route", { status: 404, fatal: true });
    expect(streamFailed(notFound, URL, withNotFound)).toMatchObject({ kind: "not-found", message: `no events at ${URL}` });
    const plain = streamFailed(notFound, URL);
    expect(plain).toMatchObject({ kind: "not-found", message: `Hermes: the event stream of ${URL} failed for good: StreamError: no route` });
  });

  it("anything else ends attach mode with the error's text", () => {
    const error = streamFailed(new Error("socket hang up"), URL, withNotFound);
    expect(error).toMatchObject({ kind: "not-found", message: `Hermes: the event stream of ${URL} failed for good: Error: socket hang up` });
  });
});

describe("runningHandle", () => {
  it("settles as its deferreds do and lists what its links list", async () => {
    const ready = deferred();
    const done = deferred();
    const lists: Record<string, string[]> = { attached: ["/a"], skipped: ["/b"], checking: [] };
    let stops = 0;
    const handle = runningHandle(ready, done, { list: (status) => lists[status]! }, async () => void stops++);
    expect(handle.attached()).toEqual(["/a"]);
    expect(handle.skipped()).toEqual(["/b"]);
    lists.attached = ["/a", "/c"];
    expect(handle.attached()).toEqual(["/a", "/c"]);
    ready.resolve();
    await handle.ready;
    await handle.stop();
    expect(stops).toBe(1);
    done.resolve();
    await expect(handle.done).resolves.toBeUndefined();
  });
});

describe("stopAttachment", () => {
  function parts() {
    const order: string[] = [];
    const step = (name: string) => async () => void order.push(name);
    const ready = deferred();
    const done = deferred();
    const log = pino({ level: "silent" });
    const closing = { stream: { stop: step("stream") }, links: { close: step("links") }, lease: { release: step("lease") } };
    return { order, ready, done, parts: { ...closing, ready, done, log, url: URL } };
  }

  it("closes the stream, then the links, then the bridge's lease, and settles the handle", async () => {
    const { order, ready, done, parts: stopping } = parts();
    await stopAttachment(stopping);
    expect(order).toEqual(["stream", "links", "lease"]);
    await expect(ready.promise).resolves.toBeUndefined();
    await expect(done.promise).resolves.toBeUndefined();
  });

  it("rejects ready and done with the failure", async () => {
    const { ready, done, parts: stopping } = parts();
    const failure = new AttachError("auth", "refused");
    await stopAttachment(stopping, failure);
    await expect(ready.promise).rejects.toBe(failure);
    await expect(done.promise).rejects.toBe(failure);
  });
});
