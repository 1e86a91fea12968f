/** The signed-in session kept in local storage (SPEC §3 User / session). */
export interface Session {
  _id: string;
  username: string;
  email: string;
  role: "Admin" | "Staff";
  active: boolean;
  image: string | null;
  token: string;
}

const SESSION_KEY = "tafsiri-session";
const listeners = new Set<() => void>();

export function readSession(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function writeSession(session: Session | null): void {
  if (session) localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else localStorage.removeItem(SESSION_KEY);
  listeners.forEach((l) => l());
}

/** For useSyncExternalStore. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
