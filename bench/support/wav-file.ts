import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { wavHeader } from "./wav";

/** The noise repeated through a generated file's samples (one chunk is written at a time). */
const NOISE_CHUNK_BYTES = 1024 * 1024;

/**
 * Writes a valid WAV file of exactly `totalBytes` bytes (at least 46, even) to `file`: the 44-byte
 * header of a mono 16-bit PCM WAV at 8 kHz, then random noise samples, streamed one megabyte at a
 * time so the file never sits in memory whole (a 200 MB file is about 3.6 hours of audio).
 */
export async function writeWavFile(file: string, totalBytes: number): Promise<void> {
  if (totalBytes < 46 || totalBytes % 2 !== 0) throw new Error(`a WAV file of ${totalBytes} bytes cannot be made`);
  const dataBytes = totalBytes - 44;
  const noise = randomBytes(NOISE_CHUNK_BYTES);
  function* chunks(): Generator<Uint8Array> {
    yield wavHeader(dataBytes);
    for (let left = dataBytes; left > 0; left -= NOISE_CHUNK_BYTES) {
      yield left >= NOISE_CHUNK_BYTES ? noise : noise.subarray(0, left);
    }
  }
  await pipeline(Readable.from(chunks()), createWriteStream(file));
}
