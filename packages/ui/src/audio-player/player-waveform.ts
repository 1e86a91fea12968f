/**
 * What the player draws (ARCHITECTURE "Long recordings and the corpus"): stored peaks it fetches
 * (`peaksUrl`, a BBC audiowaveform `.dat`), peaks already in memory (values in -1..1, e.g. a take
 * recorded in the browser), or none yet (`pending`: the server is still preparing them; `failed`:
 * it could not decode the file). The audio plays in every case; `durationSeconds` is in seconds.
 */
export type PlayerWaveform =
  | { status: "pending" | "failed" }
  | { status: "ready"; peaksUrl: string; durationSeconds: number }
  | { status: "ready"; peaks: { min: Float32Array; max: Float32Array }; durationSeconds: number };

/**
 * The PlayerWaveform of an audio's or a recording's `waveform` as `audios.get` and `recordings.get`
 * answer it (ZWaveform: status, signed peaks URL, duration in seconds; null when there is none):
 * `ready` with its peaks URL and duration, `failed`, or else `pending`. Decision 023.
 */
export function playerWaveform(
  w:
    | { status: "pending" | "ready" | "failed"; peaksUrl: string | null; durationSeconds: number | null }
    | null
    | undefined,
): PlayerWaveform {
  if (w?.status === "ready" && w.peaksUrl && w.durationSeconds && w.durationSeconds > 0) {
    return { status: "ready", peaksUrl: w.peaksUrl, durationSeconds: w.durationSeconds };
  }
  return { status: w?.status === "failed" ? "failed" : "pending" };
}

/** `url` without its query (expiry and signature of a signed URL). */
function withoutQuery(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The identity of what `waveform` draws: a new one draws again, the same one re-signed does not
 * (a peaks URL counts without its query; in-memory peaks by their array). Decision 023.
 */
export function waveformIdentity(waveform: PlayerWaveform): unknown {
  if (waveform.status !== "ready") return waveform.status;
  return "peaksUrl" in waveform ? `url:${withoutQuery(waveform.peaksUrl)}` : waveform.peaks.max;
}

/**
 * The two channels wavesurfer draws from `peaks` (values in -1..1; max: the top half, min: the
 * bottom half), scaled so the loudest peak fills the height: speech recorded at a modest level
 * still shows its shape. Decision 023.
 */
export function normalized(peaks: { min: Float32Array; max: Float32Array }): Float32Array[] {
  let loudest = 0;
  for (const channel of [peaks.min, peaks.max]) {
    for (const v of channel) loudest = Math.max(loudest, Math.abs(v));
  }
  if (loudest === 0 || loudest >= 1) return [peaks.max, peaks.min];
  return [peaks.max.map((v) => v / loudest), peaks.min.map((v) => v / loudest)];
}
