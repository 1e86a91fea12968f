import type { Database, Role } from "@tafsiri/db";
import type { FileStorage } from "./storage/file-storage";
import type { EventBus } from "./live/bus";

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
  /** The process's live-event bus: services call `events.poke()` after committing events. */
  events: EventBus;
  /** IANA time zone of the Dashboard's "today" and "yesterday" (APP_TIMEZONE); "UTC" when unset. */
  timezone?: string;
}

export interface Context extends AppDeps {
  user: SessionUser | null;
  /** How the call arrived: the WebSocket serves subscriptions only. */
  transport?: "http" | "ws";
}

/** The transport-independent context (STYLE §4); HTTP and WebSocket adapters build on it. */
export async function createContextInner(
  opts: AppDeps & { user: SessionUser | null; transport?: "http" | "ws" },
): Promise<Context> {
  return { ...opts, transport: opts.transport ?? "http" };
}
