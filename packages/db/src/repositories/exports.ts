import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { DbTransaction, Executor } from "../connection";
import type { CognitiveScore, ConsentStatus, ParticipantGroup, Sex } from "@tafsiri/domain";
import type { Category, DB, ExportState, ExportStatusChoice } from "../schema";
import { countedPage, countRows, type Page } from "./pagination";

/**
 * Dataset exports (decision 019): the exports table, the selection of approved work an export
 * writes, and the files a finished export wrote.
 */

/** What an export selects: the choice of the export form. */
export interface ExportSelection {
  /** null: both categories. */
  category: Category | null;
  statusChoice: ExportStatusChoice;
  /** The approval period [from, to) as instants; null: unbounded. */
  approvedFrom: Date | null;
  approvedBefore: Date | null;
  /**
   * The consent gate (decision 024): audios of participants whose consent is `given` are always
   * taken; `restricted` ones only when this is true; every other audio is left out.
   */
  includeRestricted: boolean;
}

/** Why an approved audio was left out of an export (decision 024, the consent gate). */
export const LEFT_OUT_REASONS = [
  "no_participant",
  "consent_not_recorded",
  "consent_withdrawn",
  "consent_restricted",
] as const;
type LeftOutReason = (typeof LEFT_OUT_REASONS)[number];
/** How many approved audios of the selection were left out, by reason. */
export type LeftOutCounts = Record<LeftOutReason, number>;

/** An export as the Export page and `GET /api/exports` show it. */
export interface ExportRow {
  id: string;
  createdAt: Date;
  createdById: string | null;
  createdByUsername: string | null;
  category: Category | null;
  statusChoice: ExportStatusChoice;
  approvedFrom: string | null;
  approvedTo: string | null;
  chatSettings: unknown;
  choiceKey: string;
  contentKey: string | null;
  state: ExportState;
  done: number;
  total: number;
  fileKey: string | null;
  sizeBytes: number | null;
  reusedFiles: number;
  reusedArchive: boolean;
  error: string | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
  updatedAt: Date;
  /** Whether participants with 'restricted' consent were included (decision 024). */
  includeRestricted: boolean;
  /** When a participant in it withdrew consent (its link then answers 410); null otherwise. */
  supersededAt: Date | null;
}

function exportColumns(db: Executor) {
  return db.selectFrom("exports").leftJoin("users", "users.id", "exports.createdBy").select([
    "exports.id",
    "exports.createdAt",
    "exports.createdBy as createdById",
    "users.username as createdByUsername",
    "exports.category",
    "exports.statusChoice",
    "exports.approvedFrom",
    "exports.approvedTo",
    "exports.chatSettings",
    "exports.choiceKey",
    "exports.contentKey",
    "exports.state",
    "exports.done",
    // Not "total": countedPage's count has that name.
    "exports.total as audios",
    "exports.fileKey",
    "exports.sizeBytes",
    "exports.reusedFiles",
    "exports.reusedArchive",
    "exports.error",
    "exports.finishedAt",
    "exports.expiresAt",
    "exports.updatedAt",
    "exports.includeRestricted",
    "exports.supersededAt",
  ]);
}

/** An export as read: its counts may come back as strings. */
type ReadExportRow = Omit<ExportRow, "sizeBytes" | "done" | "total" | "reusedFiles"> & {
  sizeBytes: string | number | null;
  done: number | string;
  audios: number | string;
  reusedFiles: number | string;
};

function toExportRow(row: ReadExportRow): ExportRow {
  const { audios, ...rest } = row;
  return {
    ...rest,
    sizeBytes: row.sizeBytes === null ? null : Number(row.sizeBytes),
    done: Number(row.done),
    total: Number(audios),
    reusedFiles: Number(row.reusedFiles),
  };
}

