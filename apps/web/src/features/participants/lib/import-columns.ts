import { SCORE_INSTRUMENT_KEYS } from "@tafsiri/corpus";

/**
 * The columns of the participants CSV (decision 024), in the order the import expects and the
 * export writes: a score column and its day for each instrument of SCORE_INSTRUMENTS.
 */
export const IMPORT_COLUMNS: readonly string[] = [
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

/** "2 participants created, 1 updated." */
export function importSummary(created: number, updated: number): string {
  return `${created} ${created === 1 ? "participant" : "participants"} created, ${updated} updated.`;
}
