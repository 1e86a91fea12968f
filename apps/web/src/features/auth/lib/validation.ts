import { paths } from "#web/config/paths";

/** SPEC §5: 'Email is required' when the email is empty or blank. */
export function emailError(email: string): string | undefined {
  return email.trim() ? undefined : "Email is required";
}

/** SPEC §5: 'Password is required' when the password is empty. */
export function passwordError(password: string): string | undefined {
  return password ? undefined : "Password is required";
}

/** The sign-in and password-reset pages: never a page to return to after sign-in. */
const AUTH_PAGES = new RegExp(`^(${[paths.signIn, paths.resetPassword].join("|")})\\b`, "i");

/**
 * The page to return to after sign-in, from location.state.from (set by RequireAuth).
 * Only same-site paths are accepted; anything else gives undefined.
 */
export function returnPath(state: unknown): string | undefined {
  if (typeof state !== "object" || state === null || !("from" in state)) return undefined;
  const from = (state as { from: unknown }).from;
  if (typeof from !== "string" || !from.startsWith("/") || from.startsWith("//")) return undefined;
  if (AUTH_PAGES.test(from)) return undefined;
  return from;
}
