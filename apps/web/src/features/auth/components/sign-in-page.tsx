import { useState, type FormEvent, type ReactNode } from "react";
import { Link, Navigate, useLocation } from "react-router";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, errorReason, isServerRefusal, useTRPC } from "#web/lib/trpc";
import { homePathFor, writeSession } from "#web/lib/session";
import { useSession } from "#web/hooks/use-session";
import { AuthLayout } from "./auth-layout";
import { SecondFactorStep } from "./second-factor-step";
import { SECOND_FACTOR_REQUIRED } from "@tafsiri/domain";
import type { SignInAnswer } from "#web/lib/api-types";
import { TextField } from "#web/components/field";
import { emailError, passwordError, returnPath } from "#web/features/auth/lib/validation";
import { paths } from "#web/config/paths";

/**
 * Sign-in (SPEC §2.4, §5, §8). On success the session is stored and the user goes back to the
 * page they came from, or to their home (Admin "/", Staff "/Audios"). A signed-in user who
 * opens this page is sent on the same way.
 */
export function SignInPage({
  passkeys,
}: {
  /** Decision 038: the passkey sign-in under the form, handed the same end as the password's. */
  passkeys?: (onSignedIn: (answer: SignInAnswer) => void) => ReactNode;
} = {}) {
  const session = useSession();
  const location = useLocation();
  const trpc = useTRPC();
  const login = useMutation(trpc.accounts.login.mutationOptions());
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  // Decision 038: the password was right and the account asks for a code next.
  const [needsCode, setNeedsCode] = useState(false);

  if (session?.token) return <Navigate to={returnPath(location.state) ?? homePathFor(session.role)} replace />;

  const signedIn = ({ token, user }: SignInAnswer) =>
    writeSession({
      _id: user.id,
      username: user.username,
      email: user.email,
      role: user.role,
      active: user.active,
      image: user.image,
      token,
    });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = { email: emailError(email), password: passwordError(password) };
    setErrors(next);
    if (next.email || next.password) return;
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: signedIn,
        // SPEC §8: 'Login Failed' with the server's message, or 'An error occurred: {message}' when
        // the request itself failed (no answer, or a proxy's error page). Decision 038: an account
        // with an authenticator app goes on to the code's step instead.
        onError: (error) =>
          errorReason(error) === SECOND_FACTOR_REQUIRED
            ? setNeedsCode(true)
            : isServerRefusal(error)
              ? toast.error("Login Failed", { description: errorMessage(error) })
              : toast.error(`An error occurred: ${errorMessage(error)}`),
      },
    );
  };

  if (needsCode) {
    return (
      <AuthLayout>
        <SecondFactorStep
          email={email.trim()}
          password={password}
          onSignedIn={signedIn}
          onBack={() => {
            setPassword("");
            setNeedsCode(false);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout>
      <h1 className="auth-title">Sign in</h1>
      <p className="auth-subtitle muted">Welcome back. Enter your email and password to continue.</p>
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField
          className="auth-input"
          id="signin-email"
          label="Email"
          type="email"
          // Decision 038: the browser may offer passkeys among this field's suggestions.
          autoComplete="username webauthn"
          placeholder="you@example.org"
          value={email}
          error={errors.email}
          onChange={(value) => {
            setEmail(value);
            setErrors((er) => ({ ...er, email: emailError(value) }));
          }}
        />
        <TextField
          className="auth-input"
          id="signin-password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(value) => {
            setPassword(value);
            setErrors((er) => ({ ...er, password: passwordError(value) }));
          }}
        />
        <div className="auth-row-end">
          <Link to={paths.resetPassword} className="auth-link">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className="btn btn-primary auth-submit" disabled={login.isPending}>
          {login.isPending && <span className="spinner" aria-hidden="true" />}
          Sign In
        </button>
      </form>
      {passkeys?.(signedIn)}
      <p className="auth-notice">
        This system is only for staff and participants with credentials issued by administrators.
      </p>
    </AuthLayout>
  );
}
