import {
  AGE_MESSAGE,
  CONSENT_REQUIRED,
  CONSENT_STATUSES,
  dayProblem,
  EDUCATION_MESSAGE,
  GROUP_REQUIRED,
  isAgeInYearsAndMonths,
  isEducationYears,
  isLanguageCode,
  isParticipantCode,
  isScoreInRange,
  LANGUAGES_MAX,
  LANGUAGES_MESSAGE,
  LANGUAGES_TOO_MANY,
  NOTES_MAX_LENGTH,
  NOTES_TOO_LONG,
  PARTICIPANT_CODE_MESSAGE,
  PARTICIPANT_CODE_REQUIRED,
  SCORE_INSTRUMENT_KEYS,
  scoreRangeMessage,
  type ConsentStatus,
  type ParticipantGroup,
  type ScoreInstrument,
  type Sex,
} from "@tafsiri/domain";
import type { Participant, ParticipantInput } from "./participant-types";

/**
 * The participant side panel's form (decision 024): every field as the inputs hold it (text), the
 * browser's checks (@tafsiri/domain's participant rules and messages, the same the server checks
 * with, so the admin sees them at once; the server has the last word) and the input of
 * `participants.create` / `participants.update`.
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

/** The whole number written in `value` (digits only), or null when it is not one. */
function wholeNumber(value: string): number | null {
  return /^\d+$/.test(value.trim()) ? Number(value.trim()) : null;
}

/** The languages typed, split on commas, semicolons and spaces, lower-cased. */
function languageCodes(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((code) => code.trim().toLowerCase())
    .filter(Boolean);
}

/** The browser's checks, with the server's rules and messages (@tafsiri/domain), field by field. */
export function formErrors(form: ParticipantForm): FormErrors {
  const errors: FormErrors = {};
  const dayError = (day: string) => (day ? dayProblem(day) : null);
  const set = (field: keyof FormErrors, message: string | null) => {
    if (message) errors[field] = message;
  };
  const code = form.code.trim();
  if (!code) errors.code = PARTICIPANT_CODE_REQUIRED;
  else if (!isParticipantCode(code)) errors.code = PARTICIPANT_CODE_MESSAGE;
  if (!form.group) errors.group = GROUP_REQUIRED;
  if (form.ageMode === "birthDate") set("birthDate", dayError(form.birthDate));
  if (form.ageMode === "age") {
    const anyGiven = form.ageYears.trim() !== "" || form.ageMonths.trim() !== "";
    const years = form.ageYears.trim() === "" ? 0 : wholeNumber(form.ageYears);
    const months = form.ageMonths.trim() === "" ? 0 : wholeNumber(form.ageMonths);
    if (anyGiven && (years === null || months === null || !isAgeInYearsAndMonths(years, months)))
      errors.age = AGE_MESSAGE;
    set("ageRecordedOn", dayError(form.ageRecordedOn));
  }
  if (form.educationYears.trim()) {
    const years = wholeNumber(form.educationYears);
    if (years === null || !isEducationYears(years)) errors.educationYears = EDUCATION_MESSAGE;
  }
  const languages = languageCodes(form.languages);
  if (!languages.every(isLanguageCode)) errors.languages = LANGUAGES_MESSAGE;
  else if (languages.length > LANGUAGES_MAX) errors.languages = LANGUAGES_TOO_MANY;
  for (const row of form.scores) {
    if (row.score.trim() === "" || !isScoreInRange(row.instrument, Number(row.score.trim())))
      errors[`score-${row.key}`] = scoreRangeMessage(row.instrument);
    else set(`score-${row.key}`, dayError(row.takenOn));
  }
  if (form.notes.length > NOTES_MAX_LENGTH) errors.notes = NOTES_TOO_LONG;
  if (!CONSENT_STATUSES.includes(form.consentStatus)) errors.consentStatus = CONSENT_REQUIRED;
  set("consentDate", dayError(form.consentDate));
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
