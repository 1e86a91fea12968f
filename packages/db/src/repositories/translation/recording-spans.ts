import type { DbTransaction, Executor } from "../../connection";

/** A grid row's stretch of the translated recording, in ms (decision 035). */
export interface RecordingSpan {
  segmentId: string;
  startMs: number;
  endMs: number;
  origin: "takes" | "confirmed";
}

/**
 * Replaces every span of audio `audioId` by `spans` in the translated recording `recordingKey`
 * (decision 035: written when the recording is assembled from the takes, or when staff confirm
 * the spans of a whole-file upload), recorded as set by `userId`.
 */
export async function replaceRecordingSpans(
  trx: DbTransaction,
  input: {
    audioId: string;
    recordingKey: string;
    origin: RecordingSpan["origin"];
    userId: string | null;
    spans: readonly { segmentId: string; startMs: number; endMs: number }[];
  },
): Promise<void> {
  await trx.deleteFrom("recordingSpans").where("audioId", "=", input.audioId).execute();
  if (input.spans.length === 0) return;
  await trx
    .insertInto("recordingSpans")
    .values(
      input.spans.map((span) => ({
        segmentId: span.segmentId,
        audioId: input.audioId,
        recordingKey: input.recordingKey,
        startMs: span.startMs,
        endMs: span.endMs,
        origin: input.origin,
        updatedBy: input.userId,
      })),
    )
    .execute();
}

/**
 * The spans of each audio of `audioIds` that lie in its current translated recording (the
 * submission's recorded_audio), ordered by start; audios without any are absent from the map.
 */
export async function currentRecordingSpans(
  db: Executor,
  audioIds: readonly string[],
): Promise<Map<string, RecordingSpan[]>> {
  const spans = new Map<string, RecordingSpan[]>();
  if (audioIds.length === 0) return spans;
  const rows = await db
    .selectFrom("recordingSpans as rs")
    .innerJoin("tasks as t", "t.audioId", "rs.audioId")
    .innerJoin("submissions as s", (join) =>
      join.onRef("s.taskId", "=", "t.id").onRef("s.recordedAudio", "=", "rs.recordingKey"),
    )
    .select(["rs.audioId", "rs.segmentId", "rs.startMs", "rs.endMs", "rs.origin"])
    .where("rs.audioId", "in", audioIds)
    .orderBy("rs.audioId")
    .orderBy("rs.startMs")
    .execute();
  for (const row of rows) {
    const list = spans.get(row.audioId) ?? [];
    list.push({ segmentId: row.segmentId, startMs: row.startMs, endMs: row.endMs, origin: row.origin });
    spans.set(row.audioId, list);
  }
  return spans;
}
