import { paths } from "#web/config/paths";

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
let signedOutByUser = false;

export function readSession(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function writeSession(session: Session | null): void {
  if (session) {
    signedOutByUser = false;
    localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  } else {
    localStorage.removeItem(SESSION_KEY);
  }
  listeners.forEach((l) => l());
}

/** For useSyncExternalStore. */
export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Sign Out from the user menu (SPEC §2.3): tells the server (its session row is marked signed out)
 * and clears the session. Unlike an expired token, the
 * route guard then sends the user to /signin without remembering the page they were on.
 */
export function signOut(): void {
  const token = readSession()?.token;
  // Decision 038: the sessions list shows it signed out; sent even as the page moves on (keepalive).
  if (token) {
    void fetch("/auth/signout", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      keepalive: true,
    }).catch(() => undefined);
  }
  signedOutByUser = true;
  writeSession(null);
}

/** True after signOut() until the next sign-in (read by RequireAuth). */
export function wasSignedOutByUser(): boolean {
  return signedOutByUser;
}

/** Where a role lands after sign-in and on "/" (SPEC §2.1, §2.4): Admin → "/", Staff → "/Audios". */
export function homePathFor(role: Session["role"]): string {
  return role === "Admin" ? paths.home : paths.tasks;
}
