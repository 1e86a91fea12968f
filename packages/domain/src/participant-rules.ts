import { CATEGORIES } from "./categories";
import {
  CONSENT_STATUSES,
  LANGUAGE_CODE_PATTERN,
  PARTICIPANT_CODE_PATTERN,
  SCORE_INSTRUMENTS,
  SEXES,
  type ScoreInstrument,
} from "./participant-fields";

/**
 * The rules of a participant's fields and the messages that refuse them (decision 024): the API
 * wraps each predicate in zod with its message (packages/api/src/schemas/participants.ts) and the
 * web app's participant form calls the same predicates with the same messages, so the admin reads
 * the server's words before anything is sent.
 */

/** Decision 024: the message for an empty participant code. */
export const PARTICIPANT_CODE_REQUIRED = "Participant code is required";
/** Decision 024: the message for a participant code that does not match PARTICIPANT_CODE_PATTERN. */
export const PARTICIPANT_CODE_MESSAGE =
  "A participant code is 1 to 20 letters, digits, '_' or '-' (a pseudonym such as P0042, never a name).";
/** Decision 024: takes a code (already trimmed); true when it is a well-formed pseudonymous participant code. */
export function isParticipantCode(code: string): boolean {
  return PARTICIPANT_CODE_PATTERN.test(code);
}

/** Decision 024: the web form's message while no group is chosen. */
export const GROUP_REQUIRED = "Group is required";
/** Decision 024: the server's message for a group that is not one of PARTICIPANT_GROUPS. */
export const GROUP_MESSAGE = `Group must be ${CATEGORIES.join(" or ")}.`;
/** Decision 024: the message for a sex that is not one of SEXES. */
export const SEX_MESSAGE = `Sex must be ${SEXES.join(" or ")} (or left empty).`;
/** Decision 024: the web form's message while no consent status is chosen. */
export const CONSENT_REQUIRED = "Consent is required";
/** Decision 024: the server's message for a consent status that is not one of CONSENT_STATUSES. */
export const CONSENT_MESSAGE = `Consent must be ${CONSENT_STATUSES.slice(0, -1).join(", ")} or ${CONSENT_STATUSES.at(-1)}.`;

/** Decision 024: a day as the API takes it, YYYY-MM-DD (whether or not that day exists: isExistingDay). */
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** Decision 024: the message for a day not written YYYY-MM-DD. */
export const DAY_FORMAT_MESSAGE = "A date is written YYYY-MM-DD.";
/** Decision 024: the message for a day written YYYY-MM-DD that is not on the calendar (2026-02-30). */
export const DAY_MISSING_MESSAGE = "This date does not exist.";
/** Decision 024: takes a text written YYYY-MM-DD; true when that calendar day exists. */
export function isExistingDay(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(day);
}
/** Decision 024: takes a day as typed; returns null for an existing YYYY-MM-DD day, else the message why not. */
export function dayProblem(day: string): string | null {
  if (!DAY_PATTERN.test(day)) return DAY_FORMAT_MESSAGE;
  return isExistingDay(day) ? null : DAY_MISSING_MESSAGE;
}

/** Decision 024: the oldest age, in whole years, the form takes; months are 0 to 11 beside it. */
export const AGE_YEARS_MAX = 150;
/** Decision 024: the largest age in whole months the server keeps (150 years). */
export const AGE_MONTHS_MAX = AGE_YEARS_MAX * 12;
/** Decision 024: the message for an age that is not whole years and months within range. */
export const AGE_MESSAGE = `An age is whole years (0 to ${AGE_YEARS_MAX}) and months (0 to 11).`;
/**
 * Decision 024: takes an age as whole years and months; true when the years are 0 to AGE_YEARS_MAX,
 * the months 0 to 11, and together they are at most AGE_MONTHS_MAX.
 */
export function isAgeInYearsAndMonths(years: number, months: number): boolean {
  if (!Number.isInteger(years) || !Number.isInteger(months)) return false;
  if (years < 0 || years > AGE_YEARS_MAX || months < 0 || months > 11) return false;
  return years * 12 + months <= AGE_MONTHS_MAX;
}

/** Decision 024: the fewest years of education. */
export const EDUCATION_YEARS_MIN = 0;
/** Decision 024: the most years of education. */
export const EDUCATION_YEARS_MAX = 40;
/** Decision 024: the message for years of education out of range or not whole. */
export const EDUCATION_MESSAGE = `Years of education are ${EDUCATION_YEARS_MIN} to ${EDUCATION_YEARS_MAX}.`;
/** Decision 024: takes a number of years; true when it is a whole number of EDUCATION_YEARS_MIN to _MAX. */
export function isEducationYears(years: number): boolean {
  return Number.isInteger(years) && years >= EDUCATION_YEARS_MIN && years <= EDUCATION_YEARS_MAX;
}

/** Decision 024: the most languages a participant lists. */
export const LANGUAGES_MAX = 10;
/** Decision 024: the message for a language that is not an ISO 639-3 code. */
export const LANGUAGES_MESSAGE = "Languages are ISO 639-3 codes of three lowercase letters.";
/** Decision 024: the message for more than LANGUAGES_MAX languages. */
export const LANGUAGES_TOO_MANY = `At most ${LANGUAGES_MAX} languages.`;
/** Decision 024: takes a code; true when it is an ISO 639-3 code (three lowercase letters). */
export function isLanguageCode(code: string): boolean {
  return LANGUAGE_CODE_PATTERN.test(code);
}

/** Decision 024: the most cognitive scores a participant keeps. */
export const SCORES_MAX = 50;
/** Decision 024: the message for an instrument that is not one of SCORE_INSTRUMENTS. */
export const INSTRUMENT_MESSAGE = `The instrument must be one of ${Object.keys(SCORE_INSTRUMENTS).join(", ")}.`;
/** Decision 024: takes an instrument; returns the message for a score out of its range ('MMSE is scored 0 to 30.'). */
export function scoreRangeMessage(instrument: ScoreInstrument): string {
  const range = SCORE_INSTRUMENTS[instrument];
  return `${range.label} is scored ${range.min} to ${range.max}.`;
}
/** Decision 024: takes an instrument and a score; true when the score is a finite number within its range. */
export function isScoreInRange(instrument: ScoreInstrument, score: number): boolean {
  const range = SCORE_INSTRUMENTS[instrument];
  return Number.isFinite(score) && score >= range.min && score <= range.max;
}

/** Decision 024: the longest notes on a participant, in characters. */
export const NOTES_MAX_LENGTH = 5_000;
/** Decision 024: the message for notes over NOTES_MAX_LENGTH. */
export const NOTES_TOO_LONG = "Notes are at most 5,000 characters.";
