// The worker side of file-feeder.ts (decision 023; decision 024): the file's bytes as the parent
// sends them, and the decoders' console complaints counted instead of printed. Shared by
// waveforms/decode-worker.mjs and segments/vad-worker.mjs; plain JavaScript because worker threads
// under tsx and vitest cannot load TypeScript.
//
// Messages in:  { type: 'chunk', bytes: Uint8Array }, { type: 'end' }, { type: 'stop' } (give up).
// Messages out: { type: 'ack' } each time the decoder takes a chunk (the parent sends a new one per ack).

/**
 * The decoders do not throw on damaged data: they skip it and print a complaint (mpg123 resyncs on
 * garbage, finding the odd false frame). Their console output is kept from the server's log and
 * counted, so the parent can tell a damaged file. Returns the running count and the last complaint.
 * @returns {{ readonly decoderErrors: number, readonly lastDecoderError: string }}
 */
export function countDecoderComplaints() {
  const counts = { decoderErrors: 0, lastDecoderError: "" };
  console.error = (...args) => {
    counts.decoderErrors += 1;
    counts.lastDecoderError = args.map(String).join(" ").slice(0, 200);
  };
  console.log = console.info = console.warn = console.debug = () => undefined;
  return counts;
}

/**
 * Listens on `port` for the parent's chunks. `input()` yields them as the decoder asks,
 * acknowledging each, and ends after `end`; after `stop` it throws "stopped" and `stopping()` is true.
 * @param {import("node:worker_threads").MessagePort} port
 */
export function fileInput(port) {
  /** @type {Uint8Array[]} chunks received and not yet taken by the decoder */
  const queue = [];
  let ended = false;
  let stopping = false;
  /** @type {(() => void) | null} resolves the decoder's wait for the next chunk */
  let wake = null;

  port.on("message", (message) => {
    if (message.type === "chunk") queue.push(message.bytes);
    else if (message.type === "end") ended = true;
    else if (message.type === "stop") stopping = true;
    wake?.();
    wake = null;
  });

  /** @returns {AsyncGenerator<Uint8Array>} */
  async function* input() {
    for (;;) {
      if (stopping) throw new Error("stopped");
      const bytes = queue.shift();
      if (bytes) {
        port.postMessage({ type: "ack" });
        yield bytes;
      } else if (ended) {
        return;
      } else {
        await new Promise((resolve) => (wake = resolve));
      }
    }
  }

  return { input, stopping: () => stopping };
}
