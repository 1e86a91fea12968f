/**
 * The password rules of SPEC §4 and §5: the five criteria, the strength they make, and the message
 * when a password is not Strong. The web app's meter and early toast and the server's refusal
 * (packages/api `assertStrongPassword`) use these same functions.
 */

/** One of SPEC §5's password criteria: its words and whether a password meets it. */
export interface PasswordCriterion {
  label: string;
  test: (password: string) => boolean;
}

/** SPEC §5: the five password criteria, in the order the SPEC lists them. */
export const PASSWORD_CRITERIA: readonly PasswordCriterion[] = [
  { label: "at least 8 characters", test: (p) => p.length >= 8 },
  { label: "an uppercase letter", test: (p) => /[A-Z]/.test(p) },
  { label: "a lowercase letter", test: (p) => /[a-z]/.test(p) },
  { label: "a number", test: (p) => /[0-9]/.test(p) },
  { label: "a special character", test: (p) => /[^A-Za-z0-9]/.test(p) },
];

/** SPEC §4: a password's strength. */
export type PasswordStrength = "Weak" | "Moderate" | "Strong";

/** Takes a password; returns how many of the five PASSWORD_CRITERIA it meets (SPEC §5). */
export function criteriaMet(password: string): number {
  return PASSWORD_CRITERIA.filter((c) => c.test(password)).length;
}

/** Takes a password; returns its strength (SPEC §4): Weak (0-2 criteria met), Moderate (3-4), Strong (all 5). */
export function passwordStrength(password: string): PasswordStrength {
  const met = criteriaMet(password);
  if (met === PASSWORD_CRITERIA.length) return "Strong";
  return met >= 3 ? "Moderate" : "Weak";
}

/** SPEC §5: only a Strong password is accepted. Takes a password; true when it is Strong. */
export function isStrongPassword(password: string): boolean {
  return passwordStrength(password) === "Strong";
}

/** SPEC §5: the title of the toast (and the start of the server's message) for a password that is not Strong. */
export const WEAK_PASSWORD_MESSAGE = "Password is weak";
/** SPEC §5: the toast's description (and the rest of the server's message) for a password that is not Strong. */
export const WEAK_PASSWORD_DESCRIPTION =
  "Password must be at least 8 characters long and contain at least one uppercase letter, one lowercase letter, one number and one special character";
