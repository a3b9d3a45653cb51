import { describe, expect, it } from "vitest";
import { processGlobal } from "../../lib/util/process-global.ts";

describe("processGlobal", () => {
  it("makes the value once per key and gives every caller that same value", () => {
    const key = Symbol.for(`hermes.test.${Math.random()}`);
    let made = 0;
    const create = () => ({ made: ++made });
    const first = processGlobal(key, create);
    const second = processGlobal(key, create);
    expect(second).toBe(first);
    expect(made).toBe(1);
    expect((globalThis as Record<symbol, unknown>)[key]).toBe(first);
    expect(processGlobal(Symbol.for(`hermes.test.other.${Math.random()}`), create)).not.toBe(first);
  });
});
