import { useRef, useState, type Ref } from "react";
import { formatDuration } from "../duration";
import { DEFAULT_VOLUME, nextSpeed, PLAYBACK_SPEEDS, VOLUME_RANGE, ZOOM_RANGE } from "./controls";
import { LoopIcon, PauseIcon, PlayIcon, VolumeIcon, ZoomIcon } from "./icons";
import type { PlayerWaveform } from "./player-waveform";
import { ShortcutsHelp } from "./shortcuts-help";
import { useLoopRegions } from "./use-loop-regions";
import { usePlayerHandle, type AudioPlayerHandle } from "./use-player-handle";
import { usePlayerShortcuts, type PlayerShortcut } from "./use-player-shortcuts";
import { useWaveformPeaks } from "./use-waveform-peaks";
import { useWaveSurfer } from "./use-wavesurfer";
import { WaveformArea } from "./waveform-area";

/** `seconds` to 2 decimals, for the data attributes tests read. */
const twoDecimals = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * The player of one source (AudioPlayer remounts it for a new one): see AudioPlayer for what it
 * shows and the data attributes its root carries. SPEC §2.11, §9; decision 023.
 */
export function WavePlayer({
  url,
  label,
  shortcuts,
  waveform,
  moreShortcuts,
  shortcutsNote,
  handleRef,
}: {
  url: string;
  label: string;
  shortcuts: boolean;
  waveform: PlayerWaveform;
  moreShortcuts: readonly PlayerShortcut[];
  shortcutsNote: string;
  handleRef: Ref<AudioPlayerHandle> | undefined;
}) {
  // The player streams the URL it was mounted with; a new source remounts it (see AudioPlayer's key).
  const [initialUrl] = useState(url);
  const containerRef = useRef<HTMLDivElement>(null);
  // In this order: the wavesurfer is created, its loop plugin registered, then the audio loaded.
  const player = useWaveSurfer(containerRef, initialUrl, waveform.status === "ready" ? waveform.durationSeconds : 0);
  const { loopPart, toggleLoop } = useLoopRegions(player.waveRef, initialUrl);
  const view = useWaveformPeaks(player.waveRef, initialUrl, waveform);
  usePlayerHandle(handleRef, player);
  const [volume, setVolume] = useState<number>(DEFAULT_VOLUME);
  const [rate, setRate] = useState<number>(1);
  const [zoom, setZoom] = useState<number>(ZOOM_RANGE.min);
  const { status, playing, togglePlay } = player;

  const changeVolume = (value: number) => {
    setVolume(value);
    player.waveRef.current?.setVolume(value);
  };
  const changeRate = (value: number) => {
    setRate(value);
    player.waveRef.current?.setPlaybackRate(value);
  };
  const changeZoom = (value: number) => {
    setZoom(value);
    player.waveRef.current?.zoom(value);
  };
  usePlayerShortcuts(shortcuts, status === "ready", {
    togglePlay,
    seekBy: player.seekBy,
    changeSpeed: (direction) => changeRate(nextSpeed(rate, direction)),
  });

  return (
    <div
      className="audio-player"
      role="group"
      aria-label={label}
      data-state={playing ? "playing" : "paused"}
      data-status={status}
      data-waveform={view}
      data-volume={volume}
      data-rate={rate}
      data-time={player.time}
      data-loop={loopPart ? "on" : "off"}
      data-loop-start={loopPart ? twoDecimals(loopPart.start) : undefined}
      data-loop-end={loopPart ? twoDecimals(loopPart.end) : undefined}
      data-zoom={zoom}
    >
      <WaveformArea containerRef={containerRef} loading={status === "loading"} view={view} />
      {status === "error" && (
        <p className="field-error" role="alert">
          Failed to load audio file: {player.error}
        </p>
      )}
      <div className="audio-player-controls">
        <button
          type="button"
          className="btn btn-primary audio-player-play"
          aria-label={playing ? "Pause" : "Play"}
          disabled={status !== "ready"}
          onClick={togglePlay}
        >
          {playing ? <PauseIcon /> : <PlayIcon />}
        </button>
        <span className="audio-player-time muted">
          {/* The position counts whole seconds gone by; the length reads as on every other screen. */}
          {formatDuration(Math.floor(player.position))} / {formatDuration(player.duration)}
        </span>
        <label className="audio-player-volume">
          <VolumeIcon />
          <input
            type="range"
            aria-label="Volume"
            aria-valuetext={`${Math.round(volume * 100)}%`}
            min={VOLUME_RANGE.min}
            max={VOLUME_RANGE.max}
            step={VOLUME_RANGE.step}
            value={volume}
            onChange={(e) => changeVolume(Number(e.target.value))}
          />
        </label>
        <select
          className="select audio-player-speed"
          aria-label="Playback speed"
          value={rate}
          onChange={(e) => changeRate(Number(e.target.value))}
        >
          {PLAYBACK_SPEEDS.map((s) => (
            <option key={s.rate} value={s.rate}>
              {s.label}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="btn audio-player-loop"
          aria-pressed={loopPart !== null}
          disabled={status !== "ready"}
          title="Loop the selected part (drag across the waveform to select one)"
          onClick={toggleLoop}
        >
          <LoopIcon /> Loop
        </button>
        <label className="audio-player-zoom">
          <ZoomIcon />
          <input
            type="range"
            aria-label="Zoom"
            aria-valuetext={zoom === ZOOM_RANGE.min ? "Whole audio" : `${zoom} pixels per second`}
            min={ZOOM_RANGE.min}
            max={ZOOM_RANGE.max}
            step={ZOOM_RANGE.step}
            value={zoom}
            disabled={status !== "ready"}
            onChange={(e) => changeZoom(Number(e.target.value))}
          />
        </label>
        {shortcuts && <ShortcutsHelp more={moreShortcuts} note={shortcutsNote} />}
      </div>
    </div>
  );
}
