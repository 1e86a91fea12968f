import { useEffect, useRef, useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import {
  normalizeSecondFactorCode,
  SECOND_FACTOR_MALFORMED_CODE,
  SECOND_FACTOR_REQUIRED_MESSAGE,
  secondFactorCodeKind,
} from "@tafsiri/domain";
import { Field } from "#web/components/field";
import { errorMessage, isServerRefusal, useTRPC } from "#web/lib/trpc";
import type { SignInAnswer } from "#web/lib/api-types";

/**
 * Decision 038, the second step of a password sign-in for an account with an authenticator app:
 * the app's 6-digit code (autocomplete one-time-code, a numeric keyboard) or, after 'Use a recovery
 * code', one of the account's recovery codes. It signs in again with the email and password of
 * the first step and `otp`; a wrong or locked code is said under the field (an alert). Focus starts
 * in the field and returns to it after each change of mode or refusal.
 */
export function SecondFactorStep({
  email,
  password,
  onSignedIn,
  onBack,
}: {
  email: string;
  password: string;
  onSignedIn(answer: SignInAnswer): void;
  onBack(): void;
}) {
  const trpc = useTRPC();
  const login = useMutation(trpc.accounts.login.mutationOptions());
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), [recovery]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const otp = normalizeSecondFactorCode(code);
    const kind = secondFactorCodeKind(otp);
    if (otp === "" || kind === null || (kind === "recovery-code") !== recovery) {
      setError(otp === "" ? "Enter the code." : SECOND_FACTOR_MALFORMED_CODE);
      input.current?.focus();
      return;
    }
    setError(undefined);
    login.mutate(
      { email, password, otp },
      {
        onSuccess: onSignedIn,
        onError: (failure) => {
          if (!isServerRefusal(failure)) {
            toast.error(`An error occurred: ${errorMessage(failure)}`);
            return;
          }
          setError(errorMessage(failure));
          setCode("");
          input.current?.focus();
        },
      },
    );
  };

  const switchMode = () => {
    setRecovery(!recovery);
    setCode("");
    setError(undefined);
  };

  return (
    <>
      <h1 className="auth-title">Two-factor authentication</h1>
      <p className="auth-subtitle muted" id="second-factor-intro">
        {recovery
          ? "Enter one of the recovery codes you saved when you set up two-factor authentication. Each works once."
          : SECOND_FACTOR_REQUIRED_MESSAGE}
      </p>
      <form className="auth-form" noValidate onSubmit={onSubmit} aria-describedby="second-factor-intro">
        <Field
          id="second-factor-code"
          label={recovery ? "Recovery code" : "Authentication code"}
          hint={recovery ? "Like abcde-23456." : "The 6 digits your authenticator app shows now."}
          error={error}
        >
          {(props) => (
            <input
              {...props}
              ref={input}
              className="input auth-input"
              autoComplete={recovery ? "off" : "one-time-code"}
              inputMode={recovery ? "text" : "numeric"}
              autoCapitalize="off"
              spellCheck={false}
              maxLength={recovery ? 16 : 8}
              value={code}
              onChange={(event) => {
                setCode(event.target.value);
                if (error) setError(undefined);
              }}
            />
          )}
        </Field>
        <button type="submit" className="btn btn-primary auth-submit" disabled={login.isPending}>
          {login.isPending && <span className="spinner" aria-hidden="true" />}
          Verify
        </button>
        <div className="row" style={{ justifyContent: "space-between" }}>
          <button type="button" className="link-button" onClick={switchMode}>
            {recovery ? "Use your authenticator app" : "Use a recovery code"}
          </button>
          <button type="button" className="link-button" onClick={onBack} disabled={login.isPending}>
            Back to sign in
          </button>
        </div>
      </form>
    </>
  );
}
