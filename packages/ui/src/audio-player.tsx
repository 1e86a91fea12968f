import { useEffect, useEffectEvent, useRef, useState } from "react";
import WaveSurfer from "wavesurfer.js";
import RegionsPlugin, { type Region } from "wavesurfer.js/plugins/regions";

/** SPEC §9 audio player constants. */
export const DEFAULT_VOLUME = 0.5;
export const VOLUME_RANGE = { min: 0.01, max: 1, step: 0.025 } as const;
export const PLAYBACK_SPEEDS = [
  // Issue 12 Build 4: slower than SPEC §9's speeds, for transcribing.
  { label: "Slowest", rate: 0.25 },
  { label: "Very Slow", rate: 0.5 },
  { label: "Slow", rate: 0.75 },
  { label: "Normal", rate: 1 },
  { label: "Quick", rate: 1.5 },
  { label: "Very Quick", rate: 2 },
] as const;

export interface AudioPlayerProps {
  /** A URL the browser can fetch without extra headers (e.g. a signed file URL). */
  url: string;
  /**
   * The identity of the audio. Defaults to `url`; pass a stable value (e.g. the URL without its
   * signature) so that a re-signed URL of the same file does not reload the player.
   */
  sourceKey?: string;
  /** Accessible name of the player region, e.g. "Original audio". */
  label?: string;
  /**
   * Issue 12 Build 4: this player answers PLAYER_SHORTCUTS anywhere on the page, also while the
   * transcript editor has focus. At most one player of a page should have them.
   */
  shortcuts?: boolean;
}

/** Seconds Ctrl+← and Ctrl+→ move back and forward. */
export const SEEK_STEP_SECONDS = 3;
/** Seconds 'Loop' repeats from the current position when no part of the waveform is selected. */
export const DEFAULT_LOOP_SECONDS = 5;
/** The zoom slider: pixels per second of audio, 0 meaning the whole audio fits the width. */
export const ZOOM_RANGE = { min: 0, max: 200, step: 10 } as const;
const LOOP_COLOR = "rgba(36, 87, 214, 0.18)";

/** `seconds` to 2 decimals, for the data attributes tests read. */
const twoDecimals = (seconds: number) => Math.round(seconds * 100) / 100;

/** The keyboard shortcuts of a player with `shortcuts` (shown in its 'Shortcuts' popover). */
export const PLAYER_SHORTCUTS = [
  { keys: "Ctrl+Space", action: "Play or pause" },
  { keys: "Ctrl+←", action: `Back ${SEEK_STEP_SECONDS} seconds` },
  { keys: "Ctrl+→", action: `Forward ${SEEK_STEP_SECONDS} seconds` },
  { keys: "Ctrl+↑", action: "Faster" },
  { keys: "Ctrl+↓", action: "Slower" },
] as const;

/** The speed one step faster (+1) or slower (-1) than `rate` among PLAYBACK_SPEEDS, kept at the ends. */
function nextSpeed(rate: number, direction: 1 | -1): number {
  const index = PLAYBACK_SPEEDS.findIndex((s) => s.rate === rate);
  const from = index < 0 ? PLAYBACK_SPEEDS.findIndex((s) => s.rate === 1) : index;
  const next = Math.min(PLAYBACK_SPEEDS.length - 1, Math.max(0, from + direction));
  return PLAYBACK_SPEEDS[next]!.rate;
}

type LoadState = "loading" | "ready" | "error";

/** Seconds as m:ss. */
function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * A waveform audio player (wavesurfer.js 8) with play/pause, volume and playback speed
 * (SPEC §2.11, §9: height 150, bar width 3, radius 3; volume 0.5 in 0.01..1 step 0.025).
 * Shows 'Loading' until the audio is ready and 'Failed to load audio file: {message}' on error.
 * With `shortcuts`, it also answers PLAYER_SHORTCUTS on the whole page and shows them in a
 * 'Shortcuts' popover (issue 12 Build 4). Dragging across the waveform selects a part that 'Loop'
 * repeats (without a selection, 'Loop' repeats DEFAULT_LOOP_SECONDS from the current position;
 * pressed again, it stops and clears the selection), and 'Zoom' widens the waveform
 * (ZOOM_RANGE). The root carries data-state="playing"|"paused",
 * data-status="loading"|"ready"|"error", the exact data-volume and data-rate (a range input shows
 * 0.5 as 0.51, its step grid starting at 0.01), data-time (the position in seconds, to 0.1),
 * data-loop="on"|"off" with data-loop-start and data-loop-end (seconds, to 0.01), and data-zoom.
 */
