import {
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import { PASSKEY_ALREADY_REGISTERED, PASSKEY_CANCELLED } from "@tafsiri/domain";
import type { RouterOutputs } from "@tafsiri/api";

/**
 * Decision 038: the browser's side of a passkey ceremony (@simplewebauthn/browser), and what the
 * person is told when it does not finish; shared by the Profile's passkeys, the sign-in page and
 * the 'Confirm it's you' dialog.
 */

type RegistrationOptions = RouterOutputs["passkeys"]["registrationOptions"];
type AuthenticationOptions = RouterOutputs["passkeys"]["signInOptions"];

/** Asks the browser to make a passkey from the server's options (the server's JSON is the browser's). */
export function createPasskey(options: RegistrationOptions): Promise<RegistrationResponseJSON> {
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/**
 * Asks the browser for a passkey's assertion; with `autofill`, through the email field's
 * suggestions (conditional mediation) rather than a dialog. A newer ceremony aborts this one.
 */
export function assertPasskey(options: AuthenticationOptions, autofill = false): Promise<AuthenticationResponseJSON> {
  return startAuthentication({
    optionsJSON: options as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: autofill,
  });
}

/** Whether a ceremony ended because the person closed the browser's prompt, or a newer one replaced it. */
export function wasCancelled(error: unknown): boolean {
  if (error instanceof WebAuthnError && error.code === "ERROR_CEREMONY_ABORTED") return true;
  const name = error instanceof Error ? error.name : "";
  return name === "NotAllowedError" || name === "AbortError";
}

/** What to tell the person of a ceremony that failed in the browser (not on the server). */
export function ceremonyMessage(error: unknown): string {
  if (wasCancelled(error)) return PASSKEY_CANCELLED;
  if (error instanceof WebAuthnError && error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED")
    return PASSKEY_ALREADY_REGISTERED;
  return error instanceof Error && error.message ? error.message : "The passkey could not be used.";
}
