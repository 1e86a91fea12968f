import { SignInPage } from "#web/features/auth/components/sign-in-page";
import { PasskeySignIn } from "#web/features/passkeys/components/passkey-sign-in";

/** /signin (SPEC §2.4), with 'Sign in with a passkey' and the email field's passkeys (decision 038). */
export function Component() {
  return <SignInPage passkeys={(onSignedIn) => <PasskeySignIn onSignedIn={onSignedIn} />} />;
}
