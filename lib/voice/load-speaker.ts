// The speaker is loaded with the first answer to speak, not at start-up: most users never
// configure speech, and the plugin's memory stays as it was for them.
import type { SpeechSettings } from "../config/speech-settings.ts";
import type { Speaker } from "./speaker.ts";

/** Builds the speaker for the settings; tests give their own. */
export type LoadSpeaker = (settings: SpeechSettings, timeoutMs: number) => Promise<Speaker>;

export const loadOpenaiSpeaker: LoadSpeaker = async (settings, timeoutMs) => {
  const { openaiSpeaker } = await import("./openai-speech.ts");
  return openaiSpeaker(settings, timeoutMs);
};
