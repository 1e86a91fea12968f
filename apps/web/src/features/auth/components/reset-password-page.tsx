import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { AuthLayout } from "./auth-layout";
import { TextField } from "./text-field";
import { emailError } from "../lib/validation";
import { paths } from "../../../config/paths";

/**
 * Password reset request (SPEC §2.5). The server side of the reset is not built yet, so a valid
 * request says so plainly instead of pretending a link was sent.
 */
export function ResetPasswordPage() {
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | undefined>();

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = emailError(email);
    setError(next);
    if (next) return;
    toast.info("Password reset is not available yet. Please contact an administrator.");
  };

  return (
    <AuthLayout>
      <h1 className="auth-title">Reset your password</h1>
      <p className="auth-subtitle muted">Enter the email address of your account.</p>
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField
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
        <button type="submit" className="btn btn-primary auth-submit">
          Request password Reset
        </button>
      </form>
      <p className="auth-back">
        <Link to={paths.signIn} className="auth-link">
          Back to login
        </Link>
      </p>
    </AuthLayout>
  );
}
