import { ageInMonthsOn, isParticipantCode, PARTICIPANT_CODE_MESSAGE, type ParticipantGroup } from "@tafsiri/domain";
import type { Category, Executor, Participant as ParticipantRow } from "@tafsiri/db";
import { insertAuditEntry } from "@tafsiri/db/repositories/audit-log";
import { findParticipantByCode, setAudioParticipant } from "@tafsiri/db/repositories/participants";
import type { AppDeps, SessionUser } from "../context";
import { AppError } from "../errors/app-error";
import { publishAfter, recordAudioEvent } from "../live/record";
import { ZDay, type LinkAudioResult, type ParticipantBrief } from "../schemas/participants";
import { lockAudioAccess, requireAdmin } from "./access";
import { dayIn, requireParticipant } from "./participants";

/**
 * An audio's participant (decision 024): the admin's link, what staff see of it, and the
 * participant fields of an upload.
 */

const SESSION_DATE_NEEDS_PARTICIPANT = "A session date is given only with a participant.";

/** 400 when an audio's category and a participant's group differ. */
function categoryMismatchMessage(category: Category, code: string, group: ParticipantGroup): string {
  return `This audio is labelled ${category} but participant ${code} is in the ${group} group.`;
}

/** 400 for an upload naming a participant code no participant has. */
function unknownCodeMessage(code: string): string {
  return `Unknown participant code ${code}.`;
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
