import { AGE_BANDS, ageInMonthsOn, PARTICIPANT_GROUPS, SEXES } from "@tafsiri/domain";
import type { Category, DbTransaction, Executor, Participant as ParticipantRow } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import {
  balanceCounts,
  countAudiosOutsideGroup,
  countParticipantAudios,
  findParticipant,
  findParticipantByCode,
  insertParticipants,
  listParticipantAudios,
  listParticipants,
  lockParticipant,
  updateParticipantRow,
  type ParticipantListQuery,
} from "@tafsiri/db/repositories/participants";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { supersedeExportsOfParticipant } from "../export/supersede";
import { isUuid, UNKNOWN_ID } from "../schemas/common";
import {
  type BalanceRow,
  type Participant,
  type ParticipantFields,
  type ParticipantSaved,
} from "../schemas/participants";
import { requireAdmin } from "./access";
import { recordWebhookEvent } from "../webhooks/record-webhook-event";

/**
 * Research participants (decision 024): the rules behind the admin-only `participants` procedures
 * and /api/participants. An audio's link to its participant is in audio-participants.ts, the
 * consent document in consent-documents.ts.
 */

const PARTICIPANT_NOT_FOUND = "Participant not found.";

/** 409 for a code another participant has, whatever its case. */
export function codeTakenMessage(code: string): string {
  return `A participant with the code ${code} already exists.`;
}

/** 409 when a participant's group would no longer match its linked audios (labelled `category`). */
export function groupLockedMessage(code: string, category: Category): string {
  return `Participant ${code} has ${category} audios; their category must change first.`;
}

/** The day `at` falls on in `timeZone` (APP_TIMEZONE), YYYY-MM-DD. */
export function dayIn(timeZone: string, at: Date = new Date()): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);
}

/** Today in the deployment's time zone (APP_TIMEZONE, UTC when unset), YYYY-MM-DD. */
export function todayOf(deps: Pick<AppDeps, "timezone">): string {
  return dayIn(deps.timezone ?? "UTC");
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "23505";
}

