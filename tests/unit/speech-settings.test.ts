// HERMES_STREAM and HERMES_SPEECH_*: streaming on in a private chat unless said otherwise; the speech
// service's URL and key from the environment only (a project's opencode.json never sends the answer's
// words elsewhere), its voice and model from either; the key never quoted, and out of process.env.
import { describe, expect, it } from "vitest";
import { readConfig } from "../../lib/config/config.ts";
import { SECRET_VARIABLES } from "../../lib/config/process-secrets.ts";

const BASE = { HOME: "/home/tester", HERMES_TELEGRAM_TOKEN: "123456789:AAF-abc_DEF123xyz", HERMES_TELEGRAM_CHAT_ID: "42" };
const configOf = (env: Record<string, string>, options?: unknown) => {
  const result = readConfig({ ...BASE, ...env }, options);
  if (!result.ok) throw new Error(result.problems.join("; "));
  return result.config;
};
const problemsOf = (env: Record<string, string>, options?: unknown) => {
  const result = readConfig({ ...BASE, ...env }, options);
  // What turns Hermes off, then what it ignores for the default (a bad optional value: Hermes stays on).
  return result.ok ? (result.config.ignored ?? []) : [...result.problems, ...result.ignored];
};

describe("HERMES_STREAM", () => {
  it("unset: decided by the chat (answer-stream.ts); on or off as written, from the environment or opencode.json", () => {
    expect(configOf({}).stream).toBeUndefined();
    expect(configOf({ HERMES_STREAM: "off" }).stream).toBe(false);
    expect(configOf({ HERMES_STREAM: "on" }).stream).toBe(true);
    expect(configOf({}, { stream: true }).stream).toBe(true);
    expect(problemsOf({ HERMES_STREAM: "loud" })).toEqual(['HERMES_STREAM must be on or off (got "loud"): its default is used']);
    expect(configOf({ HERMES_STREAM: "loud" }).stream).toBeUndefined();
  });
});

describe("HERMES_SPEECH_*", () => {
  it("the URL and the key from the environment, the voice and the model from either, with defaults", () => {
    expect(configOf({ HERMES_SPEECH_URL: "http://127.0.0.1:8880/v1/", HERMES_SPEECH_KEY: "sk-speech-1234567" }).speech).toEqual({
      url: "http://127.0.0.1:8880/v1",
      key: "sk-speech-1234567",
      model: "tts-1",
      voice: "alloy",
    });
    expect(configOf({ HERMES_SPEECH_URL: "https://api.openai.com/v1" }, { speechVoice: "nova", speechModel: "gpt-4o-mini-tts" }).speech).toEqual({
      url: "https://api.openai.com/v1",
      model: "gpt-4o-mini-tts",
      voice: "nova",
    });
    expect(configOf({}).speech).toBeUndefined();
  });

  it("a project's opencode.json never chooses where the words go, nor holds the key", () => {
    const problems = problemsOf({}, { speechUrl: "http://evil.example/v1", speechKey: "sk-x" });
    expect(problems).toEqual([
      `opencode.json option "speechUrl": where the agent's answers are sent to be spoken is not a project's choice; set HERMES_SPEECH_URL in the environment`,
      `opencode.json option "speechKey": a secret does not belong in opencode.json; set HERMES_SPEECH_KEY in the environment`,
    ]);
  });

  it("a URL that is not http(s), or holds a password, is refused without being quoted", () => {
    expect(problemsOf({ HERMES_SPEECH_URL: "ftp://host/v1" })).toEqual([
      "HERMES_SPEECH_URL must be an http(s) URL such as https://api.openai.com/v1: answers are not spoken",
    ]);
    expect(configOf({ HERMES_SPEECH_URL: "ftp://host/v1" }).speech).toBeUndefined();
    const problems = problemsOf({ HERMES_SPEECH_URL: "http://me:pw-secret-99@127.0.0.1:8880/v1" });
    expect(problems).toHaveLength(1);
    expect(problems[0]).not.toContain("pw-secret-99");
  });

  it("the key is one of the secrets taken out of process.env (and scrubbed from logs)", () => {
    expect(SECRET_VARIABLES).toContain("HERMES_SPEECH_KEY");
  });
});
