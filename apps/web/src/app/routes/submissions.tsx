import { SubmissionsPage } from "#web/features/submissions/components/submissions-page";

/** /submission/general: the Submissions page (SPEC §2.7). */
export function Component() {
  return <SubmissionsPage />;
}
