import { useEffect, useRef, useState } from "react";

/** A stretch of an audio file to play: from `startMs` to `endMs` (null: to the file's end). */
export interface PlayedSpan {
  url: string;
  startMs: number;
  endMs: number | null;
  /** What the status says while it plays ('the source of segment 3'). */
  label: string;
}

/** How often the end of a span is checked while it plays, ms (timeupdate fires only every ~250 ms). */
const END_CHECK_MS = 20;

/** Resolves at the first `event` of `audio`, rejects on its 'error' or when `signal` aborts. */
function nextEvent(audio: HTMLAudioElement, event: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      audio.removeEventListener(event, ok);
      audio.removeEventListener("error", failed);
      signal.removeEventListener("abort", aborted);
    };
    const ok = () => (done(), resolve());
    const failed = () => (done(), reject(new Error("The audio could not be played.")));
    const aborted = () => (done(), reject(new DOMException("Stopped", "AbortError")));
    audio.addEventListener(event, ok);
    audio.addEventListener("error", failed);
    signal.addEventListener("abort", aborted);
  });
}

/** Plays `span` on `audio` from its start to its end (or the file's), unless `signal` aborts first. */
async function playSpan(audio: HTMLAudioElement, span: PlayedSpan, signal: AbortSignal): Promise<void> {
  if (audio.dataset.url !== span.url) {
    audio.dataset.url = span.url;
    const loaded = nextEvent(audio, "loadedmetadata", signal);
    audio.src = span.url;
    audio.load();
    await loaded;
  }
  const seeked = nextEvent(audio, "seeked", signal);
  audio.currentTime = span.startMs / 1000;
  await seeked;
  const ended = nextEvent(audio, "ended", signal);
  await audio.play();
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (span.endMs !== null && audio.currentTime * 1000 >= span.endMs) finish();
    }, END_CHECK_MS);
    const finish = () => {
      clearInterval(timer);
      audio.pause();
      resolve();
    };
    ended.then(finish, (error: unknown) => {
      clearInterval(timer);
      audio.pause();
      reject(error instanceof Error ? error : new Error(String(error)));
    });
  });
}

/**
 * Decision 035, review by segment: plays stretches of audio files one after the other (a segment's
 * source span in the original audio, then its take) on one audio element, streamed with HTTP Range
 * as the browser does for any <audio>, never loaded whole. `play(spans, done)` stops what plays and
 * starts the list; `stop()` stops it. `status` says what plays, for a polite live region.
 */
export function useSpanPlayback() {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const runRef = useRef<AbortController | null>(null);
  const [status, setStatus] = useState("");
  const [playing, setPlaying] = useState(false);

  useEffect(
    () => () => {
      runRef.current?.abort();
      audioRef.current?.pause();
    },
    [],
  );

  const stop = () => {
    runRef.current?.abort();
    runRef.current = null;
    audioRef.current?.pause();
    setPlaying(false);
  };

  const play = async (spans: readonly PlayedSpan[], done: string) => {
    stop();
    const run = new AbortController();
    runRef.current = run;
    audioRef.current ??= new Audio();
    audioRef.current.preload = "metadata";
    setPlaying(true);
    try {
      for (const span of spans) {
        setStatus(`Playing ${span.label}…`);
        await playSpan(audioRef.current, span, run.signal);
      }
      setStatus(done);
    } catch (error) {
      // Stopped by stop() (nothing plays now) or by the next play (which says what it plays).
      if (run.signal.aborted) {
        if (runRef.current === null) setStatus("Stopped.");
      } else setStatus(error instanceof Error ? error.message : "The audio could not be played.");
    } finally {
      if (runRef.current === run) {
        runRef.current = null;
        setPlaying(false);
      }
    }
  };

  return { play, stop, status, playing };
}
