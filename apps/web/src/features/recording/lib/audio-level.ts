/** The quietest level the microphone meter shows above zero, in dBFS. */
const LEVEL_FLOOR_DB = -60;

/**
 * The loudness of a slice of samples (-1..1, e.g. an AnalyserNode's time-domain data) for the
 * recorder's level meter: the RMS in dBFS mapped linearly from LEVEL_FLOOR_DB..0 onto 0..1, so
 * speech moves the meter visibly. Returns 0 for silence or an empty slice, 1 at full scale.
 */
export function audioLevel(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const s of samples) sum += s * s;
  const rms = Math.sqrt(sum / samples.length);
  if (rms === 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.min(1, Math.max(0, (db - LEVEL_FLOOR_DB) / -LEVEL_FLOOR_DB));
}

/** Milliseconds as "mm:ss" (minutes past 99 keep counting: "125:07"); negative counts as 0. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(total / 60)).padStart(2, "0")}:${String(total % 60).padStart(2, "0")}`;
}
