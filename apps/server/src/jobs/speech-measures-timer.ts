import { measurePendingAudios, type AppDeps, type JobLocks } from "@tafsiri/api";
import { runHourly, type JobLog } from "./hourly-job";

/** How often the job looks for approved transcripts whose recording is not measured yet (decision 035), in ms. */
const SPEECH_MEASURES_EVERY_MS = 60_000;

/**
 * Decision 035, "Speech measures": measures the original audio of every approved transcript not
 * yet measured (measurePendingAudios: the voice activity detector once per file, off the request
 * path, and at first the audios approved before), at start and then every minute, in the one
 * process holding the `speech-measures` job lock. A round that measured something logs one info
 * line ("speech measures: 3 measured, 0 undecodable, 0 left after errors"); a quiet round logs
 * nothing; a failure (the model cannot load, the database cannot be asked) is logged as an error
 * and retried at the next round. Returns the function that stops it: the audio in hand is
 * finished, no other is started.
 */
export function measureSpeechEveryMinute(
  deps: Pick<AppDeps, "db" | "storage"> & { locks: JobLocks },
  log: JobLog,
  everyMs = SPEECH_MEASURES_EVERY_MS,
): () => Promise<void> {
  const stopping = new AbortController();
  const stop = runHourly({
    label: "speech measures",
    log,
    everyMs,
    round: async () => {
      const round = await deps.locks.runRound("speech-measures", () =>
        measurePendingAudios({ ...deps, log: (line) => log.error(line) }, { signal: stopping.signal }),
      );
      if (!round.ran) return;
      const { measured, failed, errors } = round.value;
      if (measured + failed + errors === 0) return;
      log.info(
        round.value,
        `speech measures: ${measured} measured, ${failed} undecodable, ${errors} left after errors`,
      );
    },
  });
  return async () => {
    stopping.abort();
    await stop();
  };
}
