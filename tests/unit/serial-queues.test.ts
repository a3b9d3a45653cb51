import { describe, expect, it } from "vitest";
import { SerialQueues } from "../../lib/bridge/prompts/serial-queues.ts";

/** A promise settled from outside, to hold work until the test lets it go. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe("SerialQueues", () => {
  it("runs the work of one key strictly in order, each after the previous ended", async () => {
    const queues = new SerialQueues();
    const log: string[] = [];
    const first = gate();
    const a = queues.run(
      "k",
      async () => {
        log.push("a start");
        await first.opened;
        log.push("a end");
      },
      () => undefined,
    );
    const b = queues.run(
      "k",
      async () => void log.push("b"),
      () => undefined,
    );
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(["a start"]);
    first.open();
    await Promise.all([a, b]);
    expect(log).toEqual(["a start", "a end", "b"]);
  });

  it("does not hold one key's work behind another's", async () => {
    const queues = new SerialQueues();
    const held = gate();
    const log: string[] = [];
    void queues.run(
      "slow",
      () => held.opened,
      () => undefined,
    );
    await queues.run(
      "fast",
      async () => void log.push("fast"),
      () => undefined,
    );
    expect(log).toEqual(["fast"]);
    expect(queues.size).toBe(1);
    held.open();
    await queues.drained();
    expect(queues.size).toBe(0);
  });

  it("reports a failure, thrown or rejected, and goes on with the next work", async () => {
    const queues = new SerialQueues();
    const errors: string[] = [];
    const onError = (error: unknown) => void errors.push((error as Error).message);
    void queues.run(
      "k",
      () => {
        throw new Error("thrown");
      },
      onError,
    );
    void queues.run(
      "k",
      async () => {
        throw new Error("rejected");
      },
      onError,
    );
    let ran = false;
    await queues.run(
      "k",
      async () => {
        ran = true;
      },
      onError,
    );
    expect(errors).toEqual(["thrown", "rejected"]);
    expect(ran).toBe(true);
  });

  it("drained waits for work queued before it, and forgets keys once idle", async () => {
    const queues = new SerialQueues();
    const held = gate();
    let done = false;
    void queues.run(
      "k",
      async () => {
        await held.opened;
        done = true;
      },
      () => undefined,
    );
    const drained = queues.drained();
    held.open();
    await drained;
    expect(done).toBe(true);
    expect(queues.size).toBe(0);
  });
});
