import type { Executor } from "../connection";

/** Inserts a saved transcript version (its file is already stored under `fileKey`). */
export async function insertTranscriptVersion(
  db: Executor,
  values: { id: string; submissionId: string; fileKey: string; fileName: string; text: string; createdBy: string },
): Promise<void> {
  await db.insertInto("transcriptVersions").values(values).execute();
}

/** A transcript version with the username of who saved it. */
export interface TranscriptVersionRow {
  fileKey: string;
  fileName: string;
  text: string;
  createdAt: Date;
  createdById: string | null;
  createdByUsername: string | null;
}

/** The version of a submission stored under `fileKey` (index transcript_versions_submission_idx), or undefined. */
export function findTranscriptVersion(
  db: Executor,
  submissionId: string,
  fileKey: string,
): Promise<TranscriptVersionRow | undefined> {
  return db
    .selectFrom("transcriptVersions")
    .leftJoin("users", "users.id", "transcriptVersions.createdBy")
    .select([
      "transcriptVersions.fileKey",
      "transcriptVersions.fileName",
      "transcriptVersions.text",
      "transcriptVersions.createdAt",
      "users.id as createdById",
      "users.username as createdByUsername",
    ])
    .where("transcriptVersions.submissionId", "=", submissionId)
    .where("transcriptVersions.fileKey", "=", fileKey)
    .executeTakeFirst();
}
