import { sql, type NotNull } from "kysely";
import type { Executor } from "../connection";

/** The most keys `referencedFileKeys` takes at once (each key is a parameter eleven times over). */
export const MAX_KEYS_PER_LOOKUP = 1000;

/**
 * Which of `keys` (storage keys such as `audios/2f1c….wav`) some row points at, in one query:
 * audios.file_key, audios.transcript_key, transcript_versions.file_key,
 * translated_recordings.file_key, and the submission's current pointers
 * submissions.recorded_audio and submissions.translation_script (always one of the history
 * rows' keys today; checked as well so a file a submission names is never taken for an orphan),
 * exports.file_key while the export's download link lasts (decision 019: an expired zip is swept), and
 * the peaks files of audios and translated recordings (audios.peaks_key, translated_recordings.peaks_key),
 * participants' consent documents (participants.consent_document_key, decision 024), and the
 * takes of oral translation (segment_takes.file_key, decision 035).
 * Takes at most MAX_KEYS_PER_LOOKUP keys (callers page; the file sweep);
 * returns the referenced ones as a set (empty for no keys). Throws RangeError past the maximum.
 */
export async function referencedFileKeys(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  if (keys.length > MAX_KEYS_PER_LOOKUP) {
    throw new RangeError(`referencedFileKeys takes at most ${MAX_KEYS_PER_LOOKUP} keys, got ${keys.length}`);
  }
  const rows = await db
    .selectFrom("audios")
    .select("fileKey as key")
    .where("fileKey", "in", keys)
    .unionAll(
      db
        .selectFrom("audios")
        .select("transcriptKey as key")
        .where("transcriptKey", "in", keys)
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(db.selectFrom("transcriptVersions").select("fileKey as key").where("fileKey", "in", keys))
    .unionAll(db.selectFrom("translatedRecordings").select("fileKey as key").where("fileKey", "in", keys))
    .unionAll(
      db
        .selectFrom("submissions")
        .select("recordedAudio as key")
        .where("recordedAudio", "in", keys)
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(
      db
        .selectFrom("exports")
        .select("fileKey as key")
        .where("fileKey", "in", keys)
        .where((eb) => eb.or([eb("expiresAt", "is", null), eb("expiresAt", ">", sql<Date>`now()`)]))
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(
      db.selectFrom("audios").select("peaksKey as key").where("peaksKey", "in", keys).$narrowType<{ key: NotNull }>(),
    )
    .unionAll(
      db
        .selectFrom("translatedRecordings")
        .select("peaksKey as key")
        .where("peaksKey", "in", keys)
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(
      db
        .selectFrom("submissions")
        .select("translationScript as key")
        .where("translationScript", "in", keys)
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(
      db
        .selectFrom("participants")
        .select("consentDocumentKey as key")
        .where("consentDocumentKey", "in", keys)
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(db.selectFrom("segmentTakes").select("fileKey as key").where("fileKey", "in", keys))
    .execute();
  return new Set(rows.map((r) => r.key));
}
