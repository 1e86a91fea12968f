import { Navigate } from "react-router";
import { useSession } from "#web/hooks/use-session";
import { paths } from "#web/config/paths";
import { Dashboard } from "#web/features/dashboard/components/dashboard";
import { WelcomeBanner } from "#web/features/dashboard/components/welcome-banner";

/** SPEC §2.6: 'Good morning' before 12, 'Good afternoon' before 18, otherwise 'Good evening'. */
function greeting(hour: number): string {
  if (hour < 12) return "Good morning";
  if (hour < 18) return "Good afternoon";
  return "Good evening";
}

/**
 * / (SPEC §1, §2.1, §2.6): the Admin dashboard under its welcome banner (the greeting by time of
 * day and the programme's name); Staff go to /Audios.
 */
export function Component() {
  const session = useSession();
  if (!session) return null;
  if (session.role !== "Admin") return <Navigate to={paths.tasks} replace />;

  return (
    <section className="page">
      <WelcomeBanner greeting={greeting(new Date().getHours())} username={session.username} />
      <Dashboard />
    </section>
  );
}
