import {
  CONSENT_STATUSES,
  LANGUAGE_CODE_PATTERN,
  PARTICIPANT_CODE_PATTERN,
  SCORE_INSTRUMENT_KEYS,
  SCORE_INSTRUMENTS,
  type ConsentStatus,
  type ParticipantGroup,
  type ScoreInstrument,
  type Sex,
} from "@tafsiri/domain";
import type { Participant, ParticipantInput } from "./participant-types";

/**
 * The participant side panel's form (decision 024): every field as the inputs hold it (text), the
 * browser's checks (the server's rules and messages, repeated so the admin sees them at once; the
 * server has the last word) and the input of `participants.create` / `participants.update`.
 */

/** How the age is given: a date of birth, or years and months on a day. */
export type AgeMode = "birthDate" | "age";

/** One row of the scores: `key` tells rows apart while they are added and removed. */
export interface ScoreRow {
  key: string;
  instrument: ScoreInstrument;
  score: string;
  takenOn: string;
}

export interface ParticipantForm {
  code: string;
  group: ParticipantGroup | "";
  sex: Sex | "";
  ageMode: AgeMode;
  /** YYYY-MM-DD (a date input's value). */
  birthDate: string;
  ageYears: string;
  ageMonths: string;
  /** YYYY-MM-DD: the day the age in years and months was true (empty: today, the server records it). */
  ageRecordedOn: string;
  educationYears: string;
  /** ISO 639-3 codes separated by commas (or spaces). */
  languages: string;
  scores: ScoreRow[];
  notes: string;
  consentStatus: ConsentStatus;
  consentDate: string;
}

/** The fields an error may be shown by; a score row's error is keyed `score-<row key>`. */
export type ParticipantField =
  | "code"
  | "group"
  | "sex"
  | "birthDate"
  | "age"
  | "ageRecordedOn"
  | "educationYears"
  | "languages"
  | "scores"
  | "notes"
  | "consentStatus"
  | "consentDate";
export type FormErrors = Partial<Record<ParticipantField | `score-${string}`, string>>;

// The server's messages (packages/api/src/schemas/participants.ts), repeated for the browser's checks.
const CODE_MESSAGE =
  "A participant code is 1 to 20 letters, digits, '_' or '-' (a pseudonym such as P0042, never a name).";
const DAY_MESSAGE = "A date is written YYYY-MM-DD.";
const LANGUAGES_MESSAGE = "Languages are ISO 639-3 codes of three lowercase letters.";
const EDUCATION_MESSAGE = "Years of education are 0 to 40.";
const NOTES_MAX = 5000;

let rowCounter = 0;
/** A new score row of `instrument` (MMSE first), empty. */
export function newScoreRow(instrument: ScoreInstrument = SCORE_INSTRUMENT_KEYS[0]!): ScoreRow {
  rowCounter += 1;
  return { key: `score-row-${rowCounter}`, instrument, score: "", takenOn: "" };
}

/** An empty form: group to choose, consent not recorded, age as a date of birth. */
export function emptyForm(): ParticipantForm {
  return {
    code: "",
    group: "",
    sex: "",
    ageMode: "birthDate",
    birthDate: "",
    ageYears: "",
    ageMonths: "",
    ageRecordedOn: "",
    educationYears: "",
    languages: "",
    scores: [],
    notes: "",
    consentStatus: "not_recorded",
    consentDate: "",
  };
}

const text = (value: number | null): string => (value === null ? "" : String(value));

/** The form of a saved participant: its values, the age as it was given (date of birth, or years and months). */
export function formOf(p: Participant): ParticipantForm {
  const byAge = p.birthDate === null && p.ageMonths !== null;
  return {
    code: p.code,
    group: p.group,
    sex: p.sex ?? "",
    ageMode: byAge ? "age" : "birthDate",
    birthDate: p.birthDate ?? "",
    ageYears: byAge ? String(Math.floor(p.ageMonths! / 12)) : "",
    ageMonths: byAge ? String(p.ageMonths! % 12) : "",
    ageRecordedOn: byAge ? (p.ageRecordedOn ?? "") : "",
    educationYears: text(p.educationYears),
    languages: p.languages.join(", "),
    scores: p.scores.map((s) => ({
      ...newScoreRow(s.instrument as ScoreInstrument),
      score: String(s.score),
      takenOn: s.takenOn ?? "",
    })),
    notes: p.notes,
    consentStatus: p.consentStatus,
    consentDate: p.consentDate ?? "",
  };
}

/** Whether `day` is a YYYY-MM-DD calendar day that exists. */
function isDay(day: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().startsWith(day);
}

