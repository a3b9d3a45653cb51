import { describe, expect, it } from "vitest";
import { isPermissionReply, PERMISSION_REPLIES } from "../../lib/hermes-events.ts";
import { isId, stringList } from "../../lib/opencode/event-fields.ts";
import { parseEvent } from "../../lib/opencode/events.ts";
import { narrowEvent } from "../../lib/opencode2/events.ts";

describe("event fields: the checks both narrowers make", () => {
  it("isId takes non-empty strings up to 200 characters", () => {
    for (const id of ["s", "ses_01JABC", "x".repeat(200)]) expect(isId(id)).toBe(true);
    for (const value of ["", "x".repeat(201), 42, null, undefined, ["ses_1"], { id: "ses_1" }]) expect(isId(value)).toBe(false);
  });

  it("stringList keeps the strings of a list and nothing else", () => {
    expect(stringList(["a", 1, null, "b", ["c"], { d: 1 }, ""])).toEqual(["a", "b", ""]);
    expect(stringList("a")).toEqual([]);
    expect(stringList({ 0: "a", length: 1 })).toEqual([]);
    expect(stringList(undefined)).toEqual([]);
  });

  it("isPermissionReply knows exactly OpenCode's three replies", () => {
    expect(PERMISSION_REPLIES).toEqual(["once", "always", "reject"]);
    for (const reply of PERMISSION_REPLIES) expect(isPermissionReply(reply)).toBe(true);
    for (const value of ["ONCE", "allow", "", undefined, null, 1, ["once"]]) expect(isPermissionReply(value)).toBe(false);
  });

  it("both narrowers drop a permission.replied with an unknown reply, and keep a known one", () => {
    const v1 = (reply: unknown) => parseEvent({ type: "permission.replied", properties: { sessionID: "s1", requestID: "r1", reply } });
    expect(v1("always")?.event).toEqual({ type: "permission.replied", sessionID: "s1", requestID: "r1", reply: "always" });
    expect(v1("maybe")).toBeUndefined();
    const v2 = (reply: unknown) => narrowEvent({ id: "e1", type: "permission.replied", data: { sessionID: "s1", requestID: "r1", reply } });
    expect(v2("reject")?.events).toEqual([{ type: "permission.replied", sessionID: "s1", requestID: "r1", reply: "reject" }]);
    expect(v2("maybe")).toBeUndefined();
  });
});
