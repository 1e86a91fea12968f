import { useRef, useState, type Ref } from "react";
import { formatDuration } from "../duration";
import { DEFAULT_VOLUME, nextSpeed, PLAYBACK_SPEEDS, VOLUME_RANGE, ZOOM_RANGE } from "./controls";
import { LoopIcon, PauseIcon, PlayIcon, VolumeIcon, ZoomIcon } from "./icons";
import type { PlayerWaveform } from "./player-waveform";
import { EDITOR_SHORTCUTS_NOTE, ShortcutsHelp } from "./shortcuts-help";
import { useLoopRegions } from "./use-loop-regions";
import { usePlayerHandle, type AudioPlayerHandle } from "./use-player-handle";
import { usePlayerShortcuts, type PlayerShortcut } from "./use-player-shortcuts";
import { useWaveformPeaks } from "./use-waveform-peaks";
import { useWaveSurfer } from "./use-wavesurfer";
import { WaveformArea } from "./waveform-area";

export interface AudioPlayerProps {
  /**
   * A URL the browser can fetch without extra headers (e.g. a signed file URL) that answers HTTP
   * Range requests: the player streams it and never downloads or decodes it whole.
   */
  url: string;
  /**
   * The identity of the audio. Defaults to `url`; pass a stable value (e.g. the URL without its
   * signature) so that a re-signed URL of the same file does not reload the player.
   */
  sourceKey?: string;
  /** Accessible name of the player region, e.g. "Original audio". */
  label?: string;
  /**
   * This player answers PLAYER_SHORTCUTS anywhere on the page, also while the
   * transcript editor has focus. At most one player of a page should have them.
   */
  shortcuts?: boolean;
  /** The peaks to draw and the duration (see PlayerWaveform and playerWaveform). */
  waveform: PlayerWaveform;
  /**
   * Keys the page around the player answers (e.g. the transcript editor's), listed in the
   * 'Shortcuts' popover after PLAYER_SHORTCUTS. Only with `shortcuts`.
   */
  moreShortcuts?: readonly PlayerShortcut[];
  /**
   * The line above the list in the 'Shortcuts' popover: where the keys work. Defaults to the
   * transcript editor's (EDITOR_SHORTCUTS_NOTE).
   */
  shortcutsNote?: string;
  /** Receives the player's AudioPlayerHandle (position, play from a time). */
  ref?: Ref<AudioPlayerHandle>;
}

/** `seconds` to 2 decimals, for the data attributes tests read. */
const twoDecimals = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * A waveform audio player (wavesurfer.js 8) with play/pause, volume and playback speed
 * (SPEC §2.11, §9: height 150, bar width 3, radius 3; volume 0.5 in 0.01..1 step 0.025).
 * Decision 023 (ARCHITECTURE "Long recordings and the corpus"): it plays `url` through an `<audio
 * preload="metadata">` element, which streams it over HTTP Range (Play works once the metadata is
 * in; a seek fetches only that part), and draws the stored peaks of `waveform` (fetched, a `.dat`)
 * or the ones given, never decoding the audio. Without peaks it draws a flat line and says
 * WAVEFORM_PENDING_TEXT or WAVEFORM_UNAVAILABLE_TEXT; the audio plays all the same.
 * Shows 'Loading' until the audio can play and 'Failed to load audio file: {message}' on error.
 * Its clock reads 'position / length' with formatDuration, as every other screen shows a length
 * ('1:00:00' for an hour). With `shortcuts`, it also answers PLAYER_SHORTCUTS on the whole page and
 * shows them in a 'Shortcuts' popover. Dragging across the waveform selects a part that 'Loop'
 * repeats (without a selection, 'Loop' repeats DEFAULT_LOOP_SECONDS from the current position;
 * pressed again, it stops and clears the selection), and 'Zoom' widens the waveform
 * (ZOOM_RANGE). The root carries data-state="playing"|"paused",
 * data-status="loading"|"ready"|"error", data-waveform="loading"|"peaks"|"pending"|"unavailable",
 * the exact data-volume and data-rate (a range input shows 0.5 as 0.51, its step grid starting at
 * 0.01), data-time (the position in seconds, to 0.1), data-loop="on"|"off" with data-loop-start and
 * data-loop-end (seconds, to 0.01), and data-zoom.
 */
export function AudioPlayer({
  url,
  sourceKey,
  label = "Audio player",
  shortcuts = false,
  waveform,
  moreShortcuts = [],
  shortcutsNote = EDITOR_SHORTCUTS_NOTE,
  ref,
}: AudioPlayerProps) {
  return (
    <WavePlayer
      key={sourceKey ?? url}
      url={url}
      label={label}
      shortcuts={shortcuts}
      waveform={waveform}
      moreShortcuts={moreShortcuts}
      shortcutsNote={shortcutsNote}
      handleRef={ref}
    />
  );
}

function WavePlayer({
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
