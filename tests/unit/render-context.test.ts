// How a prompt's project is named on the phone: one rule for prompts, notices, Stop, /status and topics.
import { describe, expect, it } from "vitest";
import { projectName } from "../../lib/telegram/render/render-context.ts";

describe("projectName", () => {
  it("is the directory's last part, and the whole path where there is none", () => {
    expect(projectName("/home/dev/hermes")).toBe("hermes");
    expect(projectName("/home/dev/hermes/")).toBe("hermes");
    expect(projectName("/")).toBe("/");
  });
});
