import { describe, expect, it } from "vitest";
import { isRecord } from "../../lib/util/is-record.ts";

describe("isRecord", () => {
  it("takes plain objects, whatever their fields", () => {
    expect(isRecord({})).toBe(true);
    expect(isRecord({ update_id: 1, message: null })).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect(isRecord(JSON.parse('{"__proto__": {"polluted": true}}'))).toBe(true);
  });

  it("refuses null, arrays and every primitive", () => {
    for (const value of [null, undefined, [], [{}], "{}", 0, Number.NaN, true, Symbol("x"), 10n, () => ({})]) expect(isRecord(value)).toBe(false);
  });
});
