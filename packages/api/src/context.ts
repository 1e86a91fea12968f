import type { ApiTokenScope } from "@tafsiri/domain";
import type { Database, Role } from "@tafsiri/db";
import type { FileStorage } from "./storage/file-storage";
import type { EventBus } from "./live/bus";
import type { Mailer } from "./mail/mailer";
import type { BackupDesk } from "./backup/backup-desk";

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
  /** The programme's name on the Dashboard's welcome banner (PROGRAMME_NAME, SPEC §1); "Tafsiri" when unset. */
  programmeName?: string | undefined;
  /** Sends e-mail (password reset); without one, reset links are only logged. */
  mailer?: Mailer;
  /** Base of links in e-mails (PUBLIC_URL, or http://HOST:PORT). */
  publicUrl?: string;
  /** Told of things an operator should see (the reset link when mailing to the outbox, mail failures). */
  log?: (line: string) => void;
  /** How long a session token lasts without renewal, in seconds (SESSION_IDLE_DAYS; default 30 days). */
  sessionLifetimeSeconds?: number;
  /**
   * The waveform job (ARCHITECTURE "Long recordings and the corpus"): told when an audio or a
   * translated recording was stored, so it decodes the file now rather than at its next poll.
   */
  waveforms?: { wake(): void };
  /**
   * Decision 037, webhooks: the hosts whose receivers may be on private, loopback or link-local
   * addresses (WEBHOOK_ALLOWED_HOSTS), and the delivery job, woken after a change's commit so its
   * events are sent now rather than at the job's next poll.
   */
  webhooks?: { allowedHosts: readonly string[]; wake(): void };
  /** Decision 027: the backup folder of the Backups page ('Back up now', list, download, delete); none in tests that need none. */
  backups?: BackupDesk;
}

/** A Bearer token resolved to its session (authenticateSession, decision 012). */
export interface AuthenticatedSession {
  user: SessionUser;
  version: number;
  expiresAt: Date;
  /** Decision 036: the API token the session is, when it is one. */
  apiToken?: { id: string; scope: ApiTokenScope };
}

/** The session a call's token carries: its version and expiry (decision 012). */
export interface CallSession {
  version: number;
  expiresAt: Date;
  /** Decision 036: the API token the call came with, when it came with one (its id and scope). */
  apiToken?: { id: string; scope: ApiTokenScope } | undefined;
}

export interface Context extends AppDeps {
  user: SessionUser | null;
  /** The session of the caller's token (null without one, or for callers made in code). */
  session?: CallSession | null;
  /** How the call arrived: the WebSocket serves subscriptions only. */
  transport?: "http" | "ws";
  /** The caller's IP address (rate limits), when known. */
  clientIp?: string;
}

/** The transport-independent context (STYLE §4); HTTP and WebSocket adapters build on it. */
export async function createContextInner(
  opts: AppDeps & {
    user: SessionUser | null;
    session?: CallSession | null;
    transport?: "http" | "ws";
    clientIp?: string;
  },
): Promise<Context> {
  return { ...opts, transport: opts.transport ?? "http" };
}
