// `@tafsiri/ui/span-waveform`: a recording's waveform with one numbered region per span, each
// dragged and resized with the mouse (decision 035: a whole translated recording matched to its
// segments). The keyboard edits the same spans in the page's list beside it.
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import RegionsPlugin, { type Region } from "wavesurfer.js/plugins/regions";
import type { PlayerWaveform } from "./audio-player/player-waveform";
import { useWaveformPeaks } from "./audio-player/use-waveform-peaks";
import { useWaveSurfer } from "./audio-player/use-wavesurfer";
import { WaveformArea } from "./audio-player/waveform-area";

/** A span drawn as a region: `key` identifies it, `label` is the number written on it; whole ms. */
interface WaveformSpan {
  key: string;
  label: string;
  startMs: number;
  endMs: number;
}

/** What the page holds of a SpanWaveform: play one span. */
export interface SpanWaveformHandle {
  /** Plays span `index` from its start and stops at its end. */
  playSpan(index: number): void;
}

/** Two fills alternating, so neighbouring spans stand apart; each also carries its number. */
const FILLS = ["rgba(36, 87, 214, 0.16)", "rgba(214, 120, 36, 0.18)"];

/**
 * The number written at the foot of a region (the waveform's notes sit at its top), dark on
 * white (well over 4.5:1).
 */
function regionLabel(text: string): HTMLElement {
  const label = document.createElement("span");
  label.textContent = text;
  label.style.cssText =
    "position:absolute;bottom:2px;left:2px;padding:0 4px;border-radius:3px;background:#ffffff;color:#1f2937;font:600 12px/1.4 system-ui,sans-serif";
  return label;
}

/**
 * A waveform of the recording at `url` (streamed, its stored `waveform` peaks drawn, as
 * AudioPlayer does: decision 023) with one region per span of `spans`, numbered with its label,
 * that the mouse drags or resizes; at the end of each move `onSpanChange(index, startMs, endMs)`
 * receives the span's new times in whole ms (the page keeps them in order and gives the spans
 * back, and the regions follow whatever it gives). `ref` receives playSpan. The root carries
 * data-regions (how many regions are drawn) and data-status (as the player's).
 */
export function SpanWaveform({
  url,
  label,
  waveform,
  spans,
  onSpanChange,
  ref,
}: {
  url: string;
  /** Accessible name of the waveform's group. */
  label: string;
  waveform: PlayerWaveform;
  spans: readonly WaveformSpan[];
  onSpanChange(index: number, startMs: number, endMs: number): void;
  ref?: Ref<SpanWaveformHandle>;
}) {
  const [initialUrl] = useState(url);
  const containerRef = useRef<HTMLDivElement>(null);
  const player = useWaveSurfer(containerRef, initialUrl, waveform.status === "ready" ? waveform.durationSeconds : 0);
  const regionsRef = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const changeRef = useRef(onSpanChange);
  const keysRef = useRef<string[]>([]);
  const [drawn, setDrawn] = useState(0);
  useEffect(() => {
    changeRef.current = onSpanChange;
  });

  // Registered before the peaks load the audio (React runs a component's effects in order).
  useEffect(() => {
    const wave = player.waveRef.current;
    if (!wave) return;
    const regions = wave.registerPlugin(RegionsPlugin.create());
    regionsRef.current = regions;
    const off = regions.on("region-updated", (region: Region) => {
      const index = keysRef.current.indexOf(region.id);
      if (index !== -1) changeRef.current(index, Math.round(region.start * 1000), Math.round(region.end * 1000));
    });
    return () => {
      off();
      regionsRef.current = null;
    };
  }, [player.waveRef, initialUrl]);
  const view = useWaveformPeaks(player.waveRef, initialUrl, waveform);

  // The regions follow the spans once the recording's length is known.
  const ready = player.duration > 0 && player.status !== "error";
  useEffect(() => {
    const regions = regionsRef.current;
    if (!regions || !ready) return;
    keysRef.current = spans.map((s) => s.key);
    const existing = new Map(regions.getRegions().map((r) => [r.id, r]));
    for (const [i, span] of spans.entries()) {
      const start = span.startMs / 1000;
      const end = span.endMs / 1000;
      const region = existing.get(span.key);
      existing.delete(span.key);
      if (!region) {
        regions.addRegion({
          id: span.key,
          start,
          end,
          color: FILLS[i % FILLS.length],
          content: regionLabel(span.label),
          drag: true,
          resize: true,
          minLength: 0.05,
        });
      } else if (Math.abs(region.start - start) > 0.0005 || Math.abs(region.end - end) > 0.0005) {
        region.setOptions({ start, end });
      }
    }
    for (const stale of existing.values()) stale.remove();
    setDrawn(spans.length);
  }, [spans, ready]);

  useImperativeHandle(
    ref,
    () => ({
      playSpan(index: number) {
        const key = keysRef.current[index];
        const region = regionsRef.current?.getRegions().find((r) => r.id === key);
        region?.play(true);
      },
    }),
    [],
  );

  return (
    <div
      className="audio-player span-waveform"
      role="group"
      aria-label={label}
      data-status={player.status}
      data-regions={drawn}
    >
      <WaveformArea containerRef={containerRef} loading={player.status === "loading"} view={view} />
      {player.status === "error" && (
        <p className="field-error" role="alert">
          Failed to load audio file: {player.error}
        </p>
      )}
    </div>
  );
}
