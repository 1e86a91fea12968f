import { writeFileSync } from "node:fs";
import { memoryMb } from "./child-process";

/** How often the resident set size is sampled while watching, ms. */
const SAMPLE_EVERY_MS = 20;

/** A process's resident memory over a stretch of work, MB. */
export interface RssWatch {
  /** VmRSS when the watch started. */
  baselineMb: number;
  /** Stops sampling; resolves to the peak since the start (the larger of VmHWM and the sampled VmRSS). */
  stop(): number;
  /** Whether VmHWM was reset at the start, so that it is the peak of this stretch alone. */
  hwmReset: boolean;
}

/**
 * Starts watching the resident memory of process `pid` (Linux /proc): resets its peak (VmHWM)
 * by writing 5 to /proc/<pid>/clear_refs (Linux 4.0+, our own process), so that a peak from
 * before (the server's start) does not count, notes VmRSS as the baseline, then samples VmRSS
 * every 20 ms. `stop()` returns the peak: VmHWM when it could be reset (the kernel's exact
 * figure), never less than the largest sample.
 */
export function watchRss(pid: number): RssWatch {
  let hwmReset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
  } catch {
    hwmReset = false;
  }
  const baselineMb = memoryMb(pid, "VmRSS");
  let sampledPeak = baselineMb;
  const timer = setInterval(() => {
    try {
      sampledPeak = Math.max(sampledPeak, memoryMb(pid, "VmRSS"));
    } catch {
      // The process ended; stop() still answers with what was seen.
    }
  }, SAMPLE_EVERY_MS);
  timer.unref(); // a run that fails before stop() must still end
  return {
    baselineMb,
    hwmReset,
    stop() {
      clearInterval(timer);
      sampledPeak = Math.max(sampledPeak, memoryMb(pid, "VmRSS"));
      return hwmReset ? Math.max(sampledPeak, memoryMb(pid, "VmHWM")) : sampledPeak;
    },
  };
}
