import type { Executor } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  markExportsSuperseded,
  participantCodeOf,
  participantsNoLongerConsenting,
} from "@tafsiri/db/repositories/exports";
import { recordEvent } from "../live/record";

/**
 * Decision 024 ("Consent gate"): an export holding a participant who withdrew consent is
 * superseded: its download link answers 410 and the Export page says why.
 */

/** The audit action of an export superseded. */
const EXPORT_SUPERSEDED_ACTION = "export.superseded";

/** Audits and announces (to the admins' Export pages, 'export.changed') each export of `exportIds` superseded. */
async function recordSuperseded(
  db: Executor,
  exportIds: string[],
  participantCode: string,
  actorId: string | null,
): Promise<void> {
  for (const exportId of exportIds) {
    await insertAuditEntry(db, actorId, EXPORT_SUPERSEDED_ACTION, "export", exportId, { exportId, participantCode });
  }
  await recordEvent(
    db,
    exportIds.map((exportId) => ({
      audience: "admins" as const,
      kind: "export.changed" as const,
      payload: { exportId },
    })),
  );
}

/**
 * Decision 024: marks superseded (superseded_at = now()) every finished export whose link still
 * works, not superseded yet, that holds participant `participantId` (export_participants); writes
 * one audit entry per export (action 'export.superseded', entity 'export', detail { exportId,
 * participantCode }, by `actorId`, null for the system) and records an 'export.changed' event per
 * export for the admins. Runs in the caller's transaction (the participants service calls it when
 * consent becomes withdrawn); the caller pokes the event bus after the commit
 * (`deps.events.poke()`). Returns how many exports it superseded (0 for an unknown participant).
 */
export async function supersedeExportsOfParticipant(
  db: Executor,
  participantId: string,
  actorId: string | null,
): Promise<number> {
  const code = await participantCodeOf(db, participantId);
  if (code === null) return 0;
  const superseded = await markExportsSuperseded(db, { participantId });
  await recordSuperseded(db, superseded, code, actorId);
  return superseded.length;
}

/**
 * Decision 024: in the transaction that finishes export `exportId` (its export_participants
 * written), supersedes it at once when a participant it holds no longer consents (consent
 * withdrawn while it was written: that withdrawal found no finished export to supersede). The
 * participants are read with a share lock, so a withdrawal committing meanwhile is either seen here
 * or sees this export. Audited as supersedeExportsOfParticipant, by nobody (null). Returns whether
 * it was superseded.
 */
export async function supersedeIfConsentEnded(db: Executor, exportId: string): Promise<boolean> {
  const [code] = await participantsNoLongerConsenting(db, exportId);
  if (code === undefined) return false;
  const superseded = await markExportsSuperseded(db, { exportId });
  await recordSuperseded(db, superseded, code, null);
  return superseded.length > 0;
}
