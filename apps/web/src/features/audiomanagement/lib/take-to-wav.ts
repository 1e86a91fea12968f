import { encodeWav, mixToMono } from "./wav-encoding";

/**
 * Sample rate (Hz) of a take's WAV file: enough for speech, and 2.6 MB a minute in mono 16-bit,
 * so an hour stays far below the upload limit (MAX_UPLOAD_BYTES, 512 MB by default).
 */
export const TAKE_SAMPLE_RATE = 22_050;

/** A recorded take, ready to upload. */
export interface WavTake {
  /** The take as a mono 16-bit PCM WAV file (audio/wav) named as asked. */
  file: File;
  /** Its length in seconds. */
  seconds: number;
}

/**
 * Turns what MediaRecorder gave (WebM/Opus in Chromium, Ogg/Opus in Firefox, MP4 in Safari) into
 * a WAV file the server accepts (issue 12 Build 3, SPEC §2.13): the browser decodes it, resampled
 * to TAKE_SAMPLE_RATE (decodeAudioData resamples to its context's rate), mixed to mono and
 * encoded by encodeWav. The whole take is decoded in memory, about 90 KB per second.
 * Rejects with an Error saying the take could not be read when the browser cannot decode it
 * (e.g. an empty recording).
 */
export async function takeToWav(recording: Blob, fileName: string): Promise<WavTake> {
  const context = new OfflineAudioContext(1, 1, TAKE_SAMPLE_RATE);
  let decoded: AudioBuffer;
  try {
    decoded = await context.decodeAudioData(await recording.arrayBuffer());
  } catch (error) {
    throw new Error("The recording could not be read (nothing was recorded, or the browser cannot decode it).", {
      cause: error,
    });
  }
  const channels = Array.from({ length: decoded.numberOfChannels }, (_, i) => decoded.getChannelData(i));
  const wav = encodeWav(mixToMono(channels), decoded.sampleRate);
  return { file: new File([wav], fileName, { type: "audio/wav" }), seconds: decoded.duration };
}
