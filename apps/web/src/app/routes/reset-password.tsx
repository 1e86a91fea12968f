import { ResetPasswordPage } from "../../features/auth/components/reset-password-page";

/** /reset-password (SPEC §2.5). */
export function Component() {
  return <ResetPasswordPage />;
}
