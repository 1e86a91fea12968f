/**
 * A participant's age (decision 024): known either from a date of birth, or as years and months
 * on a given day. Ages are whole months; days are YYYY-MM-DD strings read as calendar dates.
 */

/** How a participant's age is known: any of the fields may be null. */
export interface AgeSource {
  /** YYYY-MM-DD. */
  birthDate: string | null;
  /** Age in whole months on `ageRecordedOn`. */
  ageMonths: number | null;
  /** YYYY-MM-DD: the day `ageMonths` was true. */
  ageRecordedOn: string | null;
}

function calendar(day: string): { year: number; month: number; date: number } {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return { year, month, date };
}

/** Whole months from `from` to `to` (YYYY-MM-DD), counting a month only once its day is reached. */
function monthsBetween(from: string, to: string): number {
  const a = calendar(from);
  const b = calendar(to);
  let months = (b.year - a.year) * 12 + (b.month - a.month);
  if (b.date < a.date) months -= 1;
  return months;
}

/**
 * The age in whole months on `day` (YYYY-MM-DD): from the date of birth when known, otherwise the
 * recorded age moved on by the months between its day and `day` (or as recorded when either day is
 * unknown). Null when the age is unknown or would be negative.
 */
export function ageInMonthsOn(source: AgeSource, day: string | null): number | null {
  let months: number | null = null;
  if (source.birthDate && day) months = monthsBetween(source.birthDate, day);
  else if (source.ageMonths !== null) {
    months =
      source.ageRecordedOn && day ? source.ageMonths + monthsBetween(source.ageRecordedOn, day) : source.ageMonths;
  }
  return months === null || months < 0 ? null : months;
}

/** An age as CHAT's `@ID` writes it: `years;months.` with two-digit months (`72;03.`). */
export function chatAge(months: number): string {
  return `${Math.floor(months / 12)};${String(months % 12).padStart(2, "0")}.`;
}

/** An age for people: `72 y 3 m`. */
export function ageLabel(months: number): string {
  return `${Math.floor(months / 12)} y ${months % 12} m`;
}

/** The age bands of the balance counts, by lower bound in years; `unknown` when no age is known. */
export const AGE_BANDS = ["under 50", "50–59", "60–69", "70–79", "80–89", "90+", "unknown"] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/** The band of an age in months (null: `unknown`). The SQL of the balance counts uses the same bounds. */
export function ageBand(months: number | null): AgeBand {
  if (months === null) return "unknown";
  const years = Math.floor(months / 12);
  if (years < 50) return "under 50";
  if (years >= 90) return "90+";
  return AGE_BANDS[Math.floor(years / 10) - 4] as AgeBand;
}
