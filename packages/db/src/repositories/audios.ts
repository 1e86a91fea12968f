import { sql, type NotNull } from "kysely";
import type { Audio, Category, NewAudio, StageStatus, WaveformStatus } from "../schema";
import type { DbTransaction, Executor } from "../connection";
import { withGenericPlan } from "../generic-plans";
import { countOfKey, LIST_COUNT_KEYS } from "./list-counts";
import { anchoredPageIds } from "./page-anchors";
import { pageFromNearerEnd } from "./page-ends";
import { countedPage, isOneOf, type Page } from "./pagination";

/** The audio with this id, or undefined. */
export function findAudio(db: Executor, id: string): Promise<Audio | undefined> {
  return db.selectFrom("audios").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The audio with this id, its row locked (FOR UPDATE) until `trx` ends; undefined when there is none. */
export function lockAudio(trx: DbTransaction, id: string): Promise<Audio | undefined> {
  return trx.selectFrom("audios").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
}

/** True when an audio already has this filename (unique index on filename). */
export async function filenameExists(db: Executor, filename: string): Promise<boolean> {
  const row = await db.selectFrom("audios").select("id").where("filename", "=", filename).executeTakeFirst();
  return row !== undefined;
}

/** Inserts an audio and returns it. */
export function insertAudio(db: Executor, values: NewAudio): Promise<Audio> {
  return db.insertInto("audios").values(values).returningAll().executeTakeFirstOrThrow();
}

/** Records who opened the audio last and when (SPEC §4). */
export async function setLastOpened(db: Executor, id: string, userId: string, at: Date): Promise<void> {
  await db.updateTable("audios").set({ lastOpenedBy: userId, timeLastOpened: at }).where("id", "=", id).execute();
}

/** Points the audio at its initial transcript's stored text. */
export async function setTranscriptKey(db: Executor, id: string, key: string): Promise<void> {
  await db.updateTable("audios").set({ transcriptKey: key }).where("id", "=", id).execute();
}

/** Deletes the audio; its task, submission, versions, recordings, comments and recommendations cascade. */
export async function deleteAudio(db: Executor, id: string): Promise<void> {
  await db.deleteFrom("audios").where("id", "=", id).execute();
}

/**
 * Every storage key that belongs to the audio: its file, its initial transcript, each transcript
 * version, each translated recording, and the peaks of the audio and its recordings (one query).
 */
export async function listAudioFileKeys(db: Executor, audioId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("audios")
    .select("audios.fileKey as key")
    .where("audios.id", "=", audioId)
    .unionAll(
      db
        .selectFrom("audios")
        .select("audios.transcriptKey as key")
        .where("audios.id", "=", audioId)
        .where("audios.transcriptKey", "is not", null)
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(
      db
        .selectFrom("transcriptVersions")
        .innerJoin("submissions", "submissions.id", "transcriptVersions.submissionId")
        .innerJoin("tasks", "tasks.id", "submissions.taskId")
        .select("transcriptVersions.fileKey as key")
        .where("tasks.audioId", "=", audioId),
    )
    .unionAll(
      db
        .selectFrom("translatedRecordings")
        .innerJoin("submissions", "submissions.id", "translatedRecordings.submissionId")
        .innerJoin("tasks", "tasks.id", "submissions.taskId")
        .select("translatedRecordings.fileKey as key")
        .where("tasks.audioId", "=", audioId),
    )
    .unionAll(
      db
        .selectFrom("audios")
        .select("audios.peaksKey as key")
        .where("audios.id", "=", audioId)
        .where("audios.peaksKey", "is not", null)
        .$narrowType<{ key: NotNull }>(),
    )
    .unionAll(
      db
        .selectFrom("translatedRecordings")
        .innerJoin("submissions", "submissions.id", "translatedRecordings.submissionId")
        .innerJoin("tasks", "tasks.id", "submissions.taskId")
        .select("translatedRecordings.peaksKey as key")
        .where("tasks.audioId", "=", audioId)
        .where("translatedRecordings.peaksKey", "is not", null)
        .$narrowType<{ key: NotNull }>(),
    )
    .execute();
  return rows.map((r) => r.key);
}

/** An audio with its task, assignee and last opener, as the Audio view needs it (SPEC §2.11). */
export interface AudioDetailRow {
  id: string;
  filename: string;
  category: Category;
  fileKey: string;
  mimeType: string;
  transcriptKey: string | null;
  timeLastOpened: Date | null;
  /** Who opened it last (SPEC §3 lastOpenedBy, a user id) and their username; null when nobody or deleted. */
  lastOpenedById: string | null;
  lastOpenedByUsername: string | null;
  waveformStatus: WaveformStatus;
  peaksKey: string | null;
  durationSeconds: number | null;
  taskId: string | null;
  assignedToId: string | null;
  assignedToUsername: string | null;
  translationStatus: StageStatus | null;
  recordingStatus: StageStatus | null;
  isComplete: boolean | null;
  createdAt: Date;
  /** The recording session's day (decision 024), YYYY-MM-DD. */
  sessionDate: string | null;
  /** The linked participant's code, group and age fields (decision 024); null when not linked. */
  participantCode: string | null;
  participantGroup: Category | null;
  participantBirthDate: string | null;
  participantAgeMonths: number | null;
  participantAgeRecordedOn: string | null;
}

/** One audio with its task, assignee, last opener and linked participant, or undefined (one query). */
export function findAudioDetail(db: Executor, id: string): Promise<AudioDetailRow | undefined> {
  return db
    .selectFrom("audios")
    .leftJoin("users as opener", "opener.id", "audios.lastOpenedBy")
    .leftJoin("tasks", "tasks.audioId", "audios.id")
    .leftJoin("users as assignee", "assignee.id", "tasks.assignedTo")
    .leftJoin("participants", "participants.id", "audios.participantId")
    .select([
      "audios.id",
      "audios.filename",
      "audios.category",
      "audios.createdAt",
      "audios.sessionDate",
      "participants.code as participantCode",
      "participants.studyGroup as participantGroup",
      "participants.birthDate as participantBirthDate",
      "participants.ageMonths as participantAgeMonths",
      "participants.ageRecordedOn as participantAgeRecordedOn",
      "audios.fileKey",
      "audios.mimeType",
      "audios.transcriptKey",
      "audios.timeLastOpened",
      "opener.id as lastOpenedById",
      "opener.username as lastOpenedByUsername",
      "audios.waveformStatus",
      "audios.peaksKey",
      "audios.durationSeconds",
      "tasks.id as taskId",
      "assignee.id as assignedToId",
      "assignee.username as assignedToUsername",
      "tasks.translationStatus",
      "tasks.recordingStatus",
      "tasks.isComplete",
    ])
    .where("audios.id", "=", id)
    .executeTakeFirst();
}

/** A Manage Audios row (SPEC §2.18); task fields are null when the audio has no task. */
export interface ManagedAudioRow {
  id: string;
  filename: string;
  category: Category;
  hasTranscript: boolean;
  assignedTo: { id: string; username: string } | null;
  translationStatus: StageStatus | null;
  recordingStatus: StageStatus | null;
  isComplete: boolean | null;
  /** Seconds, as decoded by the waveform job; null until then, or when decoding failed. */
  durationSeconds: number | null;
  /** The linked participant's code and the session day (decision 024); null when not linked. */
  participantCode: string | null;
  sessionDate: string | null;
  /** The audio's own source and target languages (decision 035, ISO 639-3); null for the programme's. */
  sourceLanguage: string | null;
  targetLanguage: string | null;
}

/**
 * The audios of a category with their task, assignee, linked participant's code and own languages
 * (decision 035), newest first, one page of `limit`,
 * counted and paginated in one query: the page's ids read from audios_category_idx (category,
 * created_at) in order, then only those rows joined (a deferred join); the count kept in
 * list_counts (audios:<category>).
 */
export async function listAudiosWithTasks(
  db: Executor,
  q: { category: Category; page: number; limit: number },
): Promise<Page<ManagedAudioRow>> {
  // A deep page seeks from its nearest page anchor (decision 030).
  const list = LIST_COUNT_KEYS.audios(q.category) as `audios:${Category}`;
  const pageIds = anchoredPageIds(db, list, q);
  return countedPage(db, {
    total: countOfKey(db, list),
    rows: db
      .selectFrom("audios")
      .leftJoin("tasks", "tasks.audioId", "audios.id")
      .leftJoin("users", "users.id", "tasks.assignedTo")
      .leftJoin("participants", "participants.id", "audios.participantId")
      .select([
        "audios.id",
        "audios.filename",
        "audios.category",
        "audios.transcriptKey",
        "audios.createdAt",
        "audios.durationSeconds",
        "audios.sessionDate",
        "audios.sourceLanguage",
        "audios.targetLanguage",
        "participants.code as participantCode",
        "users.id as assignedToId",
        "users.username as assignedToUsername",
        "tasks.translationStatus",
        "tasks.recordingStatus",
        "tasks.isComplete",
      ])
      .where(isOneOf("audios.id", pageIds))
      .orderBy("audios.createdAt", "desc")
      .orderBy("audios.id", "desc"),
    order: [
      ["createdAt", "desc"],
      ["id", "desc"],
    ],
    page: q.page,
    limit: q.limit,
    paged: true,
    pick: (r) =>
      r.id === null || r.filename === null || r.category === null
        ? null
        : {
            id: r.id,
            filename: r.filename,
            category: r.category,
            hasTranscript: r.transcriptKey !== null,
            assignedTo:
              r.assignedToId && r.assignedToUsername ? { id: r.assignedToId, username: r.assignedToUsername } : null,
            translationStatus: r.translationStatus,
            recordingStatus: r.recordingStatus,
            isComplete: r.isComplete,
            durationSeconds: r.durationSeconds,
            participantCode: r.participantCode,
            sessionDate: r.sessionDate,
            sourceLanguage: r.sourceLanguage,
            targetLanguage: r.targetLanguage,
          },
  });
}

/** An Assign Tasks row (SPEC §2.17): an audio without a task. */
export interface UnassignedAudioRow {
  id: string;
  filename: string;
  /** Seconds, as decoded by the waveform job; null until then, or when decoding failed. */
  durationSeconds: number | null;
}

/**
 * The audios of a category that have no task, by filename, one page of `limit`, counted and
 * paginated in one query, the count kept in list_counts (unassigned:<category>). The page's rows
 * are read index-only from audios_unassigned_page_idx (category, filename) include (id,
 * duration_seconds) where not has_task (migration 20261211000500), from the nearer end of the
 * list (pageFromNearerEnd): a deep page walks index entries only, never the rows it skips, and
 * there is nothing to join. Each row carries its duration in seconds (null while unknown).
 * Marked withGenericPlan: every page and category walks the same index.
 */
export async function listUnassignedAudios(
  db: Executor,
  q: { category: Category; page: number; limit: number },
): Promise<Page<UnassignedAudioRow>> {
  const total = countOfKey(db, LIST_COUNT_KEYS.unassigned(q.category));
  const page = pageFromNearerEnd({
    total,
    walk: (reversed, gate) =>
      db
        .selectFrom("audios")
        .where("audios.category", "=", q.category)
        .where("audios.hasTask", "=", sql.lit(false))
        .where(gate)
        .select(["audios.id", "audios.filename", "audios.durationSeconds"])
        .orderBy("audios.filename", reversed ? "desc" : "asc"),
    page: q.page,
    limit: q.limit,
  });
  const rows = await withGenericPlan(
    db
      .selectFrom(total.as("c"))
      .leftJoinLateral(sql<UnassignedAudioRow>`(${page})`.as("p"), (join) => join.onTrue())
      .select(["p.id", "p.filename", "p.durationSeconds", "c.total"])
      .orderBy("p.filename"),
  ).execute();
  const items: UnassignedAudioRow[] = [];
  for (const r of rows) {
    // The empty page's single row of the count has no audio.
    if (r.id !== null && r.filename !== null)
      items.push({ id: r.id, filename: r.filename, durationSeconds: r.durationSeconds });
  }
  return { items, totalPages: Math.ceil(Number(rows[0]?.total ?? 0) / q.limit) };
}
