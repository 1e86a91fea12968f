import { useSyncExternalStore } from "react";
import { readSession, subscribeSession, type Session } from "#web/lib/session";

let cachedRaw: string | null = null;
let cached: Session | null = null;

function snapshot(): Session | null {
  const raw = localStorage.getItem("tafsiri-session");
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = readSession();
  }
  return cached;
}

/** The current session (re-renders on sign-in and sign-out). */
export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, snapshot);
}
