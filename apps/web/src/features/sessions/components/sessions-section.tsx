import { useQuery } from "@tanstack/react-query";
import { SIGN_IN_METHOD_LABELS } from "@tafsiri/domain";
import { useTRPC } from "#web/lib/trpc";

/** A time as the profile shows it ('7 Dec 2026, 14:05'). */
function when(iso: string): string {
  return new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

/**
 * Decision 038: the Profile's sessions list: each running session, how it signed in (password,
 * password and a code, passkey), from where and which browser, when it began and was last renewed;
 * this one is marked. 'Sign out everywhere' on the Accounts page ends them all.
 */
export function SessionsSection() {
  const trpc = useTRPC();
  const sessions = useQuery(trpc.sessions.list.queryOptions());
  return (
    <section className="card stack" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="panel-title">
        Sessions
      </h2>
      <p className="muted">Where your account is signed in now, and how each session signed in.</p>
      {sessions.isPending ? (
        <p role="status">Loading sessions…</p>
      ) : sessions.isError ? (
        <p role="alert">The sessions could not be loaded.</p>
      ) : sessions.data.sessions.length === 0 ? (
        <p>No sessions are recorded for this sign-in.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Your sessions" tabIndex={0}>
          <table className="table">
            <caption className="sr-only">Your sessions</caption>
            <thead>
              <tr>
                <th scope="col">Signed in with</th>
                <th scope="col">Signed in</th>
                <th scope="col">Last active</th>
                <th scope="col">Address</th>
                <th scope="col">Browser</th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.sessions.map((s) => (
                <tr key={s.id}>
                  <td>
                    {SIGN_IN_METHOD_LABELS[s.method]}
                    {s.current ? <strong> (this session)</strong> : null}
                  </td>
                  <td>{when(s.createdAt)}</td>
                  <td>{when(s.lastSeenAt)}</td>
                  <td>{s.ip ?? "—"}</td>
                  <td>{s.userAgent ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
