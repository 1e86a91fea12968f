import { z } from "zod";
import {
  AGE_MESSAGE,
  CONSENT_MESSAGE,
  CONSENT_STATUSES,
  DAY_FORMAT_MESSAGE,
  DAY_MISSING_MESSAGE,
  EDUCATION_MESSAGE,
  GROUP_MESSAGE,
  INSTRUMENT_MESSAGE,
  AGE_MONTHS_MAX,
  DAY_PATTERN,
  EDUCATION_YEARS_MAX,
  EDUCATION_YEARS_MIN,
  isExistingDay,
  isScoreInRange,
  LANGUAGE_CODE_PATTERN,
  LANGUAGES_MAX,
  LANGUAGES_MESSAGE,
  LANGUAGES_TOO_MANY,
  NOTES_MAX_LENGTH,
  NOTES_TOO_LONG,
  PARTICIPANT_CODE_MAX_LENGTH,
  PARTICIPANT_CODE_MESSAGE,
  PARTICIPANT_CODE_PATTERN,
  PARTICIPANT_CODE_REQUIRED,
  PARTICIPANT_GROUPS,
  PARTICIPANTS_CSV_MAX_CHARS,
  PARTICIPANTS_CSV_TOO_LARGE,
  SCORE_INSTRUMENT_KEYS,
  SCORES_MAX,
  scoreRangeMessage,
  SEX_MESSAGE,
  SEXES,
  type ScoreInstrument,
} from "@tafsiri/domain";
import { ZId } from "./common";

/**
 * Research participants (decision 024): the shapes of the `participants` procedures and of
 * `/api/participants`. Admins only, but for `ZParticipantBrief`, what staff see of an audio's
 * participant (code, group, age at recording). The rules and their messages are @tafsiri/domain's
 * (participant-rules), which the web app's participant form checks with too.
 */

const ZParticipantCode = z
  .string({ error: PARTICIPANT_CODE_REQUIRED })
  .trim()
  .min(1, PARTICIPANT_CODE_REQUIRED)
  .regex(PARTICIPANT_CODE_PATTERN, PARTICIPANT_CODE_MESSAGE);
const ZParticipantGroup = z.enum(PARTICIPANT_GROUPS, { message: GROUP_MESSAGE });
const ZSex = z.enum(SEXES, { message: SEX_MESSAGE });
const ZConsentStatus = z.enum(CONSENT_STATUSES, { message: CONSENT_MESSAGE });
/** A calendar day, YYYY-MM-DD, that exists. */
export const ZDay = z.string().regex(DAY_PATTERN, DAY_FORMAT_MESSAGE).refine(isExistingDay, DAY_MISSING_MESSAGE);
const ZLanguageCode = z.string().regex(LANGUAGE_CODE_PATTERN, LANGUAGES_MESSAGE);

const ZCognitiveScore = z
  .object({
    instrument: z.enum(SCORE_INSTRUMENT_KEYS as [string, ...string[]], { message: INSTRUMENT_MESSAGE }),
    score: z.number(),
    takenOn: ZDay.nullable().default(null),
  })
  .superRefine((value, ctx) => {
    const instrument = value.instrument as ScoreInstrument;
    if (!isScoreInRange(instrument, value.score)) {
      ctx.addIssue({ code: "custom", path: ["score"], message: scoreRangeMessage(instrument) });
    }
  });

/** An admin's participant form, for the OpenAPI document. */
const EXAMPLE_FIELDS = {
  code: "P0042",
  group: "Dementia",
  sex: "female",
  ageMonths: 866,
  ageRecordedOn: "2026-03-02",
  educationYears: 7,
  languages: ["lug", "eng"],
  scores: [{ instrument: "MMSE", score: 21, takenOn: "2026-03-02" }],
  notes: "",
  consentStatus: "given",
  consentDate: "2026-03-02",
};

/**
 * What an admin writes of a participant. The age is a date of birth, or years and months on a day
 * (`ageMonths` whole months, `ageRecordedOn` the day; today when omitted). Days are YYYY-MM-DD.
 */
