import { z } from "zod";
import { ZParticipantFields, type RouterOutputs } from "@tafsiri/api";
import { EXAMPLE_ID } from "./common";

/**
 * Research participants over REST (decision 024): the procedures' shapes with the REST layer's
 * conventions (`_id`, snake_case field names). Admins only.
 */

type Participant = RouterOutputs["participants"]["get"];
type LinkResult = RouterOutputs["participants"]["linkAudio"];

const F = ZParticipantFields.shape;
const ZGroup = z.enum(["Control", "Dementia"]);
const ZConsent = z.enum(["given", "restricted", "withdrawn", "not_recorded"]);

export const EXAMPLE_PARTICIPANT = {
  _id: EXAMPLE_ID,
  code: "P0042",
  group: "Dementia",
  sex: "female",
  birth_date: null,
  age_months: 866,
  age_recorded_on: "2026-03-02",
  age_months_today: 875,
  education_years: 7,
  languages: ["lug", "eng"],
  scores: [{ instrument: "MMSE", score: 21, taken_on: "2026-03-02" }],
  notes: "",
  consent_status: "given",
  consent_date: "2026-03-02",
  consent_document_name: "consent-P0042.pdf",
  audio_count: 2,
  created_at: "2026-03-02T09:30:00.000Z",
  updated_at: "2026-03-02T09:30:00.000Z",
} as const;

/** A participant as admins see it; ages in whole months, days YYYY-MM-DD. */
export const ZRestParticipant = z
  .object({
    _id: z.string(),
    code: z.string(),
    group: ZGroup,
    sex: z.enum(["female", "male"]).nullable(),
    birth_date: z.string().nullable(),
    age_months: z.number().int().nullable(),
    age_recorded_on: z.string().nullable(),
    age_months_today: z.number().int().nullable(),
    education_years: z.number().int().nullable(),
    languages: z.array(z.string()),
    scores: z.array(z.object({ instrument: z.string(), score: z.number(), taken_on: z.string().nullable() })),
    notes: z.string(),
    consent_status: ZConsent,
    consent_date: z.string().nullable(),
    consent_document_name: z.string().nullable(),
    audio_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ examples: [EXAMPLE_PARTICIPANT] });

/** The REST participant of a participants.get / list item. */
export function restParticipant(p: Participant): z.output<typeof ZRestParticipant> {
  return {
    _id: p.id,
    code: p.code,
    group: p.group,
    sex: p.sex,
    birth_date: p.birthDate,
    age_months: p.ageMonths,
    age_recorded_on: p.ageRecordedOn,
    age_months_today: p.ageMonthsToday,
    education_years: p.educationYears,
    languages: p.languages,
    scores: p.scores.map((s) => ({ instrument: s.instrument, score: s.score, taken_on: s.takenOn })),
    notes: p.notes,
    consent_status: p.consentStatus,
    consent_date: p.consentDate,
    consent_document_name: p.consentDocumentName,
    audio_count: p.audioCount,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  };
}

/**
 * What an admin writes of a participant (POST, PUT): the procedure's fields in snake_case, with
 * the same rules and messages. Fields not listed here (`_id`, `created_at`, `audio_count`,
 * `consent_document_name`…) are ignored.
 */
export const ZRestParticipantBody = z
  .object({
    code: F.code,
    group: F.group,
    sex: F.sex,
    birth_date: F.birthDate,
    age_months: F.ageMonths,
    age_recorded_on: F.ageRecordedOn,
    education_years: F.educationYears,
    languages: F.languages,
    scores: z
      .array(
        z.object({
          instrument: z.string(),
          score: z.number({ error: "A score is a number." }),
          taken_on: z.string().nullable().default(null),
        }),
      )
      .max(50)
      .default([]),
    notes: F.notes,
    consent_status: F.consentStatus,
    consent_date: F.consentDate,
  })
  .meta({
    examples: [
      {
        code: "P0042",
        group: "Dementia",
        sex: "female",
        age_months: 866,
        age_recorded_on: "2026-03-02",
        education_years: 7,
        languages: ["lug", "eng"],
        scores: [{ instrument: "MMSE", score: 21, taken_on: "2026-03-02" }],
        notes: "",
        consent_status: "given",
        consent_date: "2026-03-02",
      },
    ],
  });

/** The procedure's input of a REST participant body. */
export function participantFieldsOf(body: z.output<typeof ZRestParticipantBody>) {
  return {
    code: body.code,
    group: body.group,
    sex: body.sex,
    birthDate: body.birth_date,
    ageMonths: body.age_months,
    ageRecordedOn: body.age_recorded_on,
    educationYears: body.education_years,
    languages: body.languages,
    scores: body.scores.map((s) => ({ instrument: s.instrument, score: s.score, takenOn: s.taken_on })),
    notes: body.notes,
    consentStatus: body.consent_status,
    consentDate: body.consent_date,
  };
}

/** GET /api/participants: one page. */
export const ZRestParticipantPage = z
  .object({
    participants: z.array(ZRestParticipant),
    total: z.number().int(),
    pagination: z.object({ totalPages: z.number().int() }),
  })
  .meta({ examples: [{ participants: [EXAMPLE_PARTICIPANT], total: 1, pagination: { totalPages: 1 } }] });

/** One problem of a refused CSV import: the CSV line (the header is line 1) and what is wrong. */
const ZRestImportProblem = z.object({ line: z.number().int(), message: z.string() });

/** 400 of POST /api/participants/import: the failure body, with every problem when rows failed. */
export const ZRestImportRefused = z
  .object({
    status: z.literal("failed"),
    success: z.literal(false),
    message: z.string(),
    problems: z.array(ZRestImportProblem).optional(),
  })
  .meta({
    examples: [
      {
        status: "failed",
        success: false,
        message: "The CSV file has 2 problems; nothing was imported.",
        problems: [
          { line: 3, message: "group: Group must be Control or Dementia." },
          { line: 7, message: "The code P0042 is also on line 2." },
        ],
      },
    ],
  });

/** A participant as staff see it on an audio: code, group, age in months at the session. */
export const ZRestParticipantBrief = z
  .object({ code: z.string(), group: ZGroup, age_months_at_recording: z.number().int().nullable() })
  .nullable();

/** The REST brief of a procedure's ZParticipantBrief. */
export function restParticipantBrief(brief: LinkResult["participant"]): z.output<typeof ZRestParticipantBrief> {
  return brief && { code: brief.code, group: brief.group, age_months_at_recording: brief.ageMonthsAtRecording };
}
