import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "#web/lib/trpc";
import { OVERVIEW_META } from "#web/features/dashboard/lib/statistics-meta";
import "#web/features/dashboard/dashboard.css";

/**
 * The Dashboard's welcome banner (SPEC §1, §2.6): the greeting by time of day with the admin's
 * name as the page's heading, and the programme's name (PROGRAMME_NAME, from statistics.overview,
 * the query the cards share). Until the overview has answered, or when it fails (the cards say
 * so), the banner shows the greeting alone.
 */
export function WelcomeBanner({ greeting, username }: { greeting: string; username: string }) {
  const trpc = useTRPC();
  const overview = useQuery({ ...trpc.statistics.overview.queryOptions(), meta: OVERVIEW_META });
  const programme = overview.data?.programmeName;
  return (
    <div className="welcome-banner">
      <h1 className="page-title">
        {greeting}, {username}
      </h1>
      <p className="welcome-programme">
        {programme && (
          <>
            Welcome to <strong>{programme}</strong>
          </>
        )}
      </p>
    </div>
  );
}
