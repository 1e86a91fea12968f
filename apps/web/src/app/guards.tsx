import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { useSession } from "#web/hooks/use-session";
import { wasSignedOutByUser, type Session } from "#web/lib/session";
import { paths } from "#web/config/paths";

/**
 * SPEC §2.1: no token, go to /signin remembering where the user came from (location.state.from).
 * After the user's own Sign Out nothing is remembered, so the next sign-in lands on that user's home.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session?.token) {
    if (wasSignedOutByUser()) return <Navigate to={paths.signIn} replace />;
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={paths.signIn} replace state={{ from }} />;
  }
  return <>{children}</>;
}

/** SPEC §2.1: a signed-in user whose role is not permitted goes to /utility/404. */
export function RequireRole({ roles, children }: { roles: Session["role"][]; children: ReactNode }) {
  const session = useSession();
  if (!session || !roles.includes(session.role)) return <Navigate to={paths.notFound} replace />;
  return <>{children}</>;
}
