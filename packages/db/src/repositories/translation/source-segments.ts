import type { SourceSegment } from "@tafsiri/domain";
import type { DbTransaction, Executor } from "../../connection";

/** Rows per insert statement: 7 parameters a row stays far below PostgreSQL's 65,535. */
const CHUNK = 1_000;

/** An audio's source segments in order (decision 035); [] when its initial transcript gave none. */
export async function listSourceSegments(db: Executor, audioId: string): Promise<SourceSegment[]> {
  return db
    .selectFrom("sourceSegments")
    .select(["speaker", "startMs", "endMs", "text"])
    .where("audioId", "=", audioId)
    .orderBy("position")
    .execute();
}

/** Replaces an audio's source segments with `segments`, in their order. */
export async function replaceSourceSegments(
  trx: DbTransaction,
  audioId: string,
  segments: readonly SourceSegment[],
): Promise<void> {
  await trx.deleteFrom("sourceSegments").where("audioId", "=", audioId).execute();
  for (let from = 0; from < segments.length; from += CHUNK) {
    await trx
      .insertInto("sourceSegments")
      .values(segments.slice(from, from + CHUNK).map((s, i) => ({ audioId, position: from + i, ...s })))
      .execute();
  }
}