/** A participant row as admins see it (ZParticipant), its age today and its number of linked audios. */
export function participantOf(row: ParticipantRow, audioCount: number, today: string): Participant {
  return {
    id: row.id,
    code: row.code,
    group: row.studyGroup,
    sex: row.sex,
    birthDate: row.birthDate,
    ageMonths: row.ageMonths,
    ageRecordedOn: row.ageRecordedOn,
    ageMonthsToday: ageInMonthsOn(row, today),
    educationYears: row.educationYears,
    languages: row.languages,
    scores: row.scores,
    notes: row.notes,
    consentStatus: row.consentStatus,
    consentDate: row.consentDate,
    consentDocumentName: row.consentDocumentName,
    audioCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The fields as stored: a recorded age without its day is true today; a day without an age is dropped. */
export function storedFields(fields: ParticipantFields, today: string) {
  return {
    code: fields.code,
    studyGroup: fields.group,
    sex: fields.sex,
    birthDate: fields.birthDate,
    ageMonths: fields.ageMonths,
    ageRecordedOn: fields.ageMonths === null ? null : (fields.ageRecordedOn ?? today),
    educationYears: fields.educationYears,
    languages: fields.languages,
    scores: fields.scores as ParticipantRow["scores"],
    notes: fields.notes,
    consentStatus: fields.consentStatus,
    consentDate: fields.consentDate,
  };
}
type StoredFields = ReturnType<typeof storedFields>;

/** Stored fields as the insert/update takes them (the JSON columns as text). */
export function columnsOf(fields: StoredFields) {
  return { ...fields, languages: JSON.stringify(fields.languages), scores: JSON.stringify(fields.scores) };
}

/** The names (ZParticipantFields terms) of the fields whose stored value would change, consent status aside. */
export function changedFields(before: ParticipantRow, after: StoredFields): string[] {
  const pairs: Array<[string, unknown, unknown]> = [
    ["code", before.code, after.code],
    ["group", before.studyGroup, after.studyGroup],
    ["sex", before.sex, after.sex],
    ["birthDate", before.birthDate, after.birthDate],
    ["ageMonths", before.ageMonths, after.ageMonths],
    ["ageRecordedOn", before.ageRecordedOn, after.ageRecordedOn],
    ["educationYears", before.educationYears, after.educationYears],
    ["languages", JSON.stringify(before.languages), JSON.stringify(after.languages)],
    ["scores", JSON.stringify(before.scores), JSON.stringify(after.scores)],
    ["notes", before.notes, after.notes],
    ["consentDate", before.consentDate, after.consentDate],
  ];
  return pairs.filter(([, a, b]) => a !== b).map(([name]) => name);
}

/** Throws BAD_REQUEST 'Unknown id.' for a malformed id (as the procedures' ZId does). */
function requireWellFormedId(participantId: string): void {
  if (!isUuid(participantId)) throw new AppError("BAD_REQUEST", UNKNOWN_ID);
}

/** Throws BAD_REQUEST 'Unknown id.' for a malformed id, NOT_FOUND 'Participant not found.' for an unknown one; returns the row. */
export async function requireParticipant(db: Executor, participantId: string): Promise<ParticipantRow> {
  requireWellFormedId(participantId);
  const row = await findParticipant(db, participantId);
  if (!row) throw new AppError("NOT_FOUND", PARTICIPANT_NOT_FOUND);
  return row;
}

/** As requireParticipant, the row locked until `trx` ends. */
export async function requireLockedParticipant(trx: DbTransaction, participantId: string): Promise<ParticipantRow> {
  requireWellFormedId(participantId);
  const row = await lockParticipant(trx, participantId);
  if (!row) throw new AppError("NOT_FOUND", PARTICIPANT_NOT_FOUND);
  return row;
}

/**
 * The audit entries of a change to an existing participant, one per fact: participant.updated
 * (detail: the code and the changed field names, never their values) and participant.consent_changed
 * (detail: code, from, to). A withdrawal supersedes the exports that hold the participant. Runs in
 * the caller's transaction.
 */
export async function auditParticipantChange(
  trx: Executor,
  actorId: string,
  before: ParticipantRow,
  after: StoredFields,
  opts: { quiet?: boolean } = {},
): Promise<void> {
  const fields = changedFields(before, after);
  if (fields.length > 0 && !opts.quiet) {
    await insertAuditEntry(trx, actorId, "participant.updated", "participant", before.id, { code: after.code, fields });
  }
  if (before.consentStatus !== after.consentStatus) {
    await insertAuditEntry(trx, actorId, "participant.consent_changed", "participant", before.id, {
      code: after.code,
      from: before.consentStatus,
      to: after.consentStatus,
    });
    await recordWebhookEvent(trx, "participant.consent_changed", {
      participant: {
        _id: before.id,
        code: after.code,
        consent_status: after.consentStatus,
        previous_consent_status: before.consentStatus,
        consent_date: after.consentDate,
      },
    });
    if (after.consentStatus === "withdrawn") await supersedeExportsOfParticipant(trx, before.id, actorId);
  }
}

/**
 * Decision 024, participants list (admin): `{ search?, group?, consent?, page, limit }` → one page
 * ordered by code (any case), `search` a code prefix whatever its case, with the number of matching
 * participants and pages. One SQL statement (listParticipants). Throws FORBIDDEN for staff.
 */
export async function listParticipantPage(
  deps: AppDeps,
  user: SessionUser,
  q: ParticipantListQuery,
): Promise<{ items: Participant[]; total: number; totalPages: number }> {
  requireAdmin(user);
  const today = todayOf(deps);
  const { items, total } = await listParticipants(deps.db, q);
  return {
    items: items.map((row) => participantOf(row, row.audioCount, today)),
    total,
    totalPages: Math.ceil(total / q.limit),
  };
}

/** Decision 024 (admin): one participant with its age today and audio count. NOT_FOUND 'Participant not found.'. */
export async function getParticipant(deps: AppDeps, user: SessionUser, participantId: string): Promise<Participant> {
  requireAdmin(user);
  const row = await requireParticipant(deps.db, participantId);
  return participantOf(row, await countParticipantAudios(deps.db, row.id), todayOf(deps));
}

/**
 * Decision 024 (admin): records a participant from ZParticipantFields (an age in months without its
 * day is taken as today's, in APP_TIMEZONE), audited participant.created (detail: the code) in the
 * same transaction. Throws CONFLICT 'A participant with the code P0042 already exists.' when the
 * code is taken whatever its case. Returns the participant and the sentence said ('Participant
 * P0042 has been added.').
 */
export async function createParticipant(
  deps: AppDeps,
  user: SessionUser,
  fields: ParticipantFields,
): Promise<ParticipantSaved> {
  requireAdmin(user);
  const today = todayOf(deps);
  const stored = storedFields(fields, today);
  const row = await deps.db
    .transaction()
    .execute(async (trx) => {
      if (await findParticipantByCode(trx, stored.code)) throw new AppError("CONFLICT", codeTakenMessage(stored.code));
      const [created] = await insertParticipants(trx, [columnsOf(stored)]);
      await insertAuditEntry(trx, user.id, "participant.created", "participant", created!.id, { code: created!.code });
      return created!;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? new AppError("CONFLICT", codeTakenMessage(stored.code)) : error;
    });
  return { message: `Participant ${row.code} has been added.`, participant: participantOf(row, 0, today) };
}

/**
 * Decision 024 (admin): replaces a participant's fields (the form sends them all), under its row
 * lock. A new group is refused while linked audios carry the other category (CONFLICT 'Participant
 * P0042 has Control audios; their category must change first.'); a code another participant has
 * answers CONFLICT. Audited one entry per fact (auditParticipantChange); a withdrawal supersedes
 * the exports holding the participant. NOT_FOUND for an unknown id. Returns the participant and
 * the sentence said ('Participant P0042 has been saved.').
 */
export async function updateParticipant(
  deps: AppDeps,
  user: SessionUser,
  input: ParticipantFields & { participantId: string },
): Promise<ParticipantSaved> {
  requireAdmin(user);
  const today = todayOf(deps);
  const stored = storedFields(input, today);
  const { row, audioCount } = await deps.db
    .transaction()
    .execute(async (trx) => {
      const before = await requireLockedParticipant(trx, input.participantId);
      const other = await findParticipantByCode(trx, stored.code);
      if (other && other.id !== before.id) throw new AppError("CONFLICT", codeTakenMessage(stored.code));
      if (
        stored.studyGroup !== before.studyGroup &&
        (await countAudiosOutsideGroup(trx, before.id, stored.studyGroup)) > 0
      ) {
        throw new AppError("CONFLICT", groupLockedMessage(before.code, before.studyGroup));
      }
      const unchanged = changedFields(before, stored).length === 0 && before.consentStatus === stored.consentStatus;
      const after = unchanged ? before : await updateParticipantRow(trx, before.id, columnsOf(stored));
      await auditParticipantChange(trx, user.id, before, stored);
      return { row: after, audioCount: await countParticipantAudios(trx, before.id) };
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? new AppError("CONFLICT", codeTakenMessage(stored.code)) : error;
    });
  // A withdrawal may have superseded exports (export.changed events): deliver them now, not at the next poll.
  deps.events.poke();
  return { message: `Participant ${row.code} has been saved.`, participant: participantOf(row, audioCount, today) };
}

/** Decision 024 (admin): the participant's linked audios, newest session first. NOT_FOUND for an unknown id. */
export async function participantAudios(deps: AppDeps, user: SessionUser, participantId: string) {
  requireAdmin(user);
  const row = await requireParticipant(deps.db, participantId);
  const audios = await listParticipantAudios(deps.db, row.id);
  return audios.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() }));
}

/**
 * Decision 024 (admin): the balance counts, every group × sex (female, male, unknown) × AGE_BANDS
 * cell with its participants (age today) and approved recordings (complete tasks of linked
 * audios, age at the session day or upload day), zeros included. One SQL statement.
 */
export async function participantBalance(deps: AppDeps, user: SessionUser): Promise<{ rows: BalanceRow[] }> {
  requireAdmin(user);
  const counted = await balanceCounts(deps.db, { today: todayOf(deps) });
  const key = (group: string, sex: string | null, band: string) => `${group}|${sex ?? ""}|${band}`;
  const byCell = new Map(counted.map((c) => [key(c.group, c.sex, c.ageBand), c]));
  const rows: BalanceRow[] = [];
  for (const group of PARTICIPANT_GROUPS)
    for (const sex of [...SEXES, null])
      for (const ageBand of AGE_BANDS) {
        const cell = byCell.get(key(group, sex, ageBand));
        rows.push({
          group,
          sex,
          ageBand,
          participants: cell?.participants ?? 0,
          approvedRecordings: cell?.approvedRecordings ?? 0,
        });
      }
  return { rows };
}
