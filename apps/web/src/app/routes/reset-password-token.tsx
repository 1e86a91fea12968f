import { useParams } from "react-router";
import { SetNewPasswordPage } from "#web/features/auth/components/set-new-password-page";

/** /reset-password/:token, the e-mailed reset link (SPEC §2.5). */
export function Component() {
  const { token = "" } = useParams();
  return <SetNewPasswordPage token={token} />;
}
