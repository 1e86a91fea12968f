import type { Executor } from "../connection";
import type { WaveformStatus } from "../schema";

/** Inserts an uploaded translated recording (its file is already stored under `fileKey`). */
export async function insertTranslatedRecording(
  db: Executor,
  values: {
    submissionId: string;
    fileKey: string;
    mimeType: string;
    sizeBytes: number;
    recordedBy: string;
    uploadedBy: string;
  },
): Promise<void> {
  await db.insertInto("translatedRecordings").values(values).execute();
}

/** A translated recording with the username of its recorder. */
export interface TranslatedRecordingRow {
  fileKey: string;
  mimeType: string;
  waveformStatus: WaveformStatus;
  peaksKey: string | null;
  durationSeconds: number | null;
  createdAt: Date;
  recordedById: string | null;
  recordedByUsername: string | null;
}

/** The recording of a submission stored under `fileKey` (index translated_recordings_submission_idx), or undefined. */
export function findTranslatedRecording(
  db: Executor,
  submissionId: string,
  fileKey: string,
): Promise<TranslatedRecordingRow | undefined> {
  return db
    .selectFrom("translatedRecordings")
    .leftJoin("users", "users.id", "translatedRecordings.recordedBy")
    .select([
      "translatedRecordings.fileKey",
      "translatedRecordings.mimeType",
      "translatedRecordings.waveformStatus",
      "translatedRecordings.peaksKey",
      "translatedRecordings.durationSeconds",
      "translatedRecordings.createdAt",
      "users.id as recordedById",
      "users.username as recordedByUsername",
    ])
    .where("translatedRecordings.submissionId", "=", submissionId)
    .where("translatedRecordings.fileKey", "=", fileKey)
    .executeTakeFirst();
}