export const ZParticipantFields = z
  .object({
    code: ZParticipantCode,
    group: ZParticipantGroup,
    sex: ZSex.nullable().default(null),
    birthDate: ZDay.nullable().default(null),
    ageMonths: z
      .number()
      .int(AGE_MESSAGE)
      .min(0, AGE_MESSAGE)
      .max(AGE_MONTHS_MAX, AGE_MESSAGE)
      .nullable()
      .default(null),
    ageRecordedOn: ZDay.nullable().default(null),
    educationYears: z
      .number()
      .int(EDUCATION_MESSAGE)
      .min(EDUCATION_YEARS_MIN, EDUCATION_MESSAGE)
      .max(EDUCATION_YEARS_MAX, EDUCATION_MESSAGE)
      .nullable()
      .default(null),
    languages: z.array(ZLanguageCode).max(LANGUAGES_MAX, LANGUAGES_TOO_MANY).default([]),
    scores: z.array(ZCognitiveScore).max(SCORES_MAX).default([]),
    notes: z.string().max(NOTES_MAX_LENGTH, NOTES_TOO_LONG).default(""),
    consentStatus: ZConsentStatus.default("not_recorded"),
    consentDate: ZDay.nullable().default(null),
  })
  .meta({ examples: [EXAMPLE_FIELDS] });
export type ParticipantFields = z.infer<typeof ZParticipantFields>;

/** An update names the participant and gives every field (the side panel sends the whole form). */
export const ZUpdateParticipantInput = ZParticipantFields.extend({ participantId: ZId }).meta({
  examples: [{ ...EXAMPLE_FIELDS, participantId: "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70" }],
});
export const ZParticipantIdInput = z.object({ participantId: ZId });

/** A participant as admins see it, for the OpenAPI document. */
const EXAMPLE_PARTICIPANT = {
  id: "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70",
  code: "P0042",
  group: "Dementia",
  sex: "female",
  birthDate: null,
  ageMonths: 866,
  ageRecordedOn: "2026-03-02",
  ageMonthsToday: 875,
  educationYears: 7,
  languages: ["lug", "eng"],
  scores: [{ instrument: "MMSE", score: 21, takenOn: "2026-03-02" }],
  notes: "",
  consentStatus: "given",
  consentDate: "2026-03-02",
  consentDocumentName: "consent-P0042.pdf",
  audioCount: 2,
  createdAt: "2026-03-02T09:30:00.000Z",
  updatedAt: "2026-03-02T09:30:00.000Z",
};

/** A participant as admins see it. `ageMonthsToday`: the age now (null when unknown). */
export const ZParticipant = z
  .object({
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
  })
  .meta({
    examples: [EXAMPLE_PARTICIPANT],
  });
export type Participant = z.infer<typeof ZParticipant>;

/** A participant recorded or edited, and the sentence the admin is shown (decision 024). */
export const ZParticipantSaved = z
  .object({ message: z.string(), participant: ZParticipant })
  .meta({ examples: [{ message: "Participant P0042 has been saved.", participant: EXAMPLE_PARTICIPANT }] });
export type ParticipantSaved = z.infer<typeof ZParticipantSaved>;

/** The list: search is a code prefix (case-insensitive); filters by group and consent; 20 a page by default. */
export const ZListParticipantsInput = z.object({
  search: z
    .string()
    .trim()
    .max(PARTICIPANT_CODE_MAX_LENGTH)
    .optional()
    .meta({ description: "A code prefix, any case (P00 finds P0042)." }),
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
export const ZLinkAudioInput = z
  .object({
    audioId: ZId,
    participantId: ZId.nullable().meta({ description: "The participant; null unlinks the audio." }),
    sessionDate: ZDay.nullable().default(null).meta({ description: "The session's day, YYYY-MM-DD." }),
  })
  .meta({
    examples: [
      {
        audioId: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e",
        participantId: "0b7e2f4c-5d1a-4c8e-9f3b-2a6d8e1c4b70",
        sessionDate: "2026-03-02",
      },
    ],
  });

/** What linkAudio answers: what it did in a sentence, the audio, what staff now see of its participant, and the session day. */
export const ZLinkAudioResult = z
  .object({
    message: z.string(),
    audioId: z.string(),
    participant: ZParticipantBrief.nullable(),
    sessionDate: z.string().nullable(),
  })
  .meta({
    examples: [
      {
        message: "interview-07 is linked to participant P0042.",
        audioId: "3c1d7e9a-2b4f-4a6c-8e0d-9f1a2b3c4d5e",
        participant: { code: "P0042", group: "Dementia", ageMonthsAtRecording: 866 },
        sessionDate: "2026-03-02",
      },
    ],
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
  csv: z.string().max(PARTICIPANTS_CSV_MAX_CHARS, PARTICIPANTS_CSV_TOO_LARGE),
});
const ZImportProblem = z.object({ line: z.number().int(), message: z.string() });
export const ZImportParticipantsResult = z.object({
  message: z.string(),
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
