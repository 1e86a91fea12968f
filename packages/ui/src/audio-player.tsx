import { useEffect, useEffectEvent, useImperativeHandle, useRef, useState, type Ref } from "react";
import WaveSurfer from "wavesurfer.js";
import RegionsPlugin, { type Region } from "wavesurfer.js/plugins/regions";
import { formatDuration } from "./duration";
import { fetchPeaks } from "./waveform-peaks";

/** SPEC §9 audio player constants. */
const DEFAULT_VOLUME = 0.5;
const VOLUME_RANGE = { min: 0.01, max: 1, step: 0.025 } as const;
const PLAYBACK_SPEEDS = [
  // Slower than SPEC §9's speeds, for transcribing.
  { label: "Slowest", rate: 0.25 },
  { label: "Very Slow", rate: 0.5 },
  { label: "Slow", rate: 0.75 },
  { label: "Normal", rate: 1 },
  { label: "Quick", rate: 1.5 },
  { label: "Very Quick", rate: 2 },
] as const;

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
 * `ready` with its peaks URL and duration, `failed`, or else `pending`.
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

/** One line of the 'Shortcuts' popover: the keys as shown ('Ctrl+Space') and what they do. */
export interface PlayerShortcut {
  keys: string;
  action: string;
}

/**
 * What a page may ask of a player (decision 024, "Who spoke, when": the transcript editor marks
 * paragraph starts at the player's position and plays from them).
 */
export interface AudioPlayerHandle {
  /** The position in seconds, or null while the audio cannot play yet (or failed to load). */
  currentTime(): number | null;
  /**
   * Seeks to `start` seconds and plays, pausing at `end` seconds when given. Asked before the audio
   * can play (e.g. right after the player appeared), it does so once it can.
   */
  playFrom(start: number, end?: number): void;
}

/** Seconds Ctrl+← and Ctrl+→ move back and forward. */
const SEEK_STEP_SECONDS = 3;
/** Seconds 'Loop' repeats from the current position when no part of the waveform is selected. */
const DEFAULT_LOOP_SECONDS = 5;
/** The zoom slider: pixels per second of audio, 0 meaning the whole audio fits the width. */
const ZOOM_RANGE = { min: 0, max: 200, step: 10 } as const;
const LOOP_COLOR = "rgba(36, 87, 214, 0.18)";

/** `seconds` to 2 decimals, for the data attributes tests read. */
const twoDecimals = (seconds: number) => Math.round(seconds * 100) / 100;

/** Where a player's keys work, said above the list of its 'Shortcuts' popover by default. */
const EDITOR_SHORTCUTS_NOTE = "They work while you type in the transcript editor.";

/** The keyboard shortcuts of a player with `shortcuts` (shown in its 'Shortcuts' popover). */
const PLAYER_SHORTCUTS: readonly PlayerShortcut[] = [
  { keys: "Ctrl+Space", action: "Play or pause" },
  { keys: "Ctrl+←", action: `Back ${SEEK_STEP_SECONDS} seconds` },
  { keys: "Ctrl+→", action: `Forward ${SEEK_STEP_SECONDS} seconds` },
  { keys: "Ctrl+↑", action: "Faster" },
  { keys: "Ctrl+↓", action: "Slower" },
];

/** The speed one step faster (+1) or slower (-1) than `rate` among PLAYBACK_SPEEDS, kept at the ends. */
function nextSpeed(rate: number, direction: 1 | -1): number {
  const index = PLAYBACK_SPEEDS.findIndex((s) => s.rate === rate);
  const from = index < 0 ? PLAYBACK_SPEEDS.findIndex((s) => s.rate === 1) : index;
  const next = Math.min(PLAYBACK_SPEEDS.length - 1, Math.max(0, from + direction));
  return PLAYBACK_SPEEDS[next]!.rate;
}

type LoadState = "loading" | "ready" | "error";
/**
 * What the waveform area shows (the root's data-waveform): peaks being fetched, stored or in-memory
 * peaks drawn, none yet (the server is preparing them), or none to be had (`failed`, or the stored
 * peaks could not be read). Without peaks a flat line stands in, so seeking and loops still work.
 */
type WaveformView = "loading" | "peaks" | "pending" | "unavailable";

/** What the waveform area says while the server is still preparing the peaks (the audio plays). */
const WAVEFORM_PENDING_TEXT = "Waveform is being prepared";
/** What the waveform area says when there are no peaks to draw: the server could not decode the file. */
const WAVEFORM_UNAVAILABLE_TEXT = "Waveform not available";

/** The line drawn without peaks: this many points at this level (a fraction of the height). */
const FLAT_POINTS = 1000;
const FLAT_LEVEL = 0.02;

/**
 * The waveform area's messages sit at its top, over the cursor and the selected part, on the area's
 * background, and let clicks through to the waveform (seeking).
 */
