import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { Navigate, useNavigate } from "react-router";
import { toast } from "sonner";
import { REAUTH_REQUIRED } from "@tafsiri/domain";
import { paths } from "#web/config/paths";
import { useSession } from "#web/hooks/use-session";
import { reportIdentityRefusal } from "#web/lib/identity-prompts";
import { signOut } from "#web/lib/session";
import { useTRPC } from "#web/lib/trpc";
import { PasskeysSection } from "#web/features/passkeys/components/passkeys-section";
import { TwoFactorSection } from "#web/features/second-factor/components/two-factor-section";
import { ConfirmIdentityDialog } from "#web/features/sessions/components/confirm-identity-dialog";
import "#web/features/sessions/components/sessions.css";

/** How the stored session token says it signed in (its `amr` claim, decision 038), or null. */
function signInMethodOf(token: string | undefined): string | null {
  try {
    const payload = JSON.parse(atob(token?.split(".")[1]?.replace(/-/g, "+").replace(/_/g, "/") ?? "")) as {
      amr?: unknown;
    };
    return typeof payload.amr === "string" ? payload.amr : null;
  } catch {
    return null;
  }
}

/**
 * Decision 038: where an admin who signed in with a password alone is held while
 * REQUIRE_ADMIN_SECOND_FACTOR is on: add a passkey or an authenticator app, confirm with it once,
 * and go on; or sign out. Nothing else of the app answers that session until then.
 */
export function Component() {
  const session = useSession();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const totp = useQuery(trpc.totp.status.queryOptions());
  const passkeys = useQuery(trpc.passkeys.list.queryOptions());
  const enrolled = totp.data?.enrolled === true || (passkeys.data?.passkeys.length ?? 0) > 0;
  const strong = signInMethodOf(session?.token) !== "password";
  useEffect(() => {
    document.title = "Add a second factor · Tafsiri";
    // The refusals that brought the person here were toasted by the page they came from.
    toast.dismiss();
  }, []);
  if (!session?.token) return <Navigate to={paths.signIn} replace />;

  return (
    <main
      id="main-content"
      className="page stack profile-page security-required"
      tabIndex={-1}
      aria-labelledby="security-required-title"
    >
      <h1 id="security-required-title" className="page-title">
        Add a second factor
      </h1>
      <p>
        Administrators can read and export the programme&apos;s health data, so a password alone is not enough. Add a
        passkey or an authenticator app to your account, then confirm with it once to go on.
      </p>
      <PasskeysSection />
      <TwoFactorSection />
      <section className="card stack" aria-labelledby="security-required-next">
        <h2 id="security-required-next" className="panel-title">
          Go on
        </h2>
        {strong ? null : enrolled ? (
          <p>Confirm with the passkey or the authenticator app you added (the app&apos;s next code).</p>
        ) : (
          <p className="muted">Add a passkey or an authenticator app above first.</p>
        )}
        <div className="security-required-actions">
          {strong ? (
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void navigate(paths.home, { replace: true })}
            >
              Continue to Tafsiri
            </button>
          ) : enrolled ? (
            <button type="button" className="btn btn-primary" onClick={() => reportIdentityRefusal(REAUTH_REQUIRED)}>
              Confirm and continue
            </button>
          ) : null}
          <button type="button" className="btn" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </section>
      <ConfirmIdentityDialog />
    </main>
  );
}
