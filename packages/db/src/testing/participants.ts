import type { CognitiveScore } from "@tafsiri/domain";
import type { Executor } from "../connection";
import type { NewParticipant } from "../schema";

let codes = 0;

/**
 * Tests (decision 024): inserts a participant, by default of the first audio's category as its
 * group with consent 'given' and a unique code `T0001`…, and links the audios `audioIds` to it with
 * session day `sessionDate` (null: none). Returns the participant's id and code. Straight into the
 * database, for tests of what consumes participants (exports), not of how they are edited.
 */
export async function linkToParticipant(
  db: Executor,
  audioIds: string | string[],
  fields: Partial<Omit<NewParticipant, "languages" | "scores">> & {
    languages?: string[];
    scores?: CognitiveScore[];
  } = {},
  sessionDate: string | null = null,
): Promise<{ id: string; code: string }> {
  const ids = Array.isArray(audioIds) ? audioIds : [audioIds];
  const first = await db
    .selectFrom("audios")
    .select("category")
    .where("id", "=", ids[0] ?? "")
    .executeTakeFirst();
  codes += 1;
  const { languages, scores, ...rest } = fields;
  const participant = await db
    .insertInto("participants")
    .values({
      code: `T${String(codes).padStart(4, "0")}-${process.pid}`,
      studyGroup: first?.category ?? "Control",
      consentStatus: "given",
      ...rest,
      languages: JSON.stringify(languages ?? []),
      scores: JSON.stringify(scores ?? []),
    })
    .returning(["id", "code"])
    .executeTakeFirstOrThrow();
  if (ids.length > 0) {
    await db.updateTable("audios").set({ participantId: participant.id, sessionDate }).where("id", "in", ids).execute();
  }
  return participant;
}
