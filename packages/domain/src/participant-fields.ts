/**
 * The fields of a research participant (issue "A research-grade corpus", decision 024): the values
 * the database, the API, the CSV import and the web app all check against. Pure data, no I/O.
 */

import { CATEGORIES, type Category } from "./categories";

/** Decision 024: a participant's study group, one of the same labels as an audio's category (CATEGORIES, SPEC §3). */
export const PARTICIPANT_GROUPS = CATEGORIES;
/** Decision 024: one of PARTICIPANT_GROUPS. */
export type ParticipantGroup = Category;

/** Sex as CHAT's `@ID` writes it; unknown is null. */
export const SEXES = ["female", "male"] as const;
export type Sex = (typeof SEXES)[number];

/**
 * Consent to use the participant's recordings: `given`, `restricted` (used only where an export
 * asks for it), `withdrawn`, or `not_recorded` (nothing known yet: treated as no consent).
 */
export const CONSENT_STATUSES = ["given", "restricted", "withdrawn", "not_recorded"] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];

/** Decision 024: the longest participant code, in characters (also the code inputs' `maxLength`). */
export const PARTICIPANT_CODE_MAX_LENGTH = 20;
/** Decision 024: a pseudonymous participant code: 1–20 letters, digits, `_` or `-` (e.g. `P0042`). No names. */
export const PARTICIPANT_CODE_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${PARTICIPANT_CODE_MAX_LENGTH}}$`);

/** An ISO 639-3 language code: three lowercase letters. */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{3}$/;

/**
 * The cognitive instruments a score may be given for, with the range of a valid score. Add an
 * instrument here to offer it everywhere (form, CSV columns `<key>` and `<key>_date`, REST).
 */
export const SCORE_INSTRUMENTS = {
  MMSE: { label: "MMSE", min: 0, max: 30 },
  MoCA: { label: "MoCA", min: 0, max: 30 },
} as const;
export type ScoreInstrument = keyof typeof SCORE_INSTRUMENTS;
export const SCORE_INSTRUMENT_KEYS = Object.keys(SCORE_INSTRUMENTS) as ScoreInstrument[];

/** One cognitive score: the instrument, the score, the day it was taken (YYYY-MM-DD). */
export interface CognitiveScore {
  instrument: ScoreInstrument;
  score: number;
  takenOn: string | null;
}

/**
 * The columns of the participants CSV, in the order the export writes them (the import takes them
 * in any order): a score column and its day for each instrument of SCORE_INSTRUMENTS.
 */
export const PARTICIPANT_CSV_COLUMNS: readonly string[] = [
  "code",
  "group",
  "sex",
  "birth_date",
  "age_years",
  "age_months",
  "age_recorded_on",
  "education_years",
  "languages",
  ...SCORE_INSTRUMENT_KEYS.flatMap((key) => [key.toLowerCase(), `${key.toLowerCase()}_date`]),
  "notes",
  "consent",
  "consent_date",
];