export function AudioPlayer({ url, sourceKey, label = "Audio player", shortcuts = false }: AudioPlayerProps) {
  return <WavePlayer key={sourceKey ?? url} url={url} label={label} shortcuts={shortcuts} />;
}

function WavePlayer({ url, label, shortcuts }: { url: string; label: string; shortcuts: boolean }) {
  // The player loads the URL it was mounted with; a new source remounts it (see AudioPlayer's key).
  const [initialUrl] = useState(url);
  const containerRef = useRef<HTMLDivElement>(null);
  const waveRef = useRef<WaveSurfer | null>(null);
  const [status, setStatus] = useState<LoadState>("loading");
  const [error, setError] = useState("");
  const [playing, setPlaying] = useState(false);
  const [volume, setVolume] = useState<number>(DEFAULT_VOLUME);
  const [rate, setRate] = useState<number>(1);
  const [position, setPosition] = useState(0);
  const [duration, setDuration] = useState(0);
  const [time, setTime] = useState(0);
  const regionsRef = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const [loopPart, setLoopPart] = useState<{ start: number; end: number } | null>(null);
  const loopingRef = useRef(false);
  const [zoom, setZoom] = useState<number>(ZOOM_RANGE.min);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const wave = WaveSurfer.create({
      container,
      url: initialUrl,
      height: 150,
      barWidth: 3,
      barRadius: 3,
      barGap: 1,
      waveColor: "#a9bbe9",
      progressColor: "#2457d6",
      cursorColor: "#1c46ad",
    });
    wave.setVolume(DEFAULT_VOLUME);
    waveRef.current = wave;
    // Issue 12 Build 4: dragging across the waveform selects the part to loop (one at a time).
    const regions = wave.registerPlugin(RegionsPlugin.create());
    regionsRef.current = regions;
    const disableDragSelection = regions.enableDragSelection({ color: LOOP_COLOR });
    const showPart = (region: Region) => setLoopPart({ start: region.start, end: region.end });
    const unsubscribe = [
      wave.on("ready", (seconds) => {
        setDuration(seconds);
        setStatus("ready");
      }),
      wave.on("play", () => setPlaying(true)),
      wave.on("pause", () => setPlaying(false)),
      wave.on("finish", () => setPlaying(false)),
      wave.on("timeupdate", (seconds) => {
        setPosition(Math.floor(seconds));
        setTime(Math.round(seconds * 10) / 10);
      }),
      wave.on("error", (e) => {
        setError(e.message || String(e));
        setStatus("error");
        setPlaying(false);
      }),
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
      wave.destroy();
      waveRef.current = null;
    };
  }, [initialUrl]);

  const togglePlay = () => {
    waveRef.current?.playPause().catch((e: unknown) => {
      setError(e instanceof Error ? e.message : String(e));
      setStatus("error");
    });
  };
  const changeVolume = (value: number) => {
    setVolume(value);
    waveRef.current?.setVolume(value);
  };
  const changeRate = (value: number) => {
    setRate(value);
    waveRef.current?.setPlaybackRate(value);
  };

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
  const changeZoom = (value: number) => {
    setZoom(value);
    waveRef.current?.zoom(value);
  };

  // The shortcuts read the latest state; the document-wide listener is added once.
  const onShortcut = useEffectEvent((event: KeyboardEvent) => {
    if (!event.ctrlKey || event.altKey || event.metaKey || event.shiftKey) return;
    const wave = waveRef.current;
    if (!wave || status !== "ready") return;
    if (event.code === "Space") togglePlay();
    else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      const step = event.key === "ArrowLeft" ? -SEEK_STEP_SECONDS : SEEK_STEP_SECONDS;
      const target = Math.min(wave.getDuration(), Math.max(0, wave.getCurrentTime() + step));
      seekTo(wave, target);
      setPosition(Math.floor(target));
      setTime(Math.round(target * 10) / 10);
    } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
      changeRate(nextSpeed(rate, event.key === "ArrowUp" ? 1 : -1));
    } else return;
    // Handled before the editor sees it (capture phase): no space typed, the caret stays put.
    event.preventDefault();
    event.stopPropagation();
  });
  useEffect(() => {
    if (!shortcuts) return;
    const onKeyDown = (event: KeyboardEvent) => onShortcut(event);
    document.addEventListener("keydown", onKeyDown, true);
    return () => document.removeEventListener("keydown", onKeyDown, true);
  }, [shortcuts]);

  return (
    <div
      className="audio-player"
      role="group"
      aria-label={label}
      data-state={playing ? "playing" : "paused"}
      data-status={status}
      data-volume={volume}
      data-rate={rate}
      data-time={time}
      data-loop={loopPart ? "on" : "off"}
      data-loop-start={loopPart ? twoDecimals(loopPart.start) : undefined}
      data-loop-end={loopPart ? twoDecimals(loopPart.end) : undefined}
      data-zoom={zoom}
    >
      <div className="audio-player-wave">
        <div ref={containerRef} />
        {status === "loading" && (
          <p className="audio-player-overlay" role="status">
            <span className="spinner" aria-hidden="true" /> Loading
          </p>
        )}
      </div>
      {status === "error" && (
        <p className="field-error" role="alert">
          Failed to load audio file: {error}
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
          {clock(position)} / {clock(duration)}
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
        {shortcuts && <ShortcutsHelp />}
      </div>
    </div>
  );
}

/**
 * The 'Shortcuts' button and the list it opens (a disclosure: Escape or the button closes it and
 * focus goes back to the button).
 */
function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  return (
    <div
      className="audio-player-shortcuts"
      onKeyDown={(e) => {
        if (e.key === "Escape" && open) close();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="btn"
        aria-expanded={open}
        aria-controls="audio-player-shortcuts-list"
        onClick={() => setOpen((o) => !o)}
      >
        Shortcuts
      </button>
      {open && (
        <div
          id="audio-player-shortcuts-list"
          className="audio-player-shortcuts-popover card"
          role="region"
          aria-label="Keyboard shortcuts"
        >
          <p className="muted">They work while you type in the transcript editor.</p>
          <dl>
            {PLAYER_SHORTCUTS.map((s) => (
              <div key={s.keys} className="audio-player-shortcut">
                <dt>
                  <kbd>{s.keys}</kbd>
                </dt>
                <dd>{s.action}</dd>
              </div>
            ))}
          </dl>
        </div>
      )}
    </div>
  );
}

/** A 24×24 icon of one path, drawn in the text colour and hidden from assistive technology. */
function Icon({ d, size = 18 }: { d: string; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      <path d={d} />
    </svg>
  );
}

function PlayIcon() {
  return <Icon d="M8 5v14l11-7z" />;
}

function PauseIcon() {
  return <Icon d="M6 5h4v14H6zM14 5h4v14h-4z" />;
}

function LoopIcon() {
  return <Icon d="M7 7h10v3l4-4-4-4v3H5v6h2V7zm10 10H7v-3l-4 4 4 4v-3h12v-6h-2v4z" size={16} />;
}

function ZoomIcon() {
  return (
    <Icon
      d="M15.5 14h-.79l-.28-.27A6.47 6.47 0 0 0 16 9.5 6.5 6.5 0 1 0 9.5 16c1.61 0 3.09-.59 4.23-1.57l.27.28v.79l5 4.99L20.49 19l-4.99-5zm-6 0C7.01 14 5 11.99 5 9.5S7.01 5 9.5 5 14 7.01 14 9.5 11.99 14 9.5 14zm.5-7H9v2H7v1h2v2h1v-2h2V9h-2z"
      size={16}
    />
  );
}

function VolumeIcon() {
  return <Icon d="M3 9v6h4l5 5V4L7 9H3zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4z" />;
}

/**
 * Moves `wave` to `seconds`. wavesurfer keeps a seek asked for while the media element cannot play yet
 * (readyState under HAVE_FUTURE_DATA, as it is while an earlier seek runs) and drops it when that
 * earlier seek's 'seeking' event arrives, so Ctrl+→ then Ctrl+← at once would stay at the end. Once
 * the metadata is known the media element takes the position itself.
 */
function seekTo(wave: WaveSurfer, seconds: number): void {
  wave.setTime(seconds);
  const media = wave.getMediaElement();
  if (media && media.readyState >= HTMLMediaElement.HAVE_METADATA) media.currentTime = seconds;
}
