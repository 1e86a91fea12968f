import { TwoFactorSection } from "#web/features/second-factor/components/two-factor-section";
import { PasskeysSection } from "#web/features/passkeys/components/passkeys-section";
import { SessionsSection } from "#web/features/sessions/components/sessions-section";
import { useSession } from "#web/hooks/use-session";

/**
 * /settings/profile: the signed-in person's own account and how they sign in (decision 038):
 * who they are, then one section per way of proving it (passkeys, two-factor authentication) and
 * where they are signed in (sessions).
 */
export function Component() {
  const session = useSession();
  return (
    <section className="page stack profile-page" aria-labelledby="profile-title">
      <h1 id="profile-title" className="page-title">
        Profile
      </h1>
      {session && (
        <p className="muted">
          Signed in as <strong>{session.username}</strong> ({session.email}), {session.role}.
        </p>
      )}
      <PasskeysSection />
      <TwoFactorSection />
      <SessionsSection />
    </section>
  );
}
