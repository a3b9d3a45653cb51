// The transcriber is loaded on the first voice note, not at start-up: most users never configure
// transcription, and the plugin's memory stays as it was for them.
import type { TranscriptionSettings } from "../config/config.ts";
import type { Transcriber } from "./transcriber.ts";

/** Builds the transcriber for the settings; tests give their own. */
export type LoadTranscriber = (settings: TranscriptionSettings, timeoutMs: number) => Promise<Transcriber>;

export const loadOpenaiTranscriber: LoadTranscriber = async (settings, timeoutMs) => {
  const { openaiTranscriber } = await import("./openai-compatible.ts");
  return openaiTranscriber(settings, timeoutMs);
};
