import { useEffect } from "react";
import { useSession } from "#web/hooks/use-session";
import { readSession, writeSession } from "#web/lib/session";
import { useTRPCClient } from "#web/lib/trpc";
import { tokenTimes } from "#web/features/auth/lib/renewal-time";

/** What counts as using the app. */
const ACTIVITY_EVENTS = ["pointerdown", "keydown", "wheel", "touchstart"] as const;
/** After a failed renewal (server unreachable), the next attempt. */
const RETRY_MS = 60_000;
/** setTimeout's longest delay (about 24.8 days); later moments are waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Whether the app was used since the last renewal; loading the page counts as use. */
let usedSinceRenewal = true;

/** Calls `run` at `time` (ms since the epoch), also beyond setTimeout's range; returns the canceller. */
function at(time: number, run: () => void): () => void {
  let timer = 0;
  const wait = () => {
    const delay = time - Date.now();
    if (delay <= 0) run();
    else timer = window.setTimeout(wait, Math.min(delay, MAX_TIMER_MS));
  };
  wait();
  return () => window.clearTimeout(timer);
}

/**
 * Keeps a used session signed in (decision 012). Mounted once in the signed-in layout: when
 * the token is due (renewalTime: an hour after it was issued) and the user has used the app since
 * it was stored, it asks for a fresh token (accounts.renewSession) and stores it; the open
 * WebSocket stays open. A tab left untouched is not renewed, so a session nobody uses ends after
 * SESSION_IDLE_DAYS: when its token expires the tab signs out. A refused renewal (the session was
 * ended) signs out through the client's 401 handling. Renders nothing.
 */
export function SessionRenewal() {
  const session = useSession();
  const client = useTRPCClient();
  const token = session?.token;

  useEffect(() => {
    if (!token) return;
    const times = tokenTimes(token);
    if (times === null) return;
    let waitingForUse = false;
    let timer: number | undefined;
    let stopped = false;

    const renew = async () => {
      waitingForUse = false;
      try {
        const renewed = await client.accounts.renewSession.mutate();
        const current = readSession();
        if (!stopped && current?.token === token) {
          usedSinceRenewal = false;
          writeSession({ ...current, token: renewed.token });
        }
      } catch {
        if (!stopped && readSession()?.token === token) timer = window.setTimeout(() => void renew(), RETRY_MS);
      }
    };
    const onDue = () => {
      if (usedSinceRenewal) void renew();
      else waitingForUse = true;
    };
    const onActivity = () => {
      usedSinceRenewal = true;
      if (waitingForUse) void renew();
    };

    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    const cancelRenewal = at(times.renewAt, onDue);
    // Not renewed in time: the server refuses the token from now on, so the tab signs out.
    const cancelExpiry = at(times.expiresAt, () => {
      if (readSession()?.token === token) writeSession(null);
    });
    return () => {
      stopped = true;
      cancelRenewal();
      cancelExpiry();
      window.clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
    };
  }, [client, token]);

  return null;
}
