import { sql } from "kysely";
import type { Executor } from "../../connection";

/**
 * Superseding on consent withdrawal (decision 024, amending decision 019): a finished export
 * records the participants it holds, and a withdrawal marks the ready exports holding that
 * participant superseded, so their links answer 410 and their zips are never offered again.
 */

/**
 * Records that finished export `exportId` holds the participants `participantIds` (decision 024),
 * 500 rows per statement; with `copiedFrom`, the participants of that export too (an export offering
 * an earlier zip again holds what it holds).
 */
export async function insertExportParticipants(
  db: Executor,
  exportId: string,
  participantIds: Iterable<string>,
  copiedFrom: string | null = null,
): Promise<void> {
  const ids = [...new Set(participantIds)];
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .insertInto("exportParticipants")
      .values(ids.slice(i, i + 500).map((participantId) => ({ participantId, exportId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  if (copiedFrom !== null) {
    await db
      .insertInto("exportParticipants")
      .columns(["participantId", "exportId"])
      .expression((eb) =>
        eb
          .selectFrom("exportParticipants")
          .select(["participantId", sql<string>`${exportId}::uuid`.as("exportId")])
          .where("exportId", "=", copiedFrom),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * The participants of export `exportId` whose consent no longer lets them in (withdrawn or not
 * recorded, or restricted when the export did not include it), read with a share lock: a
 * withdrawal committing meanwhile waits for this transaction, or this one reads it (decision 024:
 * an export finishing while its participant withdraws is superseded at once). Their codes.
 */
export async function participantsNoLongerConsenting(db: Executor, exportId: string): Promise<string[]> {
  const held = await db
    .selectFrom("participants")
    .select(["code", "consentStatus"])
    .where("id", "in", (eb) =>
      eb.selectFrom("exportParticipants").select("participantId").where("exportId", "=", exportId),
    )
    .forShare()
    .execute();
  const exported = await db
    .selectFrom("exports")
    .select("includeRestricted")
    .where("id", "=", exportId)
    .executeTakeFirst();
  const allowed = exported?.includeRestricted ? ["given", "restricted"] : ["given"];
  return held.filter((p) => !allowed.includes(p.consentStatus)).map((p) => p.code);
}

/**
 * Marks superseded (superseded_at now) export `exportId`, or every finished, not yet superseded
 * export whose link still works that holds participant `participantId` (decision 024). Returns
 * the ids of the exports marked.
 */
export async function markExportsSuperseded(
  db: Executor,
  which: { exportId: string } | { participantId: string },
): Promise<string[]> {
  let q = db
    .updateTable("exports")
    .set({ supersededAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where("state", "=", "done")
    .where("supersededAt", "is", null);
  if ("exportId" in which) q = q.where("id", "=", which.exportId);
  else {
    q = q
      .where("expiresAt", ">", sql<Date>`now()`)
      .where("id", "in", (eb) =>
        eb.selectFrom("exportParticipants").select("exportId").where("participantId", "=", which.participantId),
      );
  }
  const rows = await q.returning("id").execute();
  return rows.map((r) => r.id);
}

/**
 * A participant's code, or null when there is none with that id: the audit entry of an export a
 * withdrawal supersedes ('export.superseded') names the participant by it (decision 024).
 */
export async function participantCodeOf(db: Executor, participantId: string): Promise<string | null> {
  const row = await db.selectFrom("participants").select("code").where("id", "=", participantId).executeTakeFirst();
  return row?.code ?? null;
}
