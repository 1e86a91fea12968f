import { wavHeader } from "@tafsiri/api/testing/wav";

export { wavHeader };

/**
 * A valid mono 16-bit PCM WAV file of `samples` samples of silence at 8 kHz (44-byte header
 * plus 2 bytes a sample): enough for the server's content sniffing to accept it as audio.
 */
export function silentWav(samples = 800): Uint8Array<ArrayBuffer> {
  const dataBytes = samples * 2;
  const wav = new Uint8Array(44 + dataBytes);
  wav.set(wavHeader(dataBytes));
  return wav;
}