/** Inserts a running export of the choice; returns its id. */
export async function insertExport(
  db: Executor,
  values: {
    createdBy: string;
    category: Category | null;
    statusChoice: ExportStatusChoice;
    approvedFrom: string | null;
    approvedTo: string | null;
    chatSettings: unknown;
    choiceKey: string;
    includeRestricted: boolean;
  },
): Promise<string> {
  const row = await db
    .insertInto("exports")
    .values({ ...values, chatSettings: JSON.stringify(values.chatSettings) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** One export, or null when there is none with that id. */
export async function findExport(db: Executor, id: string): Promise<ExportRow | null> {
  const row = await exportColumns(db).where("exports.id", "=", id).executeTakeFirst();
  return row ? toExportRow(row) : null;
}

/** Page `page` (from 1) of every export, newest first, `limit` a page (index exports_created_at_idx). */
export function listExportPage(db: Executor, q: { page: number; limit: number }): Promise<Page<ExportRow>> {
  const rows = exportColumns(db).orderBy("exports.createdAt", "desc").orderBy("exports.id", "desc");
  return countedPage(db, {
    total: countRows(db.selectFrom("exports")),
    rows,
    order: [
      ["createdAt", "desc"],
      ["id", "desc"],
    ],
    page: q.page,
    limit: q.limit,
    pick: (r) => (r.id === null ? null : toExportRow(r as ReadExportRow)),
  });
}

/** The advisory lock key of export starts (the other keys in use: job-locks.ts's JOB_LOCK_KEYS). */
const EXPORT_START_LOCK = 7_240_318;

/**
 * Takes the transaction-scoped lock that makes "is this choice running? is there room? then start
 * it" one step: two starts at once (a double click, two admins, two processes) are taken one after
 * the other, so the second joins the export the first started instead of starting its own, and
 * MAX_RUNNING_EXPORTS holds. PGlite runs one transaction at a time; PostgreSQL needs the lock.
 * Held until the transaction ends.
 */
export async function lockExportStarts(trx: DbTransaction): Promise<void> {
  await sql`select pg_advisory_xact_lock(${sql.lit(EXPORT_START_LOCK)})`.execute(trx);
}

/** The running export of a choice, if any (a second request for the same choice joins it). */
export async function runningExportOf(db: Executor, choiceKey: string): Promise<string | null> {
  const row = await db
    .selectFrom("exports")
    .select("id")
    .where("choiceKey", "=", choiceKey)
    .where("state", "=", "running")
    .orderBy("createdAt", "desc")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** How many exports are running now. */
export async function countRunningExports(db: Executor): Promise<number> {
  const row = await db
    .selectFrom("exports")
    .select((s) => s.fn.countAll<string>().as("n"))
    .where("state", "=", "running")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks as failed, with `error`, the running exports whose job has not written for `staleMs`:
 * their process stopped mid-export. Returns how many.
 */
export async function failAbandonedExports(db: Executor, staleMs: number, error: string): Promise<number> {
  const result = await db
    .updateTable("exports")
    .set({ state: "failed", error, finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where("state", "=", "running")
    .where("updatedAt", "<", sql<Date>`now() - make_interval(secs => ${staleMs / 1000})`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Records a running export's progress (`done` of `total` audios); this is also its heartbeat. */
export async function setExportProgress(db: Executor, id: string, done: number, total: number): Promise<void> {
  await db
    .updateTable("exports")
    .set({ done, total, updatedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .where("state", "=", "running")
    .execute();
}

/** Records what the running export will write: `total` audios and the content's hash. */
export async function setExportContent(
  db: Executor,
  id: string,
  total: number,
  contentKey: string | null,
): Promise<void> {
  await db
    .updateTable("exports")
    .set({ total, contentKey, updatedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .execute();
}

/** Marks an export done: its zip at `fileKey` (`sizeBytes` bytes), downloadable until `expiresAt`. */
export async function finishExport(
  db: Executor,
  id: string,
  result: { fileKey: string; sizeBytes: number; expiresAt: Date; reusedFiles: number; reusedArchive: boolean },
): Promise<void> {
  await db
    .updateTable("exports")
    .set({
      state: "done",
      done: sql<number>`total`,
      fileKey: result.fileKey,
      sizeBytes: result.sizeBytes,
      reusedFiles: result.reusedFiles,
      reusedArchive: result.reusedArchive,
      expiresAt: result.expiresAt,
      finishedAt: sql<Date>`now()`,
      updatedAt: sql<Date>`now()`,
    })
    .where("id", "=", id)
    .execute();
}

/** Marks an export failed with a message for the Export page. */
export async function failExport(db: Executor, id: string, error: string): Promise<void> {
  await db
    .updateTable("exports")
    .set({ state: "failed", error, finishedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()` })
    .where("id", "=", id)
    .where("state", "=", "running")
    .execute();
}

/**
 * The newest finished, not superseded export of a choice whose zip is still downloadable at `now`,
 * or null (a new export of the same choice reuses its archive or its files).
 */
export async function latestFinishedExport(
  db: Executor,
  choiceKey: string,
  now: Date,
): Promise<{ id: string; contentKey: string | null; fileKey: string; sizeBytes: number; expiresAt: Date } | null> {
  const row = await db
    .selectFrom("exports")
    .select(["id", "contentKey", "fileKey", "sizeBytes", "expiresAt"])
    .where("choiceKey", "=", choiceKey)
    .where("state", "=", "done")
    .where("expiresAt", ">", now)
    .where("supersededAt", "is", null)
    .orderBy("finishedAt", "desc")
    .executeTakeFirst();
  if (!row?.fileKey || row.sizeBytes === null || row.expiresAt === null) return null;
  return {
    id: row.id,
    contentKey: row.contentKey,
    fileKey: row.fileKey,
    sizeBytes: Number(row.sizeBytes),
    expiresAt: row.expiresAt,
  };
}

/** A file an export wrote: its path in the zip, its source, size in bytes and SHA-256 (hex). */
export interface ExportFileRecord {
  path: string;
  source: string;
  sizeBytes: number;
  sha256: string;
}

/** Records the files a finished export wrote, 500 rows per statement. */
export async function insertExportFiles(db: Executor, exportId: string, files: ExportFileRecord[]): Promise<void> {
  for (let i = 0; i < files.length; i += 500) {
    await db
      .insertInto("exportFiles")
      .values(files.slice(i, i + 500).map((f) => ({ exportId, ...f })))
      .execute();
  }
}

/** The files export `exportId` wrote, by path. */
export async function exportFileRecords(db: Executor, exportId: string): Promise<Map<string, ExportFileRecord>> {
  const rows = await db
    .selectFrom("exportFiles")
    .select(["path", "source", "sizeBytes", "sha256"])
    .where("exportId", "=", exportId)
    .execute();
  return new Map(rows.map((r) => [r.path, { ...r, sizeBytes: Number(r.sizeBytes) }]));
}

/** The approval time an export's period applies to: the transcript's, or for completed tasks the later of the two. */
function approvalTime(eb: ExpressionBuilder<DB, "submissions">, statusChoice: ExportStatusChoice) {
  return statusChoice === "completed"
    ? sql<Date>`greatest(${eb.ref("submissions.transcriptReviewedAt")}, ${eb.ref("submissions.recordingReviewedAt")})`
    : eb.ref("submissions.transcriptReviewedAt");
}

type Selected = "submissions" | "tasks" | "audios" | "participants";

/**
 * The approved work an export's choice takes before the consent gate: submissions joined to their
 * task, audio and the audio's participant (null columns when none is linked), without columns.
 */
function approvedWork(db: Executor, s: ExportSelection) {
  let q = db
    .selectFrom("submissions")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .innerJoin("audios", "audios.id", "tasks.audioId")
    .leftJoin("participants", "participants.id", "audios.participantId")
    .where("submissions.translationScriptApprovalStatus", "=", "Approved")
    .where("submissions.translationScript", "is not", null);
  if (s.statusChoice === "completed") q = q.where("tasks.isComplete", "=", true);
  if (s.category) q = q.where("audios.category", "=", s.category);
  if (s.approvedFrom) q = q.where((eb) => eb(approvalTime(eb, s.statusChoice), ">=", s.approvedFrom));
  if (s.approvedBefore) q = q.where((eb) => eb(approvalTime(eb, s.statusChoice), "<", s.approvedBefore));
  return q as SelectQueryBuilder<DB, Selected, object>;
}

/**
 * SQL, the consent gate (decision 024): true when the audio's participant consented (`given`, or
 * `restricted` too when the export includes it); false without a participant or consent.
 */
function consentAllows(eb: ExpressionBuilder<DB, Selected>, includeRestricted: boolean) {
  const allowed: ConsentStatus[] = includeRestricted ? ["given", "restricted"] : ["given"];
  return sql<boolean>`coalesce(${eb.ref("participants.consentStatus")} in (${sql.join(allowed)}), false)`;
}

/** The submissions an export selects: its approved work that the consent gate lets in. */
function selected(db: Executor, s: ExportSelection) {
  return approvedWork(db, s).where((eb) => consentAllows(eb, s.includeRestricted));
}

/**
 * SQL: the duration in seconds of the submission's recording (the translated recording its
 * recorded_audio points at, through translated_recordings_submission_idx) while that recording is
 * Approved; null otherwise, or while its duration is not known.
 */
function approvedRecordingSeconds(eb: ExpressionBuilder<DB, "submissions">) {
  return sql<number | null>`case when ${eb.ref("submissions.recordedAudioApprovalStatus")} = 'Approved' then
    (select max(r.duration_seconds) from translated_recordings r
     where r.submission_id = ${eb.ref("submissions.id")} and r.file_key = ${eb.ref("submissions.recordedAudio")}) end`;
}

/**
 * SQL: what a participant's exported data is made of (every field the manifest and the CHAT file
 * carry: code, group, sex, age, education, languages, scores, consent), as text; '' without one.
 */
function participantSource(eb: ExpressionBuilder<DB, Selected>) {
  const p = (column: keyof DB["participants"] & string) => eb.ref(`participants.${column}`);
  return sql<string>`coalesce(row(${p("id")}, ${p("code")}, ${p("studyGroup")}, ${p("sex")}, ${p("birthDate")},
    ${p("ageMonths")}, ${p("ageRecordedOn")}, ${p("educationYears")}, ${p("languages")}, ${p("scores")},
    ${p("consentStatus")})::text, '')`;
}

/**
 * What an export of `s` holds, in one query over its approved work: the number of audios the
 * consent gate lets in, how many it left out and why (LeftOutCounts: no participant linked, or the
 * participant's consent not recorded, withdrawn, or restricted while the export does not include
 * it), and a hash (md5) of every taken file's source (audio, transcript version, approved
 * recording), the durations its manifest lists and its participant's fields and session day, in
 * audio id order, so two exports of the same choice can tell whether anything changed (a duration
 * the waveform job found, or a participant's edit, makes a new manifest and CHAT file).
 */
export async function exportSelectionSummary(
  db: Executor,
  s: ExportSelection,
): Promise<{ audios: number; leftOut: LeftOutCounts; sourcesHash: string }> {
  const row = await approvedWork(db, s)
    .select((eb) => {
      const allowed = consentAllows(eb, s.includeRestricted);
      const leftOutWith = (status: ConsentStatus) =>
        sql<string>`count(*) filter (where ${eb.ref("participants.consentStatus")} = ${status} and not ${allowed})`;
      return [
        sql<string>`count(*) filter (where ${allowed})`.as("audios"),
        sql<string>`count(*) filter (where ${eb.ref("participants.id")} is null)`.as("noParticipant"),
        leftOutWith("not_recorded").as("consentNotRecorded"),
        leftOutWith("withdrawn").as("consentWithdrawn"),
        leftOutWith("restricted").as("consentRestricted"),
        sql<string | null>`md5(string_agg(${eb.ref("audios.id")}::text || ':' || ${eb.ref("audios.fileKey")} || ':' ||
        ${eb.ref("submissions.translationScript")} || ':' ||
        case when ${eb.ref("submissions.recordedAudioApprovalStatus")} = 'Approved'
          then coalesce(${eb.ref("submissions.recordedAudio")}, '') else '' end || ':' ||
        coalesce(${eb.ref("audios.durationSeconds")}::text, '') || ':' ||
        coalesce((${approvedRecordingSeconds(eb)})::text, '') || ':' ||
        coalesce(${eb.ref("audios.sessionDate")}, '') || ':' || ${participantSource(eb)},
        ',' order by ${eb.ref("audios.id")}) filter (where ${allowed}))`.as("sourcesHash"),
      ];
    })
    .executeTakeFirstOrThrow();
  return {
    audios: Number(row.audios),
    leftOut: {
      no_participant: Number(row.noParticipant),
      consent_not_recorded: Number(row.consentNotRecorded),
      consent_withdrawn: Number(row.consentWithdrawn),
      consent_restricted: Number(row.consentRestricted),
    },
    sourcesHash: row.sourcesHash ?? "",
  };
}

/** One audio of an export, with what its files are made of. */
export interface ExportedAudio {
  audioId: string;
  filename: string;
  category: Category;
  audioKey: string;
  assignee: string | null;
  /** Who recorded the approved recording (the chosen recorder); null without one. */
  recorder: string | null;
  transcriptApprovedAt: Date | null;
  recordingApprovedAt: Date | null;
  /** The approved transcript's storage key (its version) and text. */
  transcriptKey: string;
  transcriptText: string;
  /** The approved recording's storage key; null when the recording is not approved. */
  recordingKey: string | null;
  /** The audio's duration in seconds; null while not known (not decoded yet, or undecodable). */
  audioDurationSeconds: number | null;
  /** The approved recording's duration in seconds; null without an approved recording or while not known. */
  recordingDurationSeconds: number | null;
  /** The recording session's day (YYYY-MM-DD); null when not given. */
  sessionDate: string | null;
  /** The participant the audio records (the consent gate lets in only linked audios). Never names or notes. */
  participant: ExportedParticipant;
}

/** What an export writes of a participant (decision 024): no notes, no consent document. */
export interface ExportedParticipant {
  id: string;
  code: string;
  group: ParticipantGroup;
  sex: Sex | null;
  birthDate: string | null;
  ageMonths: number | null;
  ageRecordedOn: string | null;
  educationYears: number | null;
  /** ISO 639-3 codes. */
  languages: string[];
  scores: CognitiveScore[];
  consentStatus: ConsentStatus;
}

/**
 * Up to `limit` audios of the selection after audio id `after` (null: from the first), in audio
 * id order (keyset pages, so an export reads its selection a page at a time).
 */
export async function exportSelectionPage(
  db: Executor,
  s: ExportSelection,
  after: string | null,
  limit: number,
): Promise<ExportedAudio[]> {
  let q = selected(db, s)
    .innerJoin("transcriptVersions as version", (join) =>
      join
        .onRef("version.submissionId", "=", "submissions.id")
        .onRef("version.fileKey", "=", sql.ref("submissions.translationScript")),
    )
    .leftJoin("users as assignee", "assignee.id", "tasks.assignedTo")
    .leftJoin("users as recorder", "recorder.id", "submissions.recordedBy")
    .select((eb) => [
      "audios.id as audioId",
      "audios.filename",
      "audios.category",
      "audios.fileKey as audioKey",
      "assignee.username as assignee",
      "submissions.transcriptReviewedAt as transcriptApprovedAt",
      "version.fileKey as transcriptKey",
      "version.text as transcriptText",
      sql<string | null>`case when ${eb.ref("submissions.recordedAudioApprovalStatus")} = 'Approved'
        then ${eb.ref("submissions.recordedAudio")} end`.as("recordingKey"),
      sql<string | null>`case when ${eb.ref("submissions.recordedAudioApprovalStatus")} = 'Approved'
        then ${eb.ref("recorder.username")} end`.as("recorder"),
      sql<Date | null>`case when ${eb.ref("submissions.recordedAudioApprovalStatus")} = 'Approved'
        then ${eb.ref("submissions.recordingReviewedAt")} end`.as("recordingApprovedAt"),
      "audios.durationSeconds as audioDurationSeconds",
      approvedRecordingSeconds(eb).as("recordingDurationSeconds"),
      "audios.sessionDate",
      "participants.id as participantId",
      "participants.code as participantCode",
      "participants.studyGroup as participantGroup",
      "participants.sex as participantSex",
      "participants.birthDate as participantBirthDate",
      "participants.ageMonths as participantAgeMonths",
      "participants.ageRecordedOn as participantAgeRecordedOn",
      "participants.educationYears as participantEducationYears",
      "participants.languages as participantLanguages",
      "participants.scores as participantScores",
      "participants.consentStatus as participantConsentStatus",
    ])
    .orderBy("audios.id")
    .limit(limit);
  if (after !== null) q = q.where("audios.id", ">", after);
  const rows = await q.execute();
  return rows.map((row) => {
    const {
      participantId,
      participantCode,
      participantGroup,
      participantSex,
      participantBirthDate,
      participantAgeMonths,
      participantAgeRecordedOn,
      participantEducationYears,
      participantLanguages,
      participantScores,
      participantConsentStatus,
      ...audio
    } = row;
    // The consent gate lets in only audios with a participant: its columns are never null here.
    return {
      ...(audio as Omit<ExportedAudio, "participant">),
      participant: {
        id: participantId!,
        code: participantCode!,
        group: participantGroup!,
        sex: participantSex,
        birthDate: participantBirthDate,
        ageMonths: participantAgeMonths,
        ageRecordedOn: participantAgeRecordedOn,
        educationYears: participantEducationYears,
        languages: participantLanguages ?? [],
        scores: participantScores ?? [],
        consentStatus: participantConsentStatus!,
      },
    };
  });
}

/** The download name of an export's zip, when `key` is one: `tafsiri-export-{date}.zip`. */
export async function exportFileName(db: Executor, key: string): Promise<string | null> {
  const row = await db
    .selectFrom("exports")
    .select("finishedAt")
    .where("fileKey", "=", key)
    .orderBy("finishedAt", "asc")
    .executeTakeFirst();
  if (!row) return null;
  return `tafsiri-export-${(row.finishedAt ?? new Date()).toISOString().slice(0, 10)}.zip`;
}

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

/** A participant's code, or null when there is none with that id. */
export async function participantCodeOf(db: Executor, participantId: string): Promise<string | null> {
  const row = await db.selectFrom("participants").select("code").where("id", "=", participantId).executeTakeFirst();
  return row?.code ?? null;
}

/**
 * Whether the zip stored at `key` belongs to a superseded export (one of the exports offering it:
 * a later export of the same choice may offer an earlier zip again).
 */
export async function isSupersededExportFile(db: Executor, key: string): Promise<boolean> {
  const row = await db
    .selectFrom("exports")
    .select("id")
    .where("fileKey", "=", key)
    .where("supersededAt", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}
