import { z } from "zod";
import {
  CONSENT_STATUSES,
  LANGUAGE_CODE_PATTERN,
  PARTICIPANT_CODE_PATTERN,
  PARTICIPANT_GROUPS,
  SCORE_INSTRUMENT_KEYS,
  SCORE_INSTRUMENTS,
  SEXES,
} from "@tafsiri/domain";
import { ZId } from "./common";

/**
 * Research participants (decision 024): the shapes of the `participants` procedures and of
 * `/api/participants`. Admins only, but for `ZParticipantBrief`, what staff see of an audio's
 * participant (code, group, age at recording).
 */

export const PARTICIPANT_CODE_MESSAGE =
  "A participant code is 1 to 20 letters, digits, '_' or '-' (a pseudonym such as P0042, never a name).";
const ZParticipantCode = z
  .string({ error: "Participant code is required" })
  .trim()
  .min(1, "Participant code is required")
  .regex(PARTICIPANT_CODE_PATTERN, PARTICIPANT_CODE_MESSAGE);
const ZParticipantGroup = z.enum(PARTICIPANT_GROUPS, { message: "Group must be Control or Dementia." });
const ZSex = z.enum(SEXES, { message: "Sex must be female or male (or left empty)." });
const ZConsentStatus = z.enum(CONSENT_STATUSES, {
  message: "Consent must be given, restricted, withdrawn or not_recorded.",
});
/** A calendar day, YYYY-MM-DD, that exists. */
export const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "A date is written YYYY-MM-DD.")
  .refine(
    (day) =>
      !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day),
    "This date does not exist.",
  );
const ZLanguageCode = z
  .string()
  .regex(LANGUAGE_CODE_PATTERN, "Languages are ISO 639-3 codes of three lowercase letters.");

const ZCognitiveScore = z
  .object({
    instrument: z.enum(SCORE_INSTRUMENT_KEYS as [string, ...string[]], {
      message: `The instrument must be one of ${SCORE_INSTRUMENT_KEYS.join(", ")}.`,
    }),
    score: z.number(),
    takenOn: ZDay.nullable(),
  })
  .superRefine((value, ctx) => {
    const range = SCORE_INSTRUMENTS[value.instrument as keyof typeof SCORE_INSTRUMENTS];
    if (range && (value.score < range.min || value.score > range.max)) {
      ctx.addIssue({
        code: "custom",
        path: ["score"],
        message: `${range.label} is scored ${range.min} to ${range.max}.`,
      });
    }
  });

/**
 * What an admin writes of a participant. The age is a date of birth, or years and months on a day
 * (`ageMonths` whole months, `ageRecordedOn` the day; today when omitted). Days are YYYY-MM-DD.
 */
export const ZParticipantFields = z.object({
  code: ZParticipantCode,
  group: ZParticipantGroup,
  sex: ZSex.nullable().default(null),
  birthDate: ZDay.nullable().default(null),
  ageMonths: z.number().int().min(0).max(1800).nullable().default(null),
  ageRecordedOn: ZDay.nullable().default(null),
  educationYears: z
    .number()
    .int()
    .min(0, "Years of education are 0 to 40.")
    .max(40, "Years of education are 0 to 40.")
    .nullable()
    .default(null),
  languages: z.array(ZLanguageCode).max(10).default([]),
  scores: z.array(ZCognitiveScore).max(50).default([]),
  notes: z.string().max(5000, "Notes are at most 5,000 characters.").default(""),
  consentStatus: ZConsentStatus.default("not_recorded"),
  consentDate: ZDay.nullable().default(null),
});
export type ParticipantFields = z.infer<typeof ZParticipantFields>;

/** An update names the participant and gives every field (the side panel sends the whole form). */
export const ZUpdateParticipantInput = ZParticipantFields.extend({ participantId: ZId });
export const ZParticipantIdInput = z.object({ participantId: ZId });

/** A participant as admins see it. `ageMonthsToday`: the age now (null when unknown). */
export const ZParticipant = z.object({
  id: z.string(),
  code: z.string(),
  group: ZParticipantGroup,
  sex: ZSex.nullable(),
  birthDate: z.string().nullable(),
  ageMonths: z.number().int().nullable(),
  ageRecordedOn: z.string().nullable(),
  ageMonthsToday: z.number().int().nullable(),
  educationYears: z.number().int().nullable(),
  languages: z.array(z.string()),
  scores: z.array(z.object({ instrument: z.string(), score: z.number(), takenOn: z.string().nullable() })),
  notes: z.string(),
  consentStatus: ZConsentStatus,
  consentDate: z.string().nullable(),
  /** The consent document's file name, null when none; downloaded from GET /api/participants/{id}/consent-document (admins). */
  consentDocumentName: z.string().nullable(),
  /** How many audios are linked to the participant. */
  audioCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Participant = z.infer<typeof ZParticipant>;

/** The list: search is a code prefix (case-insensitive); filters by group and consent; 20 a page by default. */
export const ZListParticipantsInput = z.object({
  search: z.string().trim().max(20).optional(),
  group: ZParticipantGroup.optional(),
  consent: ZConsentStatus.optional(),
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(100).default(20),
});
export const ZParticipantListPage = z.object({
  items: z.array(ZParticipant),
  total: z.number().int(),
  totalPages: z.number().int(),
});

/** What staff (and everyone who may open the audio) see of its participant: nothing else. */
export const ZParticipantBrief = z.object({
  code: z.string(),
  group: ZParticipantGroup,
  /** Whole months at the session's day (or the audio's upload day when there is none); null when unknown. */
  ageMonthsAtRecording: z.number().int().nullable(),
});
export type ParticipantBrief = z.infer<typeof ZParticipantBrief>;

/** An audio's link to its participant: both null clears it. */
export const ZLinkAudioInput = z.object({
  audioId: ZId,
  participantId: ZId.nullable(),
  sessionDate: ZDay.nullable().default(null),
});

/** What linkAudio answers: the audio, what staff now see of its participant, and the session day. */
export const ZLinkAudioResult = z.object({
  audioId: z.string(),
  participant: ZParticipantBrief.nullable(),
  sessionDate: z.string().nullable(),
});
export type LinkAudioResult = z.infer<typeof ZLinkAudioResult>;

/** A linked audio on a participant's page. */
export const ZParticipantAudio = z.object({
  id: z.string(),
  filename: z.string(),
  category: ZParticipantGroup,
  sessionDate: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  createdAt: z.string(),
});

/** CSV import (decision 024): the file's text, at most 2 MB. Nothing is written when a row fails. */
export const ZImportParticipantsInput = z.object({
  csv: z.string().max(2_000_000, "The CSV file is larger than 2 MB."),
});
const ZImportProblem = z.object({ line: z.number().int(), message: z.string() });
export const ZImportParticipantsResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  problems: z.array(ZImportProblem),
});

/** The balance counts (decision 024): one row per group × sex × age band, for participants and approved recordings. */
const ZBalanceRow = z.object({
  group: ZParticipantGroup,
  sex: ZSex.nullable(),
  ageBand: z.string(),
  participants: z.number().int(),
  approvedRecordings: z.number().int(),
});
export const ZBalance = z.object({ rows: z.array(ZBalanceRow) });
export type BalanceRow = z.infer<typeof ZBalanceRow>;

/** The CSV export: every participant, ordered by code, with the import's columns. */
export const ZParticipantsCsv = z.object({ csv: z.string() });
