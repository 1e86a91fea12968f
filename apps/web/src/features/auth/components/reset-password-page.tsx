import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { AuthLayout } from "./auth-layout";
import { TextField } from "#web/components/field";
import { emailError } from "#web/features/auth/lib/validation";
import { paths } from "#web/config/paths";

/**
 * Password reset request (SPEC §2.5, §8): the server answers the same message for every address
 * and e-mails a single-use link to an active account. Toast 'Success' with the message, or 'Error'.
 */
export function ResetPasswordPage() {
  const trpc = useTRPC();
  const request = useMutation(trpc.accounts.requestPasswordReset.mutationOptions());
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [sent, setSent] = useState<string | undefined>();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = emailError(email);
    setError(next);
    if (next) return;
    request.mutate(
      { email: email.trim() },
      {
        onSuccess: ({ message }) => {
          setSent(message);
          toast.success("Success", { description: message });
        },
        onError: (failure) => toast.error("Error", { description: errorMessage(failure) }),
      },
    );
  };

  return (
    <AuthLayout>
      <h1 className="auth-title">Reset your password</h1>
      <p className="auth-subtitle muted">Enter the email address of your account.</p>
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField
          className="auth-input"
          id="reset-email"
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.org"
          value={email}
          error={error}
          onChange={(value) => {
            setEmail(value);
            setError(emailError(value));
          }}
        />
        <button type="submit" className="btn btn-primary auth-submit" disabled={request.isPending}>
          Request password Reset
        </button>
      </form>
      <p className="auth-subtitle" role="status" aria-live="polite">
        {sent}
      </p>
      <p className="auth-back">
        <Link to={paths.signIn} className="auth-link">
          Back to login
        </Link>
      </p>
    </AuthLayout>
  );
}
