import { useEffect } from "react";
import { useNavigate } from "react-router";
import { paths } from "#web/config/paths";
import { onIdentityPrompt } from "#web/lib/identity-prompts";

/**
 * Decision 038: when the server answers SECOND_FACTOR_ENROLMENT_REQUIRED to anything (an admin
 * signed in with a password alone while admins must have a second factor), goes to enrolment.
 */
export function EnrolmentRedirect() {
  const navigate = useNavigate();
  useEffect(
    () =>
      onIdentityPrompt((prompt) => {
        if (prompt === "enrol") void navigate(paths.enrolSecondFactor, { replace: true });
      }),
    [navigate],
  );
  return null;
}
