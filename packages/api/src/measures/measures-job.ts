import { nextUnmeasuredAudio, refreshSpeechMeasureGroups } from "@tafsiri/db/repositories/speech-measures";
import type { AppDeps } from "../context";
import { SpeechModelUnavailableError } from "../segments/detect-speech";
import { readTranslationSettings } from "../translation/translation-settings";
import { measureAudio } from "./measure-audio";

/** Errors in a row (storage or database) after which a round gives up; the next round tries again. */
const ERRORS_IN_A_ROW_BEFORE_PAUSE = 3;

/** What one round of measurePendingAudios did. */
export interface MeasuresRoundReport {
  /** Audios measured and stored. */
  measured: number;
  /** Audios whose file cannot be decoded (stored as failed, not tried again). */
  failed: number;
  /** Audios left for the next round after a storage or database error. */
  errors: number;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Decision 035, "Speech measures": measures every audio whose approved transcript has not been
 * measured on its current file (nextUnmeasuredAudio: new approvals, a new transcript version,
 * and at first the audios approved before), one at a time, by id (measureAudio: the detector runs
 * only for a file without stored stretches, queued behind any other VAD run of this process). An
 * audio failing with a storage or database error is logged (`deps.log`) and left for the next
 * round; after three such errors in a row the round ends. Stops between audios when `signal`
 * aborts. Ends by rewriting the Dashboard's group report (refreshSpeechMeasureGroups). Returns the counts; rejects when the model cannot be loaded here
 * (SpeechModelUnavailableError: nothing can be measured) or the database cannot be asked.
 */
export async function measurePendingAudios(
  deps: Pick<AppDeps, "db" | "storage" | "log">,
  opts: { signal?: AbortSignal } = {},
): Promise<MeasuresRoundReport> {
  const report: MeasuresRoundReport = { measured: 0, failed: 0, errors: 0 };
  const settings = await readTranslationSettings(deps.db);
  const skip: string[] = [];
  let errorsInARow = 0;
  while (!opts.signal?.aborted) {
    const audio = await nextUnmeasuredAudio(deps.db, skip);
    if (!audio) break;
    try {
      report[await measureAudio(deps, audio, settings)] += 1;
      errorsInARow = 0;
    } catch (error) {
      if (error instanceof SpeechModelUnavailableError) throw error;
      deps.log?.(`speech measures: audio ${audio.audioId} left for the next round: ${messageOf(error)}`);
      report.errors += 1;
      skip.push(audio.audioId);
      if (++errorsInARow >= ERRORS_IN_A_ROW_BEFORE_PAUSE) break;
    }
  }
  // The Dashboard's group report, rewritten every round (a deleted audio's rows go with it).
  await refreshSpeechMeasureGroups(deps.db);
  return report;
}
