import type { TestServer } from "./server";

/** Control over the test server's reads of original audios (holdAudioReads). */
export interface HeldReads {
  /** Lets the held read, and every later one, go on. */
  release(): void;
  /** Puts the storage's own read back. */
  restore(): void;
}

/**
 * Slows the test server's reads of stored original audios (`audios/…` keys) so a browser test can
 * watch a dataset export run (decision 019): the first read waits `firstDelayMs` (long enough
 * for the export to report its first audio done: it reports at most every 500 ms), and reads of the
 * `holdFrom`-th audio file read (counted from 1, by key) and those after it wait until release().
 * Reads are counted by file, not by read: the export reads an audio twice when it measures its
 * speech (decision 035) before zipping it. Other keys are read as usual. The server runs in the
 * test's process, so its storage object is this one.
 */
export function holdAudioReads(
  server: TestServer,
  { firstDelayMs = 800, holdFrom = 2 }: { firstDelayMs?: number; holdFrom?: number } = {},
): HeldReads {
  const storage = server.harness.deps.storage;
  const read = storage.read;
  const files: string[] = [];
  let delayed = false;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  storage.read = async (key, range) => {
    if (key.startsWith("audios/")) {
      if (!files.includes(key)) files.push(key);
      const nth = files.indexOf(key) + 1;
      if (nth === 1 && !delayed) {
        delayed = true;
        await new Promise((resolve) => setTimeout(resolve, firstDelayMs));
      }
      if (nth >= holdFrom) await released;
    }
    return read.call(storage, key, range);
  };
  return {
    release,
    restore() {
      release();
      storage.read = read;
    },
  };
}
