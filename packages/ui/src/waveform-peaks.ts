import WaveformData from "waveform-data";

/** A waveform to draw: per pixel of the stored peaks, the lowest and highest sample, in -1..1. */
export interface WaveformPeaks {
  min: Float32Array;
  max: Float32Array;
  /** Seconds of audio the peaks cover (their length x samples per pixel / sample rate). */
  durationSeconds: number;
}

/**
 * Reads stored peaks (ARCHITECTURE "Long recordings and the corpus"): a BBC audiowaveform binary
 * `.dat` (version 1 or 2, 8- or 16-bit min/max pairs) in `buffer`, parsed with waveform-data.
 * Returns the first channel's minima and maxima scaled to -1..1 and the duration they cover in
 * seconds. Throws when the buffer is not such a file.
 */
function peaksFromDat(buffer: ArrayBuffer): WaveformPeaks {
  const data = WaveformData.create(buffer);
  if (data.channels < 1 || data.length < 1) throw new Error("The peaks file holds no data.");
  // Full scale: the server writes round(sample x 127) (audiowaveform itself sample / 256, down to -128).
  const full = data.bits === 8 ? 127 : 32767;
  const channel = data.channel(0);
  const scaled = (values: number[]) => Float32Array.from(values, (v) => Math.max(-1, Math.min(1, v / full)));
  return { min: scaled(channel.min_array()), max: scaled(channel.max_array()), durationSeconds: data.duration };
}

/**
 * Fetches and reads the peaks at `url` (a signed `/files/…` URL of a `.dat`, a few hundred KB for an
 * hour of audio: 100 pairs a second). Rejects on an HTTP error, an unreadable file, or `signal`.
 */
export async function fetchPeaks(url: string, signal?: AbortSignal): Promise<WaveformPeaks> {
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(response.statusText || `HTTP ${response.status}`);
  return peaksFromDat(await response.arrayBuffer());
}
