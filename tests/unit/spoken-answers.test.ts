// Which runs are spoken: auto speaks only a run a voice note asked for (once: its mark goes with
// its Done notice), on speaks every answer, off none; no service, or an empty answer, nothing. A
// failure is said once, replying to the Done notice. /voice is gathered: every process takes the mode.
import pino from "pino";
import { describe, expect, it } from "vitest";
import { SpokenAnswers } from "../../lib/bridge/runs/spoken-answers.ts";
import { CATALOGS } from "../../lib/i18n/catalog.ts";
import { SpeechError } from "../../lib/voice/speaker.ts";

const OWNER = { sessionID: "ses_1", directory: "/p" };
const SETTINGS = { url: "http://127.0.0.1:1/v1", model: "tts-1", voice: "alloy" };

function rig(options: { settings?: typeof SETTINGS | undefined; fail?: SpeechError } = { settings: SETTINGS }) {
  const spoken: string[] = [];
  const voices: Array<{ replyTo?: number }> = [];
  const replies: Array<{ text: string; replyTo: number }> = [];
  const routes: any[] = [];
  const answers = new SpokenAnswers({
    telegram: {
      sendVoice: async (_chat, _ogg, opts) => {
        voices.push(opts?.replyTo ? { replyTo: opts.replyTo } : {});
        return { messageId: 99 };
      },
    },
    outbox: { upload: (_chat, prepare) => prepare()!() },
    log: pino({ level: "silent" }),
    t: CATALOGS.en,
    chatId: 1001,
    chat: { reply: async (text, replyTo) => void replies.push({ text, replyTo }) },
    settings: "settings" in options ? options.settings : SETTINGS,
    load: async () => ({
      speak: async (text: string) => {
        if (options.fail) throw options.fail;
        spoken.push(text);
        return new Uint8Array([0x4f, 0x67, 0x67, 0x53]);
      },
    }),
  });
  answers.route({ route: (_kind: string, route: unknown) => void routes.push(route) } as never);
  const voice = async (args: string, messageId = 5) => {
    const command = { kind: "command", name: "voice", args, messageId, from: { chatId: 1001, userId: 1001, chatType: "private" } } as never;
    const route = routes[0];
    expect(route.gathers(command)).toBe(true);
    await route.partFor(command);
    await route.unclaimed(command, { parts: [], unanswered: false });
  };
  return { answers, spoken, voices, replies, voice };
}

describe("SpokenAnswers", () => {
  it("auto: only a run a voice note asked for, once; a typed run after it gets none", async () => {
    const { answers, spoken, voices } = rig();
    await answers.afterDone(OWNER, "typed answer", 10, undefined);
    answers.heardVoice("ses_1");
    await answers.afterDone(OWNER, "**spoken** answer", 11, undefined);
    await answers.afterDone(OWNER, "the next, typed", 12, undefined);
    expect(spoken).toEqual(["spoken answer"]);
    expect(voices).toEqual([{ replyTo: 11 }]);
  });

  it("/voice on speaks every answer, off none; an unknown mode gets the usage; every process takes the mode", async () => {
    const { answers, spoken, replies, voice } = rig();
    await voice("on");
    expect(replies.at(-1)?.text).toBe(CATALOGS.en.speech.mode.on);
    await answers.afterDone(OWNER, "typed but on", 10, undefined);
    await voice("off");
    answers.heardVoice("ses_1");
    await answers.afterDone(OWNER, "voice but off", 11, undefined);
    await voice("loud");
    expect(replies.at(-1)?.text).toBe(CATALOGS.en.speech.usage);
    await voice("");
    expect(replies.at(-1)?.text).toBe(CATALOGS.en.speech.mode.off);
    expect(spoken).toEqual(["typed but on"]);
  });

  it("no service: nothing spoken, and /voice on says which setting is missing; an empty answer is not spoken", async () => {
    const { answers, spoken, replies, voice } = rig({ settings: undefined });
    await voice("on");
    expect(replies.at(-1)?.text).toBe(CATALOGS.en.speech.notConfigured);
    await answers.afterDone(OWNER, "anything", 10, undefined);
    const served = rig();
    await served.voice("on");
    await served.answers.afterDone(OWNER, "   ", 10, undefined);
    expect([...spoken, ...served.spoken]).toEqual([]);
  });

  it("a failure is said once, replying to the Done notice, with the service's status", async () => {
    const { answers, replies, voices } = rig({ settings: SETTINGS, fail: new SpeechError({ kind: "failed", detail: "HTTP 502: bad gateway" }) });
    answers.heardVoice("ses_1");
    await answers.afterDone(OWNER, "an answer", 10, undefined);
    expect(voices).toEqual([]);
    expect(replies).toEqual([{ text: "⚠️ The answer could not be spoken (HTTP 502: bad gateway). It is in the text above.", replyTo: 10 }]);
  });
});
