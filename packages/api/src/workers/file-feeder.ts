import type { Worker } from "node:worker_threads";

/**
 * Feeding a stored file to a decoding worker thread (decision 023; decision 024 for the speech
 * finder): the file is read from the start to choose the decoder, then sent in pieces of at most
 * CHUNK_BYTES with at most MAX_CHUNKS_IN_FLIGHT not yet taken by the worker's decoder, so memory
 * stays bounded however long the file. The worker side is worker-input.mjs.
 */

/** Pieces sent to the worker and not yet taken by its decoder, at most. */
const MAX_CHUNKS_IN_FLIGHT = 4;

/**
 * The most bytes sent to the worker at once: a longer read is sent in pieces. What a decoder
 * returns for one piece is held at once (16 KB of 128 kbit/s MP3 is about a second of audio,
 * 700 KB of samples), so smaller pieces keep the worker's memory down.
 */
const CHUNK_BYTES = 16 * 1024;

/** Bytes read from the start of the file before choosing the decoder (an Ogg file's first page). */
const HEAD_BYTES = 512;

/** The start of a file and the rest of its reads (null when the start was all of it). */
export interface FileStart {
  head: Buffer[];
  rest: AsyncIterator<Buffer> | null;
}

/** Reads at least HEAD_BYTES (or the whole file, if shorter) from `chunks`. */
export async function readFileStart(chunks: AsyncIterator<Buffer>): Promise<FileStart> {
  const head: Buffer[] = [];
  let headBytes = 0;
  while (headBytes < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) return { head, rest: null };
    head.push(next.value);
    headBytes += next.value.length;
  }
  return { head, rest: chunks };
}

/**
 * Sends a file to `worker` as `{ type: 'chunk', bytes }` messages (each piece copied into an
 * ArrayBuffer of its own and transferred), then `{ type: 'end' }`, waiting for an `ack()` (the
 * worker's `{ type: 'ack' }`) whenever MAX_CHUNKS_IN_FLIGHT pieces are out. `stop()` ends the
 * sending (when the run is settled); `pump` then resolves without sending more.
 */
export class FileFeeder {
  private credit = MAX_CHUNKS_IN_FLIGHT;
  private creditCame: (() => void) | null = null;
  private stopped = false;

  constructor(private readonly worker: Worker) {}

  /** The worker's decoder took a piece: one more may be sent. */
  ack(): void {
    this.credit += 1;
    this.creditCame?.();
  }

  /** Sends nothing more (a waiting send gives up). */
  stop(): void {
    this.stopped = true;
    this.creditCame?.();
  }

  /** Sends `start.head`, then the rest of the file, then `end`. Rejects with the storage's read error. */
  async pump(start: FileStart): Promise<void> {
    for (const chunk of start.head) await this.send(chunk);
    while (start.rest && !this.stopped) {
      const next = await start.rest.next();
      if (next.done) break;
      await this.send(next.value);
    }
    if (!this.stopped) this.worker.postMessage({ type: "end" });
  }

  private async send(chunk: Buffer): Promise<void> {
    for (let at = 0; at < chunk.length; at += CHUNK_BYTES) {
      while (this.credit === 0 && !this.stopped) await new Promise<void>((resume) => (this.creditCame = resume));
      if (this.stopped) return;
      this.credit -= 1;
      // A copy in an ArrayBuffer of its own, transferred (the read's buffer may be shared).
      const bytes = new Uint8Array(chunk.subarray(at, at + CHUNK_BYTES));
      this.worker.postMessage({ type: "chunk", bytes }, [bytes.buffer]);
    }
  }
}
