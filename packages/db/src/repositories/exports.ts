import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { Executor } from "../connection";
import type { Category, DB, ExportState, ExportStatusChoice } from "../schema";
import { countedPage, countRows, type Page } from "./pagination";

/**
 * Dataset exports (issue 12 Build 1): the exports table, the selection of approved work an export
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
}

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
 * The newest finished export of a choice whose zip is still downloadable at `now`, or null (a new
 * export of the same choice reuses its archive or its files).
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

/** The submissions an export selects (joined to their task and audio), without columns. */
function selected(db: Executor, s: ExportSelection) {
  let q = db
    .selectFrom("submissions")
    .innerJoin("tasks", "tasks.id", "submissions.taskId")
    .innerJoin("audios", "audios.id", "tasks.audioId")
    .where("submissions.translationScriptApprovalStatus", "=", "Approved")
    .where("submissions.translationScript", "is not", null);
  if (s.statusChoice === "completed") q = q.where("tasks.isComplete", "=", true);
  if (s.category) q = q.where("audios.category", "=", s.category);
  if (s.approvedFrom) q = q.where((eb) => eb(approvalTime(eb, s.statusChoice), ">=", s.approvedFrom));
  if (s.approvedBefore) q = q.where((eb) => eb(approvalTime(eb, s.statusChoice), "<", s.approvedBefore));
  return q as SelectQueryBuilder<DB, "submissions" | "tasks" | "audios", object>;
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
 * What an export of `s` holds, in one query: the number of audios and a hash (md5) of every
 * file's source (audio, transcript version, approved recording) and of the durations its manifest
 * lists, in audio id order, so two exports of the same choice can tell whether anything changed
 * (a duration the waveform job found since then makes a new manifest).
 */
export async function exportSelectionSummary(
  db: Executor,
  s: ExportSelection,
): Promise<{ audios: number; sourcesHash: string }> {
  const row = await selected(db, s)
    .select((eb) => [
      eb.fn.countAll<string>().as("audios"),
      sql<string | null>`md5(string_agg(${eb.ref("audios.id")}::text || ':' || ${eb.ref("audios.fileKey")} || ':' ||
        ${eb.ref("submissions.translationScript")} || ':' ||
        case when ${eb.ref("submissions.recordedAudioApprovalStatus")} = 'Approved'
          then coalesce(${eb.ref("submissions.recordedAudio")}, '') else '' end || ':' ||
        coalesce(${eb.ref("audios.durationSeconds")}::text, '') || ':' ||
        coalesce((${approvedRecordingSeconds(eb)})::text, ''), ',' order by ${eb.ref("audios.id")}))`.as("sourcesHash"),
    ])
    .executeTakeFirstOrThrow();
  return { audios: Number(row.audios), sourcesHash: row.sourcesHash ?? "" };
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
    ])
    .orderBy("audios.id")
    .limit(limit);
  if (after !== null) q = q.where("audios.id", ">", after);
  return (await q.execute()) as ExportedAudio[];
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
