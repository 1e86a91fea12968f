import { ageLabel, type ConsentStatus, type Sex } from "@tafsiri/domain";

/**
 * Participants in words (decision 024): consent told by text (never by colour alone), sex, ages
 * and the latest cognitive score, as the Participants list, a participant's page and the side
 * panel show them.
 */

/** Each consent status as people read it. */
export const CONSENT_LABELS: Record<ConsentStatus, string> = {
  given: "Given",
  restricted: "Restricted",
  withdrawn: "Withdrawn",
  not_recorded: "Not recorded",
};

/** The badge class of a consent status (the colour only repeats the words). */
export const CONSENT_BADGES: Record<ConsentStatus, string> = {
  given: "badge badge-success",
  restricted: "badge badge-warning",
  withdrawn: "badge badge-danger",
  not_recorded: "badge",
};

/** Each sex as people read it; unknown is 'Not recorded'. */
export const SEX_LABELS: Record<Sex, string> = { female: "Female", male: "Male" };

/** A sex for people ('Female', 'Male', or '—' when not recorded). */
export function sexText(sex: Sex | null): string {
  return sex ? SEX_LABELS[sex] : "—";
}

/** An age in whole months for people ('72 y 3 m'), or '—' when unknown. */
export function ageText(months: number | null): string {
  return months === null ? "—" : ageLabel(months);
}

/**
 * The latest score of `instrument` among `scores`: the one taken last (a score without a day counts
 * as older than any dated one; among equals the last given wins), or null when there is none.
 */
export function latestScore(
  scores: ReadonlyArray<{ instrument: string; score: number; takenOn: string | null }>,
  instrument: string,
): { score: number; takenOn: string | null } | null {
  let latest: { score: number; takenOn: string | null } | null = null;
  for (const s of scores) {
    if (s.instrument !== instrument) continue;
    if (!latest || (s.takenOn ?? "") >= (latest.takenOn ?? "")) latest = s;
  }
  return latest;
}
