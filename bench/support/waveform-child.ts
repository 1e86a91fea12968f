// Run by bench/long-audio.ts in a process of its own: `tsx bench/support/waveform-child.ts FILE MIME`
// stores FILE in a temporary local storage and computes its waveform with the server's own
// computeWaveform, then prints one JSON line: { ms, growthMb } (VmHWM past the VmRSS before), or
// { error } when decoding failed.
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { computeWaveform, createLocalStorage } from "@tafsiri/api";

const [file, mimeType] = process.argv.slice(2);
if (!file || !mimeType) throw new Error("usage: waveform-child.ts FILE MIME");
const status = (field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) / 1024;
const root = mkdtempSync(path.join(os.tmpdir(), "tafsiri-waveform-child-"));
try {
  const storage = createLocalStorage(root);
  const temp = storage.tempPath();
  await import("node:fs/promises").then((fs) => fs.mkdir(path.dirname(temp), { recursive: true }));
  copyFileSync(file, temp);
  const key = `audios/bench${path.extname(file)}`;
  await storage.adopt(temp, key);
  const before = status("VmRSS");
  const started = performance.now();
  try {
    await computeWaveform(storage, key, mimeType);
    console.log(JSON.stringify({ ms: performance.now() - started, growthMb: status("VmHWM") - before }));
  } catch (error) {
    console.log(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
