import { useEffect, useRef, useState } from "react";
import { audioLevel } from "#web/features/recording/lib/audio-level";
import {
  MICROPHONE_LOST,
  MICROPHONE_LOST_KEPT,
  RECORDING_FAILED,
  RECORDING_UNSUPPORTED,
  TAKE_UNREADABLE,
  microphoneErrorMessage,
} from "#web/features/recording/lib/microphone-messages";
import type { CaptureMessage, CaptureOptions } from "#web/features/recording/lib/pcm-capture-worklet";
import captureWorkletUrl from "#web/features/recording/lib/pcm-capture-worklet.ts?worker&url";
import { PCM_CAPTURE_PROCESSOR } from "#web/features/recording/lib/pcm-chunker";
import { TAKE_SAMPLE_RATE, TakeWriter, type WavTake } from "#web/features/recording/lib/take-writer";

/**
 * Where a take stands: nothing yet (`idle`), waiting for the microphone permission (`requesting`),
 * recording, finishing the take's file (`encoding`), or a take ready to hear and upload
 * (`recorded`).
 */
type RecorderStatus = "idle" | "requesting" | "recording" | "encoding" | "recorded";

/** A take ready to upload, with an object URL of its WAV file for the player. */
interface RecordedTake extends WavTake {
  url: string;
}

/** What useMicrophoneRecorder gives its view and the upload form. */
export interface MicrophoneRecorderState {
  status: RecorderStatus;
  /** The microphone's loudness while recording, 0..1 (audioLevel); 0 otherwise. */
  level: number;
  /**
   * Milliseconds since the capture started, by the page's clock; once stopped, the time from the
   * capture's start to Stop (or to the microphone ending).
   */
  elapsedMs: number;
  /** The recorded take; null until one is ready. Nothing is uploaded by the recorder. */
  take: RecordedTake | null;
  /** What went wrong, for the recorder's alert region (lib/microphone-messages.ts); null when nothing did. */
  error: string | null;
  /** Asks for the microphone and starts a new take, forgetting any earlier take. */
  start(): void;
  /** Stops the take and releases the microphone; the take follows once its file is written. */
  stop(): void;
  /** Forgets the take and anything under way, back to idle. */
  discard(): void;
}

/** How often the level and the elapsed time are refreshed while recording (ms). */
const TICK_MS = 100;
/** How long Stop waits for the worklet's last chunk before making the take of what it has (ms). */
const FINISH_TIMEOUT_MS = 3000;
/**
 * The AudioContext's latency hint (s): render buffers of about 0.1 s (4480 frames at 44.1 kHz)
 * rather than "playback"'s 1024 frames. The worklet gets only the microphone samples the context
 * renders, and a render late by more than a buffer (a machine short of CPU; the timer-driven
 * output of headless Chromium) makes Chromium drop input: larger buffers make that rarer (decision
 * 018). Nothing is played, so the latency costs nothing.
 */
const CAPTURE_LATENCY_SECONDS = 0.1;

/** One take while the microphone is open. */
interface Session {
  stream: MediaStream;
  context: AudioContext;
  node: AudioWorkletNode;
  writer: TakeWriter;
  timer: number;
  /** performance.now() when the capture started (ms). */
  startedAt: number;
  /** Set when the take ended by itself (track ended, processor error): the message to show. */
  problem: string | null;
  /** Set once the take is ending (Stop, or by itself). */
  ending: boolean;
  /** Called when the worklet has posted its last chunk. */
  onFinished: (() => void) | null;
}

/** The recorder's mutable state outside React's: the open session and the take's object URL. */
interface Live {
  /** Raised by every start, discard and the unmount: callbacks of an older take then do nothing. */
  generation: number;
  session: Session | null;
  takeUrl: string | null;
}

/** Releases the microphone of `session` (tracks stopped, meter timer cleared); safe to repeat. */
function releaseMicrophone(session: Session): void {
  window.clearInterval(session.timer);
  for (const track of session.stream.getTracks()) track.stop();
}

