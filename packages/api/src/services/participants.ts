import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileTypeFromFile } from "file-type";
import {
  AGE_BANDS,
  ageInMonthsOn,
  CONSENT_DOCUMENT_NOT_PDF,
  isParticipantCode,
  PARTICIPANT_CODE_MESSAGE,
  PARTICIPANT_GROUPS,
  SEXES,
  type ParticipantGroup,
} from "@tafsiri/domain";
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
  setAudioParticipant,
  setConsentDocument,
  updateParticipantRow,
  type ParticipantListQuery,
} from "@tafsiri/db/repositories/participants";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { supersedeExportsOfParticipant } from "../export/supersede";
import { publishAfter, recordAudioEvent } from "../live/record";
import { isUuid, UNKNOWN_ID } from "../schemas/common";
import {
  ZDay,
  type BalanceRow,
  type LinkAudioResult,
  type Participant,
  type ParticipantBrief,
  type ParticipantFields,
  type ParticipantSaved,
} from "../schemas/participants";
import { lockAudioAccess, requireAdmin } from "./access";
import { adoptedUpload, commitWithFile } from "./stored-files";

/**
 * Research participants (decision 024): the rules behind the admin-only `participants` procedures
 * and /api/participants, the audio link, and what staff see of an audio's participant.
 */

const PARTICIPANT_NOT_FOUND = "Participant not found.";
const NO_CONSENT_DOCUMENT = "This participant has no consent document.";
const CONSENT_DOCUMENT_REQUIRED = "Please select the consent document (a PDF file).";
const SESSION_DATE_NEEDS_PARTICIPANT = "A session date is given only with a participant.";

/** 409 for a code another participant has, whatever its case. */
export function codeTakenMessage(code: string): string {
  return `A participant with the code ${code} already exists.`;
}

/** 400 when an audio's category and a participant's group differ. */
function categoryMismatchMessage(category: Category, code: string, group: ParticipantGroup): string {
  return `This audio is labelled ${category} but participant ${code} is in the ${group} group.`;
}

/** 409 when a participant's group would no longer match its linked audios (labelled `category`). */
export function groupLockedMessage(code: string, category: Category): string {
  return `Participant ${code} has ${category} audios; their category must change first.`;
}

