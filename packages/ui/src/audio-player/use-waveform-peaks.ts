import { useEffect, useEffectEvent, useState, type RefObject } from "react";
import type WaveSurfer from "wavesurfer.js";
import { fetchPeaks } from "../waveform-peaks";
import { normalized, waveformIdentity, type PlayerWaveform } from "./player-waveform";
import { isAbort } from "./use-wavesurfer";

/**
 * What the waveform area shows (the root's data-waveform): peaks being fetched, stored or in-memory
 * peaks drawn, none yet (the server is preparing them), or none to be had (`failed`, or the stored
 * peaks could not be read). Without peaks a flat line stands in, so seeking and loops still work.
 */
export type WaveformView = "loading" | "peaks" | "pending" | "unavailable";

/** The line drawn without peaks: this many points at this level (a fraction of the height). */
const FLAT_POINTS = 1000;
const FLAT_LEVEL = 0.02;

/**
 * Draws `waveform` in the wavesurfer of `waveRef` (decision 023): gives wavesurfer the URL
 * `initialUrl` with peaks and a duration in seconds, so it never fetches or decodes the file itself:
 * at once a flat line (or the peaks in memory), then the stored peaks once fetched. A new waveform
 * draws again, the same one re-signed does not. Returns what the waveform area shows.
 * Call it after the hooks that create the wavesurfer and register its plugins: its effect loads the
 * audio, and React runs a component's effects in the order they are declared.
 */
export function useWaveformPeaks(
  waveRef: RefObject<WaveSurfer | null>,
  initialUrl: string,
  waveform: PlayerWaveform,
): WaveformView {
  const identity = waveformIdentity(waveform);
  // Whether the stored peaks of `identity` could be fetched and read.
  const [fetched, setFetched] = useState<{ identity: unknown; ok: boolean } | null>(null);

  const drawWaveform = useEffectEvent((signal: AbortSignal) => {
    const wave = waveRef.current;
    if (!wave) return;
    // Absolute, as the media element reports its source: loading the same URL again keeps the
    // element (and its position, its buffer) and only draws the new peaks.
    const src = new URL(initialUrl, document.baseURI).href;
    const load = (channels: Float32Array[], seconds: number | undefined) => {
      // Failures other than a newer load reach wave.on("error").
      wave.load(src, channels, seconds).catch(() => undefined);
    };
    const known = waveform.status === "ready" && waveform.durationSeconds > 0 ? waveform.durationSeconds : undefined;
    if (waveform.status === "ready" && "peaks" in waveform) {
      load(normalized(waveform.peaks), known);
      return;
    }
    load([new Float32Array(FLAT_POINTS).fill(FLAT_LEVEL)], known);
    if (waveform.status !== "ready") return;
    fetchPeaks(waveform.peaksUrl, signal).then(
      (peaks) => {
        if (signal.aborted) return;
        load(normalized(peaks), known ?? peaks.durationSeconds);
        setFetched({ identity, ok: true });
      },
      (e: unknown) => {
        if (signal.aborted || isAbort(e)) return;
        console.warn("The waveform's peaks could not be read:", e);
        setFetched({ identity, ok: false });
      },
    );
  });
  useEffect(() => {
    const controller = new AbortController();
    drawWaveform(controller.signal);
    return () => controller.abort();
  }, [initialUrl, identity]);

  if (waveform.status === "pending") return "pending";
  if (waveform.status === "failed") return "unavailable";
  if (!("peaksUrl" in waveform)) return "peaks";
  if (!fetched || fetched.identity !== identity) return "loading";
  return fetched.ok ? "peaks" : "unavailable";
}
