/**
 * The categories of an audio (SPEC §3, §5): the one list of labels the database, the API, the REST
 * layer and the web app check against. A participant's study group is the same list (decision 024).
 */

/** SPEC §3: the two categories an audio is labelled with, in the order every screen lists them. */
export const CATEGORIES = ["Control", "Dementia"] as const;
/** One of CATEGORIES. */
export type Category = (typeof CATEGORIES)[number];

/** SPEC §5 Audio upload: the message for a missing or unknown category. */
export const CATEGORY_REQUIRED = "Please select a category.";

/** Whether `value` is one of CATEGORIES (SPEC §3). */
export function isCategory(value: unknown): value is Category {
  return (CATEGORIES as readonly unknown[]).includes(value);
}
