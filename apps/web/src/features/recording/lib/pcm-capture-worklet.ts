/**
 * The AudioWorklet that captures a take (SPEC §2.13, decision 018). It runs on the audio thread:
 * its node gets the microphone already mixed to mono (channelCount 1, "speakers"), and each block
 * of 128 frames goes through a PcmChunker (resampled to the take's rate, 16-bit, peaks); every
 * chunk of about a second is posted to the page, its buffers transferred, not copied. Posting
 * `{ type: "finish" }` to its port flushes the last chunk, answers `{ type: "finished", samples }`
 * and ends the processor. Loaded from our own origin through Vite's `?worker&url` (CSP
 * `worker-src 'self'`) and registered as PCM_CAPTURE_PROCESSOR.
 */
import { PCM_CAPTURE_PROCESSOR, PcmChunker, type PcmChunk } from "./pcm-chunker";

// The AudioWorkletGlobalScope, which TypeScript's DOM library does not describe.
declare const sampleRate: number;
declare abstract class AudioWorkletProcessor {
  readonly port: MessagePort;
  constructor(options?: AudioWorkletNodeOptions);
}
declare function registerProcessor(
  name: string,
  processor: new (options: AudioWorkletNodeOptions) => AudioWorkletProcessor,
): void;

/** What the processor posts to the page. */
export type CaptureMessage = { type: "chunk"; chunk: PcmChunk } | { type: "finished"; samples: number };

/** Options the page passes as `processorOptions`. */
export interface CaptureOptions {
  /** The take's sample rate (Hz). */
  outputRate: number;
}

class PcmCaptureProcessor extends AudioWorkletProcessor {
  private readonly chunker: PcmChunker;
  private samples = 0;
  private finished = false;

  constructor(options: AudioWorkletNodeOptions) {
    super(options);
    const { outputRate } = options.processorOptions as CaptureOptions;
    this.chunker = new PcmChunker(sampleRate, outputRate, (chunk) => {
      this.samples += chunk.pcm.length;
      const message: CaptureMessage = { type: "chunk", chunk };
      this.port.postMessage(message, [chunk.pcm.buffer, chunk.min.buffer, chunk.max.buffer]);
    });
    this.port.onmessage = (event: MessageEvent<{ type: string }>) => {
      if (event.data.type !== "finish" || this.finished) return;
      this.finished = true;
      this.chunker.flush();
      const message: CaptureMessage = { type: "finished", samples: this.samples };
      this.port.postMessage(message);
    };
  }

  process(inputs: Float32Array[][]): boolean {
    if (this.finished) return false;
    // No channel when nothing is connected (e.g. the microphone's track has ended).
    const mono = inputs[0]?.[0];
    if (mono) this.chunker.write(mono);
    return true;
  }
}

registerProcessor(PCM_CAPTURE_PROCESSOR, PcmCaptureProcessor);
