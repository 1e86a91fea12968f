import { sql } from "kysely";
import type { Executor } from "../../connection";
import type { CognitiveScore, ConsentStatus, ParticipantGroup, Sex } from "@tafsiri/domain";
import type { Category } from "../../schema";
import { approvedRecordingSeconds, selected, type ExportSelection } from "./selection";

/**
 * The audios an export holds, read a page at a time (decision 019): what each of its files (audio,
 * CHAT file, approved recording) and manifest rows is made of, with the participant it records
 * (decision 024).
 */

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
 * Up to `limit` audios of the selection `s` after audio id `after` (null: from the first), in audio
 * id order (keyset pages, so an export reads its selection a page at a time and never holds it all,
 * decision 019), each with its approved transcript version, approved recording, durations in
 * seconds and participant (decision 024).
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