/** Releases everything `session` holds (microphone, AudioContext and its worklet); safe to repeat. */
function release(session: Session | null): void {
  if (!session) return;
  releaseMicrophone(session);
  session.node.port.onmessage = null;
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

/** Whether this browser has what recording needs (getUserMedia and AudioWorklet, i.e. a secure context). */
function canRecord(): boolean {
  return (
    typeof navigator.mediaDevices?.getUserMedia === "function" &&
    typeof AudioWorkletNode !== "undefined" &&
    typeof AudioContext !== "undefined"
  );
}

/**
 * Records a take from the microphone in the browser (SPEC §2.13 Translated Audio, decision 018):
 * an AudioWorklet (lib/pcm-capture-worklet.ts) captures the microphone's PCM as it comes, mixed to
 * mono and resampled to TAKE_SAMPLE_RATE, and the page writes it second by second into Blob parts
 * with the take's peaks (TakeWriter); an AnalyserNode drives the level meter. On Stop the take is a
 * mono 16-bit WAV file named `fileName`, made from a header and those parts without decoding
 * anything, so memory stays bounded however long the take. Nothing is uploaded here: the form
 * uploads `take.file` when the user submits. A refused permission, a missing or busy microphone,
 * an unsupported browser or the microphone ending mid-take (permission withdrawn, device
 * unplugged) sets `error` to a message saying what to do; the part recorded before the microphone
 * ended is kept. The microphone is released on Stop, on discard and when the component unmounts.
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

  /**
   * Ends the take of `session` (Stop when `problem` is null, or by itself): releases the
   * microphone, waits for the worklet's last chunk and makes the take, unless a newer take began.
   */
  const end = async (session: Session, generation: number, problem: string | null) => {
    if (session.ending || liveRef.current.generation !== generation) return;
    session.ending = true;
    session.problem ??= problem;
    setElapsedMs(performance.now() - session.startedAt);
    releaseMicrophone(session);
    setStatus("encoding");
    setLevel(0);
    await new Promise<void>((resolve) => {
      const timeout = window.setTimeout(resolve, FINISH_TIMEOUT_MS);
      session.onFinished = () => {
        window.clearTimeout(timeout);
        resolve();
      };
      session.node.port.postMessage({ type: "finish" });
    });
    release(session);
    const live = liveRef.current;
    if (live.generation !== generation) return;
    live.session = null;
    try {
      const wav = session.writer.finish(fileName);
      live.takeUrl = URL.createObjectURL(wav.file);
      setTake({ ...wav, url: live.takeUrl });
      setStatus("recorded");
      setError(session.problem === MICROPHONE_LOST ? MICROPHONE_LOST_KEPT : session.problem);
    } catch (cause) {
      console.error("The recorded take could not be made", cause);
      setStatus("idle");
      setError(session.problem ?? TAKE_UNREADABLE);
    }
  };

  /**
   * Opens the capture on a granted stream: an AudioContext at the device's rate, the capture
   * worklet and the level meter. Resolves to null when a newer take began meanwhile; rejects when
   * the browser refuses the worklet.
   */
  const open = async (stream: MediaStream, generation: number): Promise<Session | null> => {
    const context = new AudioContext({ latencyHint: CAPTURE_LATENCY_SECONDS });
    try {
      await context.audioWorklet.addModule(captureWorkletUrl);
      if (liveRef.current.generation !== generation) {
        void context.close().catch(() => undefined);
        return null;
      }
      const source = context.createMediaStreamSource(stream);
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      const processorOptions: CaptureOptions = { outputRate: TAKE_SAMPLE_RATE };
      const node = new AudioWorkletNode(context, PCM_CAPTURE_PROCESSOR, {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        channelCount: 1,
        channelCountMode: "explicit",
        channelInterpretation: "speakers",
        processorOptions,
      });
      const session: Session = {
        stream,
        context,
        node,
        writer: new TakeWriter(TAKE_SAMPLE_RATE),
        timer: 0,
        startedAt: performance.now(),
        problem: null,
        ending: false,
        onFinished: null,
      };
      node.port.onmessage = (event: MessageEvent<CaptureMessage>) => {
        if (event.data.type === "chunk") session.writer.append(event.data.chunk);
        else session.onFinished?.();
      };
      node.addEventListener("processorerror", () => void end(session, generation, RECORDING_FAILED));
      for (const track of stream.getAudioTracks()) {
        track.addEventListener("ended", () => void end(session, generation, MICROPHONE_LOST));
      }
      source.connect(analyser);
      source.connect(node);
      void context.resume().catch(() => undefined);
      const samples = new Float32Array(analyser.fftSize);
      session.startedAt = performance.now();
      session.timer = window.setInterval(() => {
        analyser.getFloatTimeDomainData(samples);
        setLevel(audioLevel(samples));
        setElapsedMs(performance.now() - session.startedAt);
      }, TICK_MS);
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
    if (!canRecord()) {
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
    const stopStream = () => {
      for (const track of stream.getTracks()) track.stop();
    };
    if (live.generation !== generation) {
      stopStream();
      return;
    }
    try {
      const session = await open(stream, generation);
      if (!session) {
        stopStream();
        return;
      }
      live.session = session;
      setStatus("recording");
      // The microphone may have ended while the worklet loaded.
      if (stream.getAudioTracks().every((track) => track.readyState === "ended")) {
        void end(session, generation, MICROPHONE_LOST);
      }
    } catch (cause) {
      stopStream();
      if (live.generation !== generation) return;
      console.error("The recording could not be started", cause);
      setStatus("idle");
      setError(microphoneErrorMessage(cause));
    }
  };

  const stop = () => {
    const live = liveRef.current;
    const session = live.session;
    if (!session || session.ending) return;
    void end(session, live.generation, null);
  };

  const discard = () => {
    clear();
    setStatus("idle");
  };

  return { status, level, elapsedMs, take, error, start: () => void start(), stop, discard };
}
