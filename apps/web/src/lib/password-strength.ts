// The password rules of SPEC §4 and §5, mirrored from the server's
// packages/api/src/services/password-rules.ts (the web app never imports server code). The server
// checks again: this copy only drives the meter and the early 'Password is weak' toast.

/** The five password criteria of SPEC §5, in order. */
const PASSWORD_CRITERIA: ReadonlyArray<{ label: string; test: (p: string) => boolean }> = [
  { label: "at least 8 characters", test: (p) => p.length >= 8 },
  { label: "an uppercase letter", test: (p) => /[A-Z]/.test(p) },
  { label: "a lowercase letter", test: (p) => /[a-z]/.test(p) },
  { label: "a number", test: (p) => /[0-9]/.test(p) },
  { label: "a special character", test: (p) => /[^A-Za-z0-9]/.test(p) },
];

export type PasswordStrength = "Weak" | "Moderate" | "Strong";

/** How many of the five criteria `password` meets. */
export function criteriaMet(password: string): number {
  return PASSWORD_CRITERIA.filter((c) => c.test(password)).length;
}

/** SPEC §4: Weak (1-2 criteria met), Moderate (3-4), Strong (all 5). */
export function passwordStrength(password: string): PasswordStrength {
  const met = criteriaMet(password);
  if (met === 5) return "Strong";
  return met >= 3 ? "Moderate" : "Weak";
}

/** SPEC §5: the toast's title and description when a password is not Strong. */
export const WEAK_PASSWORD_MESSAGE = "Password is weak";
export const WEAK_PASSWORD_DESCRIPTION =
  "Password must be at least 8 characters long and contain at least one uppercase letter, one lowercase letter, one number and one special character";
