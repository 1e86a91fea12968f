/**
 * Speech segments from Silero VAD's per-window speech probabilities (decision 024, "Who spoke,
 * when"): the state machine of getSpeechTimestamps, fed one probability at a time as the worker
 * posts them, so no more than the segments found is ever held.
 *
 * Ported from getSpeechTimestamps in @jjhbw/silero-vad 1.0.3 (lib.js), itself a port of
 * get_speech_timestamps of Silero VAD (https://github.com/snakers4/silero-vad), under this licence:
 *
 *   MIT License
 *
 *   Copyright (c) 2020-present Silero Team
 *
 *   Permission is hereby granted, free of charge, to any person obtaining a copy
 *   of this software and associated documentation files (the "Software"), to deal
 *   in the Software without restriction, including without limitation the rights
 *   to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
 *   copies of the Software, and to permit persons to whom the Software is
 *   furnished to do so, subject to the following conditions:
 *
 *   The above copyright notice and this permission notice shall be included in all
 *   copies or substantial portions of the Software.
 *
 *   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
 *   IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
 *   FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
 *   AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
 *   LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
 *   OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 *   SOFTWARE.
 *
 * Changes: fed probabilities one at a time (no ffmpeg), times in whole milliseconds, and a longer
 * minimum silence by default (300 ms rather than 100 ms), so a spoken sentence with short pauses
 * between its words stays one segment.
 */

/** The model's sample rate (Hz) and window (samples: 32 ms). */
const VAD_SAMPLE_RATE = 16_000;
const VAD_WINDOW_SAMPLES = 512;

/** How probabilities become segments. */
export interface SpeechOptions {
  /** A window at or above this probability starts (or continues) speech. */
  threshold: number;
  /** Speech ends once the probability stays below this for `minSilenceMs`. */
  negThreshold: number;
  /** Segments shorter than this (ms) are dropped. */
  minSpeechMs: number;
  /** Silence shorter than this (ms) does not end a segment. */
  minSilenceMs: number;
  /** Each segment is widened by this (ms) on both sides, not past its neighbours. */
  speechPadMs: number;
}

const DEFAULT_SPEECH_OPTIONS: SpeechOptions = {
  threshold: 0.5,
  negThreshold: 0.35,
  minSpeechMs: 250,
  minSilenceMs: 300,
  speechPadMs: 30,
};

/** A stretch of the recording where someone speaks, in whole ms from its start; endMs > startMs. */
export interface SpeechSegment {
  startMs: number;
  endMs: number;
}

/** Samples at 16 kHz in `ms` milliseconds. */
const samplesIn = (ms: number) => (VAD_SAMPLE_RATE * ms) / 1000;

/**
 * Turns the probability of each consecutive 512-sample window at 16 kHz into speech segments:
 * `push` each probability in order, then `finish` with the number of 16 kHz samples the
 * recording has. The options default to DEFAULT_SPEECH_OPTIONS.
 */
export class SpeechSegmenter {
  private readonly options: SpeechOptions;
  /** Start sample of the next window. */
  private nextSample = 0;
  private triggered = false;
  private start = 0;
  /** Where the current silence began, while it is shorter than the minimum. */
  private silenceFrom: number | null = null;
  /** Segments found, in samples. */
  private readonly speeches: { start: number; end: number }[] = [];

  constructor(options: Partial<SpeechOptions> = {}) {
    this.options = { ...DEFAULT_SPEECH_OPTIONS, ...options };
  }

  /** Takes the speech probability (0..1) of the next window. */
  push(probability: number): void {
    const { threshold, negThreshold, minSilenceMs, minSpeechMs } = this.options;
    const at = this.nextSample;
    this.nextSample += VAD_WINDOW_SAMPLES;
    if (probability >= threshold) this.silenceFrom = null;
    if (probability >= threshold && !this.triggered) {
      this.triggered = true;
      this.start = at;
      return;
    }
    if (probability < negThreshold && this.triggered) {
      this.silenceFrom ??= at;
      if (at - this.silenceFrom < samplesIn(minSilenceMs)) return;
      if (this.silenceFrom - this.start >= samplesIn(minSpeechMs)) {
        this.speeches.push({ start: this.start, end: this.silenceFrom });
      }
      this.triggered = false;
      this.silenceFrom = null;
    }
  }

  /**
   * The segments, ordered, in whole ms: speech still open at the end closes there; each segment
   * is padded and clamped to its neighbours and to [0, totalSamples].
   */
  finish(totalSamples: number): SpeechSegment[] {
    const { minSpeechMs, speechPadMs } = this.options;
    if (this.triggered && totalSamples - this.start >= samplesIn(minSpeechMs)) {
      this.speeches.push({ start: this.start, end: totalSamples });
    }
    this.triggered = false;
    const pad = samplesIn(speechPadMs);
    const padded = this.speeches.map((speech, i) => {
      const previousEnd = this.speeches[i - 1]?.end ?? 0;
      const nextStart = this.speeches[i + 1]?.start ?? totalSamples;
      return {
        start: Math.max(0, Math.floor(Math.max(speech.start - pad, previousEnd))),
        end: Math.min(totalSamples, Math.floor(Math.min(speech.end + pad, nextStart))),
      };
    });
    const toMs = (sample: number) => Math.round((sample * 1000) / VAD_SAMPLE_RATE);
    return padded
      .map(({ start, end }) => ({ startMs: toMs(start), endMs: toMs(end) }))
      .filter((segment) => segment.endMs > segment.startMs);
  }
}
