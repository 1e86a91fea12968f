/**
 * Decision 038: how a session signed in, and the rules of re-authentication and of the admins'
 * required second factor, shared by the server (which enforces them) and the web app (which
 * shows them).
 */

/** How a session signed in (the session token's `amr` claim and the sessions list). */
export const SIGN_IN_METHODS = ["password", "password+totp", "password+recovery-code", "passkey"] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** How the sessions list names each sign-in method. */
export const SIGN_IN_METHOD_LABELS: Record<SignInMethod, string> = {
  password: "Password",
  "password+totp": "Password and authenticator code",
  "password+recovery-code": "Password and recovery code",
  passkey: "Passkey",
};

/** True when a session that signed in so has proved more than a password (a second factor or a passkey). */
export function isStrongSignIn(method: SignInMethod): boolean {
  return method !== "password";
}

/** How long a check of who the person is (sign-in, passkey, code) covers sensitive actions, ms: 10 minutes. */
export const REAUTH_WINDOW_MS = 10 * 60_000;

/** The error code (tRPC `cause`, REST `code`) of a sensitive action whose session must confirm who it is. */
export const REAUTH_REQUIRED = "REAUTH_REQUIRED";
export const REAUTH_REQUIRED_MESSAGE =
  "Confirm it's you: this action needs your passkey, an authenticator code or your password again.";

/** The error code of an admin session that must enrol a second factor before anything else. */
export const SECOND_FACTOR_ENROLMENT_REQUIRED = "SECOND_FACTOR_ENROLMENT_REQUIRED";
export const SECOND_FACTOR_ENROLMENT_MESSAGE =
  "Admins must add a passkey or an authenticator app before going on. Add one in your profile.";

/** The web app's page of one's own account, passkeys, authenticator app and sessions (notifications link to it). */
export const PROFILE_PATH = "/settings/profile";

/** The refusal of a confirmation of who one is that gives none, or more than one, of passkey, code or password. */
export const CONFIRM_WITH_ONE_PROOF = "Confirm with one of: passkey, code or password.";
