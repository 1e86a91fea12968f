import type { Database, Role } from "@tafsiri/db";
import type { FileStorage } from "./storage/file-storage";

/** The signed-in user as procedures see it (never the password hash). */
export interface SessionUser {
  id: string;
  username: string;
  email: string;
  role: Role;
  active: boolean;
}

/** Server-wide things every procedure may use; built once at start-up. */
export interface AppDeps {
  db: Database;
  storage: FileStorage;
  jwtSecret: Uint8Array;
}

export interface Context extends AppDeps {
  user: SessionUser | null;
}

/** The transport-independent context (STYLE §4); HTTP and WebSocket adapters build on it. */
export async function createContextInner(opts: AppDeps & { user: SessionUser | null }): Promise<Context> {
  return { ...opts };
}
