import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { Executor } from "../../connection";
import type { ConsentStatus } from "@tafsiri/domain";
import type { Category, DB, ExportStatusChoice } from "../../schema";

/**
 * What an export selects (decision 019, amended by decision 024): the approved work of its choice,
 * the consent gate, and one summary of it (how many audios, how many left out and why, and the hash
 * of every source its files are made of).
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

/**
 * The submissions an export of `s` selects (decision 024): its approved work that the consent gate
 * lets in, joined to task, audio and participant, without columns (selected-audios.ts reads them).
 */
export function selected(db: Executor, s: ExportSelection) {
  return approvedWork(db, s).where((eb) => consentAllows(eb, s.includeRestricted));
}

/**
 * SQL: the duration in seconds of the submission's recording (the translated recording its
 * recorded_audio points at, through translated_recordings_submission_idx) while that recording is
 * Approved; null otherwise, or while its duration is not known.
 */
export function approvedRecordingSeconds(eb: ExpressionBuilder<DB, "submissions">) {
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
 * Decision 019 "Reuse by content", amended by decision 024.
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