/** A whole number written in `value` within min..max, or null (empty, not a whole number, or out of range). */
function wholeNumber(value: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n >= min && n <= max ? n : null;
}

/** The languages typed, split on commas, semicolons and spaces, lower-cased. */
function languageCodes(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((code) => code.trim().toLowerCase())
    .filter(Boolean);
}

/** The browser's checks, with the server's messages, field by field. */
export function formErrors(form: ParticipantForm): FormErrors {
  const errors: FormErrors = {};
  const code = form.code.trim();
  if (!code) errors.code = "Participant code is required";
  else if (!PARTICIPANT_CODE_PATTERN.test(code)) errors.code = CODE_MESSAGE;
  if (!form.group) errors.group = "Group is required";
  if (form.ageMode === "birthDate" && form.birthDate && !isDay(form.birthDate)) errors.birthDate = DAY_MESSAGE;
  if (form.ageMode === "age") {
    const anyGiven = form.ageYears.trim() !== "" || form.ageMonths.trim() !== "";
    const years = form.ageYears.trim() === "" ? 0 : wholeNumber(form.ageYears, 0, 150);
    const months = form.ageMonths.trim() === "" ? 0 : wholeNumber(form.ageMonths, 0, 11);
    if (anyGiven && (years === null || months === null))
      errors.age = "An age is whole years (0 to 150) and months (0 to 11).";
    if (form.ageRecordedOn && !isDay(form.ageRecordedOn)) errors.ageRecordedOn = DAY_MESSAGE;
  }
  if (form.educationYears.trim() && wholeNumber(form.educationYears, 0, 40) === null)
    errors.educationYears = EDUCATION_MESSAGE;
  const languages = languageCodes(form.languages);
  if (languages.some((l) => !LANGUAGE_CODE_PATTERN.test(l))) errors.languages = LANGUAGES_MESSAGE;
  else if (languages.length > 10) errors.languages = "At most 10 languages.";
  for (const row of form.scores) {
    const range = SCORE_INSTRUMENTS[row.instrument];
    const score = Number(row.score.trim());
    if (row.score.trim() === "" || !Number.isFinite(score) || score < range.min || score > range.max)
      errors[`score-${row.key}`] = `${range.label} is scored ${range.min} to ${range.max}.`;
    else if (row.takenOn && !isDay(row.takenOn)) errors[`score-${row.key}`] = DAY_MESSAGE;
  }
  if (form.notes.length > NOTES_MAX) errors.notes = "Notes are at most 5,000 characters.";
  if (!CONSENT_STATUSES.includes(form.consentStatus)) errors.consentStatus = "Consent is required";
  if (form.consentDate && !isDay(form.consentDate)) errors.consentDate = DAY_MESSAGE;
  return errors;
}

const orNull = (value: string): string | null => (value.trim() === "" ? null : value.trim());

/** The input of `participants.create` (and, with the id, `participants.update`) of a form that passed formErrors. */
export function inputOf(form: ParticipantForm): ParticipantInput {
  const byAge = form.ageMode === "age" && (form.ageYears.trim() !== "" || form.ageMonths.trim() !== "");
  return {
    code: form.code.trim(),
    group: form.group as ParticipantGroup,
    sex: form.sex || null,
    birthDate: form.ageMode === "birthDate" ? orNull(form.birthDate) : null,
    ageMonths: byAge ? Number(form.ageYears || 0) * 12 + Number(form.ageMonths || 0) : null,
    ageRecordedOn: byAge ? orNull(form.ageRecordedOn) : null,
    educationYears: form.educationYears.trim() === "" ? null : Number(form.educationYears),
    languages: languageCodes(form.languages),
    scores: form.scores.map((s) => ({ instrument: s.instrument, score: Number(s.score), takenOn: orNull(s.takenOn) })),
    notes: form.notes,
    consentStatus: form.consentStatus,
    consentDate: orNull(form.consentDate),
  };
}

/**
 * The field a server message is about, so it is shown by that field (the server answers one
 * message, not a field name); null when it names none (shown above the buttons instead).
 */
export function fieldOfMessage(message: string): ParticipantField | null {
  const rules: Array<[RegExp, ParticipantField]> = [
    [/\bgroup\b|category must change/i, "group"],
    [/participant code|\bcode\b/i, "code"],
    [/education/i, "educationYears"],
    [/language/i, "languages"],
    [/scored|instrument|score/i, "scores"],
    [/notes/i, "notes"],
    [/\bsex\b/i, "sex"],
    [/consent/i, "consentStatus"],
    [/\bage\b|birth/i, "age"],
  ];
  return rules.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}
