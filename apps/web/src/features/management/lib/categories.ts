/** Audio categories (SPEC §9), in the order the toggles and choices show them. */
export const CATEGORIES = ["Control", "Dementia"] as const;
export type Category = (typeof CATEGORIES)[number];
