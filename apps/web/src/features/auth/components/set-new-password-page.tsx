import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { useMutation } from "@tanstack/react-query";
import { toast } from "sonner";
import { errorMessage, useTRPC } from "#web/lib/trpc";
import { isStrongPassword, WEAK_PASSWORD_DESCRIPTION, WEAK_PASSWORD_MESSAGE } from "@tafsiri/domain";
import { PasswordMeter } from "#web/components/password-meter";
import { AuthLayout } from "./auth-layout";
import { TextField } from "#web/components/field";
import { paths } from "#web/config/paths";

/**
 * The e-mailed link's page (/reset-password/{token}, SPEC §2.5): a new Strong password (with the
 * SPEC §4 meter) typed twice. Success: toast 'Success' and /signin; an expired, used or unknown
 * link, or a refused password: toast 'Error' with the reason (SPEC §8).
 */
export function SetNewPasswordPage({ token }: { token: string }) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const reset = useMutation(trpc.accounts.resetPassword.mutationOptions());
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const next = {
      password: password ? undefined : "Password is required",
      confirm: confirm === password ? undefined : "Passwords do not match",
    };
    setErrors(next);
    if (next.password || next.confirm) return;
    if (!isStrongPassword(password)) {
      toast.error(WEAK_PASSWORD_MESSAGE, { description: WEAK_PASSWORD_DESCRIPTION });
      return;
    }
    reset.mutate(
      { token, password },
      {
        onSuccess: ({ message }) => {
          toast.success("Success", { description: message });
          void navigate(paths.signIn);
        },
        onError: (failure) => toast.error("Error", { description: errorMessage(failure) }),
      },
    );
  };

  return (
    <AuthLayout>
      <h1 className="auth-title">Choose a new password</h1>
      <p className="auth-subtitle muted">
        Use at least 8 characters with an uppercase letter, a lowercase letter, a number and a special character.
      </p>
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField
          className="auth-input"
          id="new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          describedBy="new-password-strength"
          onChange={setPassword}
        />
        <PasswordMeter id="new-password-strength" password={password} />
        <TextField
          className="auth-input"
          id="confirm-password"
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          value={confirm}
          error={errors.confirm}
          onChange={setConfirm}
        />
        <button type="submit" className="btn btn-primary auth-submit" disabled={reset.isPending}>
          Set new password
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
