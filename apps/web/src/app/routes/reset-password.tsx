import { ResetPasswordPage } from "#web/features/auth/components/reset-password-page";

/** /reset-password (SPEC §2.5). */
export function Component() {
  return <ResetPasswordPage />;
}