const NOTE_STYLE = { pointerEvents: "none", alignItems: "flex-start", paddingTop: "0.75rem", zIndex: 10 } as const;
const NOTE_TEXT_STYLE = { background: "#f8fafc", padding: "0 0.5rem", borderRadius: "4px" } as const;

/** `url` without its query (expiry and signature of a signed URL). */
function withoutQuery(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * The identity of what `waveform` draws: a new one draws again, the same one re-signed does not
 * (a peaks URL counts without its query; in-memory peaks by their array).
 */
function waveformIdentity(waveform: PlayerWaveform): unknown {
  if (waveform.status !== "ready") return waveform.status;
  return "peaksUrl" in waveform ? `url:${withoutQuery(waveform.peaksUrl)}` : waveform.peaks.max;
}

/**
 * The two channels wavesurfer draws from peaks (max: the top half, min: the bottom half), scaled so
 * the loudest peak fills the height: speech recorded at a modest level still shows its shape.
 */
function normalized(peaks: { min: Float32Array; max: Float32Array }): Float32Array[] {
  let loudest = 0;
  for (const channel of [peaks.min, peaks.max]) {
    for (const v of channel) loudest = Math.max(loudest, Math.abs(v));
  }
  if (loudest === 0 || loudest >= 1) return [peaks.max, peaks.min];
  return [peaks.max.map((v) => v / loudest), peaks.min.map((v) => v / loudest)];
}

const isAbort = (e: unknown) => e instanceof Error && e.name === "AbortError";

/**
 * A waveform audio player (wavesurfer.js 8) with play/pause, volume and playback speed
 * (SPEC §2.11, §9: height 150, bar width 3, radius 3; volume 0.5 in 0.01..1 step 0.025).
 * ARCHITECTURE "Long recordings and the corpus": it plays `url` through an `<audio
 * preload="metadata">` element, which streams it over HTTP Range (Play works once the metadata is
 * in; a seek fetches only that part), and draws the stored peaks of `waveform` (fetched, a `.dat`)
 * or the ones given, never decoding the audio. Without peaks it draws a flat line and says
 * WAVEFORM_PENDING_TEXT or WAVEFORM_UNAVAILABLE_TEXT; the audio plays all the same.
 * Shows 'Loading' until the audio can play and 'Failed to load audio file: {message}' on error.
 * With `shortcuts`, it also answers PLAYER_SHORTCUTS on the whole page and shows them in a
 * 'Shortcuts' popover. Dragging across the waveform selects a part that 'Loop'
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
  const waveRef = useRef<WaveSurfer | null>(null);
  const [mediaReady, setMediaReady] = useState(false);
  const [waveLoaded, setWaveLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [volume, setVolume] = useState<number>(DEFAULT_VOLUME);
  const [rate, setRate] = useState<number>(1);
  const [position, setPosition] = useState(0);
  // The known duration shows at once; the media element's own replaces it once it has read the file's header.
  const [duration, setDuration] = useState(waveform.status === "ready" ? waveform.durationSeconds : 0);
  const [time, setTime] = useState(0);
  const regionsRef = useRef<ReturnType<typeof RegionsPlugin.create> | null>(null);
  const [loopPart, setLoopPart] = useState<{ start: number; end: number } | null>(null);
  const loopingRef = useRef(false);
  const [zoom, setZoom] = useState<number>(ZOOM_RANGE.min);
  const identity = waveformIdentity(waveform);
  // Whether the stored peaks of `identity` could be fetched and read.
  const [fetched, setFetched] = useState<{ identity: unknown; ok: boolean } | null>(null);

  const status: LoadState = error !== null ? "error" : mediaReady && waveLoaded ? "ready" : "loading";
  let view: WaveformView;
  if (waveform.status === "pending") view = "pending";
  else if (waveform.status === "failed") view = "unavailable";
  else if (!("peaksUrl" in waveform)) view = "peaks";
  else if (!fetched || fetched.identity !== identity) view = "loading";
  else view = fetched.ok ? "peaks" : "unavailable";

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    // Streams the file: with preload="metadata" the browser reads the header until Play, then
    // what it plays (HTTP Range), and a seek asks only for the part it needs.
    const media = document.createElement("audio");
    media.preload = "metadata";
    const wave = WaveSurfer.create({
      container,
      media,
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
    // Dragging across the waveform selects the part to loop (one at a time).
    const regions = wave.registerPlugin(RegionsPlugin.create());
    regionsRef.current = regions;
    const disableDragSelection = regions.enableDragSelection({ color: LOOP_COLOR });
    const showPart = (region: Region) => setLoopPart({ start: region.start, end: region.end });
    const onMetadata = () => {
      if (Number.isFinite(media.duration) && media.duration > 0) setDuration(media.duration);
      setMediaReady(true);
    };
    media.addEventListener("loadedmetadata", onMetadata);
    media.addEventListener("durationchange", onMetadata);
    const unsubscribe = [
      () => media.removeEventListener("loadedmetadata", onMetadata),
      () => media.removeEventListener("durationchange", onMetadata),
      wave.on("ready", (seconds) => {
        if (Number.isFinite(seconds) && seconds > 0) setDuration(seconds);
        setWaveLoaded(true);
      }),
      wave.on("play", () => setPlaying(true)),
      wave.on("pause", () => setPlaying(false)),
      wave.on("finish", () => setPlaying(false)),
      wave.on("timeupdate", (seconds) => {
        setPosition(Math.floor(seconds));
        setTime(Math.round(seconds * 10) / 10);
      }),
      // A click on the waveform: wavesurfer holds the seek until the element can play; move it now.
      wave.on("interaction", (seconds) => moveMedia(wave, seconds)),
      wave.on("error", (e) => {
        setError(e.message || String(e));
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
      // wavesurfer leaves a media element it was given alone: stop it and its download.
      media.pause();
      media.removeAttribute("src");
      media.load();
    };
  }, [initialUrl]);

  // Gives wavesurfer the URL with peaks and a duration, so it never fetches or decodes the file
  // itself: at once a flat line (or the peaks in memory), then the stored peaks once fetched.
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

  const togglePlay = () => {
    waveRef.current?.playPause().catch((e: unknown) => {
      if (isAbort(e)) return;
      setError(e instanceof Error ? e.message : String(e));
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
  // playFrom asked before the audio could play: done once it can.
  const pendingPlay = useRef<{ start: number; end?: number } | null>(null);
  const playFrom = (start: number, end?: number) => {
    const wave = waveRef.current;
    const media = wave?.getMediaElement();
    if (!wave || !media || media.readyState < HTMLMediaElement.HAVE_METADATA) {
      pendingPlay.current = { start, end };
      return;
    }
    const target = Math.min(wave.getDuration() || start, Math.max(0, start));
    seekTo(wave, target);
    setPosition(Math.floor(target));
    setTime(Math.round(target * 10) / 10);
    wave.play(undefined, end).catch((e: unknown) => {
      if (isAbort(e)) return;
      setError(e instanceof Error ? e.message : String(e));
    });
  };
  const playPending = useEffectEvent(() => {
    const pending = pendingPlay.current;
    pendingPlay.current = null;
    if (pending) playFrom(pending.start, pending.end);
  });
  useEffect(() => {
    if (mediaReady) playPending();
  }, [mediaReady]);
  useImperativeHandle(
    handleRef,
    () => ({
      currentTime: () => {
        const media = waveRef.current?.getMediaElement();
        if (!waveRef.current || !media || media.readyState < HTMLMediaElement.HAVE_METADATA || media.error) return null;
        return waveRef.current.getCurrentTime();
      },
      playFrom: (start, end) => playFrom(start, end),
    }),
    // playFrom reads only refs and state setters: one handle for the player's life.
    [],
  );
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
      data-waveform={view}
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
          <p className="audio-player-overlay" role="status" style={{ pointerEvents: "none" }}>
            <span className="spinner" aria-hidden="true" /> Loading
          </p>
        )}
        {(view === "pending" || view === "unavailable") && (
          <p className="audio-player-overlay audio-player-wave-note" role="status" style={NOTE_STYLE}>
            <span style={NOTE_TEXT_STYLE}>
              {view === "pending" ? WAVEFORM_PENDING_TEXT : WAVEFORM_UNAVAILABLE_TEXT}
            </span>
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
          {/* The position counts whole seconds gone by; the length reads as on every other screen. */}
          {formatDuration(Math.floor(position))} / {formatDuration(duration)}
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

/**
 * The 'Shortcuts' button and the list it opens, `note` then PLAYER_SHORTCUTS and `more` (a
 * disclosure: Escape or the button closes it and focus goes back to the button).
 */
function ShortcutsHelp({ more, note }: { more: readonly PlayerShortcut[]; note: string }) {
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
          <p className="muted">{note}</p>
          <dl>
            {[...PLAYER_SHORTCUTS, ...more].map((s) => (
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

/**
 * After wavesurfer's own seek (a click on the waveform): while the media element has its metadata
 * but cannot play yet (preload="metadata" stops there until Play), wavesurfer only remembers the
 * position for later, and Play would first fetch and play the start. Moving the element now makes
 * it fetch only the part it will play.
 */
function moveMedia(wave: WaveSurfer, seconds: number): void {
  const media = wave.getMediaElement();
  if (!media || media.readyState < HTMLMediaElement.HAVE_METADATA) return;
  if (media.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) media.currentTime = seconds;
}
