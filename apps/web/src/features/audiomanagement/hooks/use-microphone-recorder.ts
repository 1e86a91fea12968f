import { useEffect, useRef, useState } from "react";
import { audioLevel } from "../lib/audio-level";
import {
  MICROPHONE_LOST,
  MICROPHONE_LOST_KEPT,
  RECORDING_FAILED,
  RECORDING_UNSUPPORTED,
  TAKE_UNREADABLE,
  microphoneErrorMessage,
} from "../lib/microphone-messages";
import { takeToWav, type WavTake } from "../lib/take-to-wav";

/**
 * Where a take stands: nothing yet (`idle`), waiting for the microphone permission (`requesting`),
 * recording, turning the recording into WAV (`encoding`), or a take ready to hear and upload
 * (`recorded`).
 */
export type RecorderStatus = "idle" | "requesting" | "recording" | "encoding" | "recorded";

/** A take ready to upload, with an object URL of its WAV file for the player. */
export interface RecordedTake extends WavTake {
  url: string;
}

/** What useMicrophoneRecorder gives its view and the upload form. */
export interface MicrophoneRecorderState {
  status: RecorderStatus;
  /** The microphone's loudness while recording, 0..1 (audioLevel); 0 otherwise. */
  level: number;
  /** Milliseconds since the recording started (kept at its last value once stopped). */
  elapsedMs: number;
  /** The recorded take; null until one is ready. Nothing is uploaded by the recorder. */
  take: RecordedTake | null;
  /** What went wrong, for the recorder's alert region (lib/microphone-messages.ts); null when nothing did. */
  error: string | null;
  /** Asks for the microphone and starts a new take, forgetting any earlier take. */
  start(): void;
  /** Stops the take and releases the microphone; the take follows once encoded. */
  stop(): void;
  /** Forgets the take and anything under way, back to idle. */
  discard(): void;
}

/** How often the level and the elapsed time are refreshed while recording (ms). */
const TICK_MS = 100;
/** MediaRecorder hands over its data in slices of this length (ms). */
const SLICE_MS = 1000;
/** Recording formats tried in order (only the browser decoding them matters); the browser's default when none is supported. */
const RECORDING_TYPES = ["audio/webm;codecs=opus", "audio/ogg;codecs=opus", "audio/webm", "audio/mp4"];

/** One take while the microphone is open. */
interface Session {
  stream: MediaStream;
  context: AudioContext;
  recorder: MediaRecorder;
  chunks: Blob[];
  timer: number;
  /** Set when the take ended by itself (track ended, recorder error): the message to show. */
  problem: string | null;
  /** Set by Stop: the take ended as the user asked. */
  stopped: boolean;
}

/** The recorder's mutable state outside React's: the open session and the take's object URL. */
interface Live {
  /** Raised by every start, discard and the unmount: callbacks of an older take then do nothing. */
  generation: number;
  session: Session | null;
  takeUrl: string | null;
}

/**
 * Releases the microphone of `session` (recorder stopped, tracks stopped, meter timer cleared,
 * AudioContext closed); safe to repeat.
 */
function release(session: Session | null): void {
  if (!session) return;
  window.clearInterval(session.timer);
  if (session.recorder.state !== "inactive") session.recorder.stop();
  for (const track of session.stream.getTracks()) track.stop();
  if (session.context.state !== "closed") void session.context.close().catch(() => undefined);
}

/** Forgets the open session and the take's object URL of `live` and makes older callbacks stale. */
function forget(live: Live): void {
  live.generation += 1;
  release(live.session);
  live.session = null;
  if (live.takeUrl) URL.revokeObjectURL(live.takeUrl);
  live.takeUrl = null;
}

/**
 * Records a take from the microphone in the browser (issue 12 Build 3, SPEC §2.13 Translated
 * Audio): MediaRecorder records the stream, an AnalyserNode on it drives the level meter, and on
 * Stop the recording is turned into a mono WAV file named `fileName` (takeToWav), which the server
 * accepts. Nothing is uploaded here: the form uploads `take.file` when the user submits.
 * A refused permission, a missing or busy microphone, an unsupported browser or the microphone
 * ending mid-take (permission withdrawn, device unplugged) sets `error` to a message saying what
 * to do. The microphone is released on Stop, on discard and when the component unmounts.
 */