/** 400 for an upload naming a participant code no participant has. */
function unknownCodeMessage(code: string): string {
  return `Unknown participant code ${code}.`;
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
async function requireParticipant(db: Executor, participantId: string): Promise<ParticipantRow> {
  requireWellFormedId(participantId);
  const row = await findParticipant(db, participantId);
  if (!row) throw new AppError("NOT_FOUND", PARTICIPANT_NOT_FOUND);
  return row;
}

/** As requireParticipant, the row locked until `trx` ends. */
async function requireLockedParticipant(trx: DbTransaction, participantId: string): Promise<ParticipantRow> {
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

/** What staff see of a participant: code, group and age in months at `day` (ZParticipantBrief). */
export function participantBrief(
  p: Pick<ParticipantRow, "code" | "studyGroup" | "birthDate" | "ageMonths" | "ageRecordedOn">,
  day: string,
): ParticipantBrief {
  return { code: p.code, group: p.studyGroup, ageMonthsAtRecording: ageInMonthsOn(p, day) };
}

/**
 * Decision 024 (admin): links an audio to a participant and a session day, or unlinks it
 * (participantId null: both cleared), under the audio's row lock. Refuses (BAD_REQUEST 'This audio
 * is labelled Control but participant P0042 is in the Dementia group.', nothing changed) when the
 * audio's category and the participant's group differ; NOT_FOUND for an unknown audio or
 * participant. Audited audio.participant_linked (detail: filename, participantCode or null,
 * sessionDate) with an 'audio.changed' live event. Returns the audio id, the brief staff now see,
 * and the session day.
 */
export async function linkAudio(
  deps: AppDeps,
  user: SessionUser,
  input: { audioId: string; participantId: string | null; sessionDate: string | null },
): Promise<LinkAudioResult> {
  requireAdmin(user);
  const change = deps.db.transaction().execute(async (trx) => {
    const { audio } = await lockAudioAccess(trx, user, input.audioId);
    const participant = input.participantId === null ? null : await requireParticipant(trx, input.participantId);
    if (participant && participant.studyGroup !== audio.category) {
      throw new AppError(
        "BAD_REQUEST",
        categoryMismatchMessage(audio.category, participant.code, participant.studyGroup),
      );
    }
    const sessionDate = participant ? input.sessionDate : null;
    await setAudioParticipant(trx, audio.id, { participantId: participant?.id ?? null, sessionDate });
    await insertAuditEntry(trx, user.id, "audio.participant_linked", "audio", audio.id, {
      filename: audio.filename,
      participantCode: participant?.code ?? null,
      sessionDate,
    });
    await recordAudioEvent(trx, "audio.changed", audio.id);
    const day = sessionDate ?? dayIn(deps.timezone ?? "UTC", audio.createdAt);
    return {
      message: participant
        ? `${audio.filename} is linked to participant ${participant.code}.`
        : `${audio.filename} is no longer linked to a participant.`,
      audioId: audio.id,
      participant: participant ? participantBrief(participant, day) : null,
      sessionDate,
    };
  });
  return publishAfter(deps, change);
}

/** The optional participant fields of an audio upload (`participant_code`, `session_date`), checked for form. */
export interface UploadParticipantFields {
  participantCode: string | null;
  sessionDate: string | null;
}

/**
 * Decision 024: reads an AUDIO upload's `participant_code` (any case) and `session_date`
 * (YYYY-MM-DD) form fields; empty or absent fields are null. Throws BAD_REQUEST for a malformed
 * code or day, or a day without a code. Touches no database.
 */
export function uploadParticipantFields(fields: Record<string, string>): UploadParticipantFields {
  const code = (fields.participant_code ?? "").trim();
  const day = (fields.session_date ?? "").trim();
  if (code !== "" && !isParticipantCode(code)) throw new AppError("BAD_REQUEST", PARTICIPANT_CODE_MESSAGE);
  if (day !== "") {
    const parsed = ZDay.safeParse(day);
    if (!parsed.success) throw new AppError("BAD_REQUEST", `session_date: ${parsed.error.issues[0]?.message ?? ""}`);
    if (code === "") throw new AppError("BAD_REQUEST", SESSION_DATE_NEEDS_PARTICIPANT);
  }
  return { participantCode: code === "" ? null : code, sessionDate: day === "" ? null : day };
}

/**
 * Decision 024: the participant an audio upload names, checked against the audio's category before
 * anything is stored: null when the upload names none. Throws BAD_REQUEST 'Unknown participant code
 * P0042.' and the category mismatch message.
 */
export async function uploadParticipant(
  db: Executor,
  fields: UploadParticipantFields,
  category: Category,
): Promise<ParticipantRow | null> {
  if (fields.participantCode === null) return null;
  const participant = await findParticipantByCode(db, fields.participantCode);
  if (!participant) throw new AppError("BAD_REQUEST", unknownCodeMessage(fields.participantCode));
  if (participant.studyGroup !== category) {
    throw new AppError("BAD_REQUEST", categoryMismatchMessage(category, participant.code, participant.studyGroup));
  }
  return participant;
}

/** The name a consent document is kept under: the uploaded file's base name (at most 200 characters), or consent.pdf. */
function documentName(originalName: string): string {
  const base = path.posix.basename(originalName.replace(/\\/g, "/")).trim();
  const name = base === "" || base === "blob" ? "consent.pdf" : base.slice(-200);
  return name.toLowerCase().endsWith(".pdf") ? name : `${name}.pdf`;
}

/**
 * Decision 024 (admin): stores a participant's consent document, a PDF by its content (file-type),
 * as `consent-documents/{participantId}/{uuid}.pdf`, fully written before the row points at it;
 * the previous document is removed after the commit. Audited participant.consent_document_attached
 * (detail: code, replaced). The temp file is removed in every case. Throws NOT_FOUND, BAD_REQUEST
 * 'Unknown id.' or when no file was sent, UNSUPPORTED_MEDIA_TYPE 'The consent document must be a PDF file.'.
 * Returns the document's name.
 */
export async function attachConsentDocument(
  deps: AppDeps,
  user: SessionUser,
  input: { participantId: string; file: { tempFile: string; originalName: string } | null },
): Promise<{ consentDocumentName: string }> {
  requireAdmin(user);
  const file = input.file;
  if (!file) throw new AppError("BAD_REQUEST", CONSENT_DOCUMENT_REQUIRED);
  const previous = await commitWithFile(
    deps.db,
    async (trx, store) => {
      const participant = await requireLockedParticipant(trx, input.participantId);
      if ((await fileTypeFromFile(file.tempFile))?.ext !== "pdf") {
        throw new AppError("UNSUPPORTED_MEDIA_TYPE", CONSENT_DOCUMENT_NOT_PDF);
      }
      const key = `consent-documents/${participant.id}/${randomUUID()}.pdf`;
      const name = documentName(file.originalName);
      await store(adoptedUpload(deps.storage, file.tempFile, key));
      await setConsentDocument(trx, participant.id, { key, name });
      await insertAuditEntry(trx, user.id, "participant.consent_document_attached", "participant", participant.id, {
        code: participant.code,
        replaced: participant.consentDocumentKey !== null,
      });
      return { key: participant.consentDocumentKey, name };
    },
    { tempFile: file.tempFile },
  );
  if (previous.key) await deps.storage.delete(previous.key).catch(() => undefined);
  return { consentDocumentName: previous.name };
}

/** Decision 024 (admin): the consent document's storage key and name. NOT_FOUND for an unknown participant or none. */
export async function consentDocument(
  deps: AppDeps,
  user: SessionUser,
  participantId: string,
): Promise<{ key: string; name: string }> {
  requireAdmin(user);
  const row = await requireParticipant(deps.db, participantId);
  if (!row.consentDocumentKey) throw new AppError("NOT_FOUND", NO_CONSENT_DOCUMENT);
  return { key: row.consentDocumentKey, name: row.consentDocumentName ?? "consent.pdf" };
}

/**
 * Decision 024 (admin): removes the participant's consent document (row first, then the file),
 * audited participant.consent_document_removed. NOT_FOUND for an unknown participant or none.
 */
export async function removeConsentDocument(deps: AppDeps, user: SessionUser, participantId: string): Promise<void> {
  requireAdmin(user);
  const key = await deps.db.transaction().execute(async (trx) => {
    const row = await requireLockedParticipant(trx, participantId);
    if (!row.consentDocumentKey) throw new AppError("NOT_FOUND", NO_CONSENT_DOCUMENT);
    await setConsentDocument(trx, row.id, { key: null, name: null });
    await insertAuditEntry(trx, user.id, "participant.consent_document_removed", "participant", row.id, {
      code: row.code,
    });
    return row.consentDocumentKey;
  });
  await deps.storage.delete(key).catch(() => undefined);
}
