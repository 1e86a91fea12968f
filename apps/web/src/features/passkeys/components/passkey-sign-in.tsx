import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  WebAuthnAbortService,
} from "@simplewebauthn/browser";
import { PASSKEY_CANCELLED } from "@tafsiri/domain";
import type { SignInAnswer } from "#web/lib/api-types";
import { errorMessage, isConnectionError, isServerRefusal, useTRPCClient } from "#web/lib/trpc";
import { assertPasskey, ceremonyMessage, wasCancelled } from "#web/lib/passkey-ceremony";
import "./passkeys.css";

/** How many times at most the email field offers passkeys: once, then again after each refused one. */
const AUTOFILL_ROUNDS = 5;

/** A failed sign-in as the password's is told (SPEC §8): 'Login Failed' and the server's reason. */
function tellFailure(error: unknown): void {
  if (isServerRefusal(error)) toast.error("Login Failed", { description: errorMessage(error) });
  else toast.error(`An error occurred: ${errorMessage(error)}`);
}

/**
 * Decision 038, the sign-in page's passkeys: 'Sign in with a passkey' (the browser's dialog, no
 * email needed) and, where the browser offers it, the email field's suggestions (conditional
 * mediation: the field carries `autocomplete="username webauthn"`), waiting from the start and
 * aborted cleanly when the button is used instead, then offered again. A signed-in answer goes to
 * `onSignedIn`, as the password's does; a closed prompt says so plainly.
 */
export function PasskeySignIn({ onSignedIn }: { onSignedIn(answer: SignInAnswer): void }) {
  const client = useTRPCClient();
  const [pending, setPending] = useState(false);
  const [note, setNote] = useState("");
  // A new round offers the email field's suggestions again (after the button's ceremony ended).
  const [autofillRound, setAutofillRound] = useState(0);
  const signedIn = useRef(onSignedIn);
  useEffect(() => {
    signedIn.current = onSignedIn;
  }, [onSignedIn]);

  useEffect(() => {
    let stopped = false;
    const offerInEmailField = async () => {
      if (!(await browserSupportsWebAuthnAutofill())) return;
      // A few rounds at most: a browser that answers at once (no choice made) cannot spin forever.
      for (let round = 0; round < AUTOFILL_ROUNDS && !stopped; round += 1) {
        let response;
        try {
          const options = await client.passkeys.signInOptions.mutate();
          if (stopped) return;
          response = await assertPasskey(options, true);
        } catch {
          // Aborted (the button, leaving the page) or unavailable: the button still works.
          return;
        }
        try {
          signedIn.current(await client.passkeys.signIn.mutate({ response }));
          return;
        } catch (error) {
          // Said, then offered again with a fresh challenge.
          tellFailure(error);
        }
      }
    };
    void offerInEmailField();
    return () => {
      stopped = true;
      WebAuthnAbortService.cancelCeremony();
    };
  }, [client, autofillRound]);

  if (!browserSupportsWebAuthn()) return null;

  const signInWithPasskey = async () => {
    setPending(true);
    setNote("");
    try {
      const options = await client.passkeys.signInOptions.mutate();
      // Starting this ceremony aborts the email field's waiting one.
      const response = await assertPasskey(options);
      signedIn.current(await client.passkeys.signIn.mutate({ response }));
      return;
    } catch (error) {
      if (wasCancelled(error)) setNote(PASSKEY_CANCELLED);
      else if (isServerRefusal(error) || isConnectionError(error)) tellFailure(error);
      else setNote(ceremonyMessage(error));
    } finally {
      setPending(false);
    }
    setAutofillRound((round) => round + 1);
  };

  return (
    <div className="passkey-sign-in">
      <p className="passkey-or" aria-hidden="true">
        or
      </p>
      <button
        type="button"
        className="btn auth-submit passkey-button"
        disabled={pending}
        onClick={() => void signInWithPasskey()}
      >
        {pending && <span className="spinner" aria-hidden="true" />}
        Sign in with a passkey
      </button>
      <p className="field-hint passkey-note" role="status">
        {note}
      </p>
    </div>
  );
}