export function useMicrophoneRecorder(fileName: string): MicrophoneRecorderState {
  const [status, setStatus] = useState<RecorderStatus>("idle");
  const [level, setLevel] = useState(0);
  const [elapsedMs, setElapsedMs] = useState(0);
  const [take, setTake] = useState<RecordedTake | null>(null);
  const [error, setError] = useState<string | null>(null);
  const liveRef = useRef<Live>({ generation: 0, session: null, takeUrl: null });

  useEffect(() => {
    const live = liveRef.current;
    return () => forget(live);
  }, []);

  const clear = () => {
    forget(liveRef.current);
    setTake(null);
    setLevel(0);
    setElapsedMs(0);
    setError(null);
  };

  /** The recorder stopped (Stop, or by itself): encodes the take unless a newer one began. */
  const finish = async (session: Session, generation: number) => {
    release(session);
    const live = liveRef.current;
    if (live.generation !== generation) return;
    live.session = null;
    setLevel(0);
    try {
      const wav = await takeToWav(new Blob(session.chunks, { type: session.recorder.mimeType }), fileName);
      if (live.generation !== generation) return;
      live.takeUrl = URL.createObjectURL(wav.file);
      setTake({ ...wav, url: live.takeUrl });
      setStatus("recorded");
      setError(session.problem === MICROPHONE_LOST ? MICROPHONE_LOST_KEPT : session.problem);
    } catch (cause) {
      if (live.generation !== generation) return;
      console.error("The recorded take could not be turned into WAV", cause);
      setStatus("idle");
      setError(session.problem ?? TAKE_UNREADABLE);
    }
  };

  /** Opens the recording session on a granted stream; throws when MediaRecorder refuses it. */
  const open = (stream: MediaStream, generation: number): Session => {
    const context = new AudioContext();
    try {
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      context.createMediaStreamSource(stream).connect(analyser);
      void context.resume().catch(() => undefined);
      const mimeType = RECORDING_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
      const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
      const session: Session = { stream, context, recorder, chunks: [], timer: 0, problem: null, stopped: false };
      // The browser may have stopped the recorder itself already; the message is still due.
      const endedBy = (problem: string) => {
        if (liveRef.current.generation !== generation || session.stopped) return;
        session.problem ??= problem;
        if (recorder.state !== "inactive") {
          setStatus("encoding");
          recorder.stop();
        }
        release(session);
      };
      recorder.addEventListener("dataavailable", (event) => {
        if (event.data.size > 0) session.chunks.push(event.data);
      });
      recorder.addEventListener("stop", () => void finish(session, generation));
      recorder.addEventListener("error", () => {
        session.problem ??= RECORDING_FAILED;
      });
      for (const track of stream.getAudioTracks()) {
        track.addEventListener("ended", () => endedBy(MICROPHONE_LOST));
      }
      const samples = new Float32Array(analyser.fftSize);
      const startedAt = performance.now();
      session.timer = window.setInterval(() => {
        analyser.getFloatTimeDomainData(samples);
        setLevel(audioLevel(samples));
        setElapsedMs(performance.now() - startedAt);
      }, TICK_MS);
      recorder.start(SLICE_MS);
      return session;
    } catch (error) {
      void context.close().catch(() => undefined);
      throw error;
    }
  };

  const start = async () => {
    clear();
    const live = liveRef.current;
    const generation = live.generation;
    if (typeof navigator.mediaDevices?.getUserMedia !== "function" || typeof MediaRecorder === "undefined") {
      setStatus("idle");
      setError(RECORDING_UNSUPPORTED);
      return;
    }
    setStatus("requesting");
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (cause) {
      if (live.generation !== generation) return;
      console.warn("The microphone could not be opened", cause);
      setStatus("idle");
      setError(microphoneErrorMessage(cause));
      return;
    }
    if (live.generation !== generation) {
      for (const track of stream.getTracks()) track.stop();
      return;
    }
    try {
      live.session = open(stream, generation);
      setStatus("recording");
    } catch (cause) {
      console.error("The recording could not be started", cause);
      for (const track of stream.getTracks()) track.stop();
      setStatus("idle");
      setError(microphoneErrorMessage(cause));
    }
  };

  const stop = () => {
    const session = liveRef.current.session;
    if (!session || session.recorder.state === "inactive") return;
    session.stopped = true;
    setStatus("encoding");
    session.recorder.stop();
    release(session);
  };

  const discard = () => {
    clear();
    setStatus("idle");
  };

  return { status, level, elapsedMs, take, error, start: () => void start(), stop, discard };
}
