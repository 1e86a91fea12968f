import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import WaveSurfer from "wavesurfer.js";
import { DEFAULT_VOLUME } from "./controls";

/** Whether the player can play: its audio and waveform are loading, both are ready, or one failed. */
type LoadState = "loading" | "ready" | "error";

/** What useWaveSurfer gives the player: the wavesurfer, what it reports, and how to move it. */
export interface WaveSurferPlayer {
  /** The wavesurfer while the player is mounted (null before its effect ran and after cleanup). */
  waveRef: RefObject<WaveSurfer | null>;
  /** 'ready' once the media element has its metadata and wavesurfer has drawn; 'error' on a failure. */
  status: LoadState;
  /** Whether the media element has read the file's header (its duration; seeks are possible). */
  mediaReady: boolean;
  /** The failure's message while `status` is 'error'. */
  error: string | null;
  playing: boolean;
  /** Seconds: the known duration at first, then the media element's own once it has read the header. */
  duration: number;
  /** The position in whole seconds gone by (the clock's). */
  position: number;
  /** The position in seconds to 0.1 (the root's data-time). */
  time: number;
  /** Plays or pauses; a failure to play shows as the error. This and the functions below stay the same. */
  togglePlay(): void;
  /** Moves to `seconds` (within the audio: the caller keeps it there). */
  seek(seconds: number): void;
  /** Moves by `seconds` (negative: back), kept within the audio. */
  seekBy(seconds: number): void;
  /** Plays from the position, pausing at `end` seconds when given; a failure to play shows as the error. */
  playUntil(end?: number): void;
}

/** Whether `e` is the rejection of an aborted fetch or of a play() that a pause() cut short. */
export const isAbort = (e: unknown) => e instanceof Error && e.name === "AbortError";

/**
 * The wavesurfer.js 8 of a player (SPEC §2.11, §9: height 150, bar width 3, radius 3, volume 0.5),
 * created once in `containerRef` for `initialUrl` and destroyed with the player. Decision 023: it
 * plays through an `<audio preload="metadata">` element, which streams the file over HTTP Range
 * (Play works once the metadata is in; a seek fetches only that part); useWaveformPeaks gives it
 * the peaks and loads the audio. `knownDuration` (seconds, 0 when not known) shows until the media
 * element has read the file's header.
 */
export function useWaveSurfer(
  containerRef: RefObject<HTMLDivElement | null>,
  initialUrl: string,
  knownDuration: number,
): WaveSurferPlayer {
  const waveRef = useRef<WaveSurfer | null>(null);
  const [mediaReady, setMediaReady] = useState(false);
  const [waveLoaded, setWaveLoaded] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  // The known duration shows at once; the media element's own replaces it once it has read the file's header.
  const [duration, setDuration] = useState(knownDuration);
  const [time, setTime] = useState(0);

  // The functions below read only refs and state setters: the same ones for the player's life.
  const showPosition = useCallback((seconds: number) => {
    setPosition(Math.floor(seconds));
    setTime(Math.round(seconds * 10) / 10);
  }, []);
  const failed = useCallback((e: unknown) => {
    if (isAbort(e)) return;
    setError(e instanceof Error ? e.message : String(e));
  }, []);

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
      wave.on("timeupdate", showPosition),
      // A click on the waveform: wavesurfer holds the seek until the element can play; move it now.
      wave.on("interaction", (seconds) => moveMedia(wave, seconds)),
      wave.on("error", (e) => {
        setError(e.message || String(e));
        setPlaying(false);
      }),
    ];
    return () => {
      unsubscribe.forEach((off) => off());
      wave.destroy();
      waveRef.current = null;
      // wavesurfer leaves a media element it was given alone: stop it and its download.
      media.pause();
      media.removeAttribute("src");
      media.load();
    };
  }, [containerRef, initialUrl, showPosition]);

  const togglePlay = useCallback(() => {
    waveRef.current?.playPause().catch(failed);
  }, [failed]);
  const seek = useCallback(
    (seconds: number) => {
      const wave = waveRef.current;
      if (!wave) return;
      seekTo(wave, seconds);
      showPosition(seconds);
    },
    [showPosition],
  );
  const seekBy = useCallback(
    (seconds: number) => {
      const wave = waveRef.current;
      if (wave) seek(Math.min(wave.getDuration(), Math.max(0, wave.getCurrentTime() + seconds)));
    },
    [seek],
  );
  const playUntil = useCallback(
    (end?: number) => {
      waveRef.current?.play(undefined, end).catch(failed);
    },
    [failed],
  );
  return {
    waveRef,
    status: error !== null ? "error" : mediaReady && waveLoaded ? "ready" : "loading",
    mediaReady,
    error,
    playing,
    duration,
    position,
    time,
    togglePlay,
    seek,
    seekBy,
    playUntil,
  };
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
