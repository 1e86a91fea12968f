import { useEffect, useRef, useState, type RefObject } from "react";
import type WaveSurfer from "wavesurfer.js";
import RegionsPlugin, { type Region } from "wavesurfer.js/plugins/regions";

/** Seconds 'Loop' repeats from the current position when no part of the waveform is selected. */
const DEFAULT_LOOP_SECONDS = 5;
const LOOP_COLOR = "rgba(36, 87, 214, 0.18)";

/** The part that loops, in seconds from the start of the audio. */
interface LoopPart {
  start: number;
  end: number;
}

/**
 * The player's loop (SPEC §2.11; docs/features.md 'A player made for transcribing'), with
 * wavesurfer's regions plugin: dragging across the waveform selects a part (one at a time) that
 * keeps playing in a loop; toggleLoop without a selection loops DEFAULT_LOOP_SECONDS from the
 * position, and with one clears it. Returns the part in seconds (null without a loop) and toggleLoop.
 * Call it right after useWaveSurfer, before useWaveformPeaks: its effect registers the plugin on the
 * wavesurfer that useWaveSurfer's effect created (React runs a component's effects in order), as
 * `initialUrl`'s player is created once.
 */
export function useLoopRegions(
  waveRef: RefObject<WaveSurfer | null>,
  initialUrl: string,
): { loopPart: LoopPart | null; toggleLoop: () => void } {
  const regionsRef = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const [loopPart, setLoopPart] = useState<LoopPart | null>(null);
  const loopingRef = useRef(false);

  useEffect(() => {
    const wave = waveRef.current;
    if (!wave) return;
    // Dragging across the waveform selects the part to loop (one at a time).
    const regions = wave.registerPlugin(RegionsPlugin.create());
    regionsRef.current = regions;
    const disableDragSelection = regions.enableDragSelection({ color: LOOP_COLOR });
    const showPart = (region: Region) => setLoopPart({ start: region.start, end: region.end });
    const unsubscribe = [
      regions.on("region-created", (created) => {
        for (const other of regions.getRegions()) if (other !== created) other.remove();
        loopingRef.current = true;
        showPart(created);
      }),
      regions.on("region-updated", showPart),
      regions.on("region-removed", () => {
        if (regions.getRegions().length === 0) {
          loopingRef.current = false;
          setLoopPart(null);
        }
      }),
      // Leaving the loop while it plays starts it again.
      regions.on("region-out", (region) => {
        if (loopingRef.current && wave.isPlaying()) region.play();
      }),
    ];
    return () => {
      disableDragSelection();
      regionsRef.current = null;
      unsubscribe.forEach((off) => off());
    };
  }, [waveRef, initialUrl]);

  const toggleLoop = () => {
    const wave = waveRef.current;
    const regions = regionsRef.current;
    if (!wave || !regions) return;
    if (regions.getRegions().length > 0) {
      regions.clearRegions();
      return;
    }
    const duration = wave.getDuration();
    const start = Math.max(0, Math.min(wave.getCurrentTime(), duration - DEFAULT_LOOP_SECONDS));
    regions.addRegion({ start, end: Math.min(duration, start + DEFAULT_LOOP_SECONDS), color: LOOP_COLOR });
  };
  return { loopPart, toggleLoop };
}
