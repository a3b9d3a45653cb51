// The bot token and the transcription key leave the process' environment once read (the agent's
// tools inherit it), and every later plugin instance of the process still finds them
// (lib/config/process-secrets.ts). A test's own environment object stands in for process.env.
import { describe, expect, it } from "vitest";
import { environmentSecrets } from "../../lib/system/log.ts";
import { withProcessSecrets } from "../../lib/config/process-secrets.ts";

describe("withProcessSecrets", () => {
  it("takes the token and the key out of the live environment, and gives them to every later instance", () => {
    const live: Record<string, string | undefined> = { HERMES_TELEGRAM_TOKEN: "123:secret-token-abc", HERMES_TRANSCRIBE_KEY: "sk-key-123456", HOME: "/home/u" };
    const first = withProcessSecrets(live, live);
    expect(first).toMatchObject({ HERMES_TELEGRAM_TOKEN: "123:secret-token-abc", HERMES_TRANSCRIBE_KEY: "sk-key-123456", HOME: "/home/u" });
    expect(live).toEqual({ HOME: "/home/u" });
    expect(Object.keys(live)).not.toContain("HERMES_TELEGRAM_TOKEN");
    const later = withProcessSecrets(live, live);
    expect(later).toMatchObject({ HERMES_TELEGRAM_TOKEN: "123:secret-token-abc", HERMES_TRANSCRIBE_KEY: "sk-key-123456", HOME: "/home/u" });
    expect(live).toEqual({ HOME: "/home/u" });
  });

  it("an environment that is not the live one is read as it is, and left as it is", () => {
    const own = { HERMES_TELEGRAM_TOKEN: "9:other-token-xyz" };
    expect(withProcessSecrets(own, {})).toBe(own);
    expect(own).toEqual({ HERMES_TELEGRAM_TOKEN: "9:other-token-xyz" });
  });

  it("a transcription URL that holds a password leaves the environment too, and its password is a secret to every logger", () => {
    const live: Record<string, string | undefined> = { HERMES_TRANSCRIBE_URL: "http://me:pw-hidden-42@127.0.0.1:8080/v1", PATH: "/bin" };
    expect(withProcessSecrets(live, live).HERMES_TRANSCRIBE_URL).toBe("http://me:pw-hidden-42@127.0.0.1:8080/v1");
    expect(live).toEqual({ PATH: "/bin" });
    expect(environmentSecrets({ HERMES_TRANSCRIBE_URL: "http://me:pw-hidden-42@127.0.0.1:8080/v1" })).toEqual(
      expect.arrayContaining(["pw-hidden-42", "me:pw-hidden-42", Buffer.from("me:pw-hidden-42").toString("base64")]),
    );
  });
});
