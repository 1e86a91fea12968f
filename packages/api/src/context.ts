import type { ApiTokenScope, SignInMethod } from "@tafsiri/domain";
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
   * Decision 038, REQUIRE_ADMIN_SECOND_FACTOR: admins must have a passkey or TOTP before anything
   * else. The server sets it from its settings (on by default); unset (deps made in code) is off.
   */
  requireAdminSecondFactor?: boolean;
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
  /**
   * Decision 038, passkeys: the WebAuthn relying party: its ID, a domain (WEBAUTHN_RP_ID), the
   * origin the web app is served from (WEBAUTHN_ORIGIN) and the name authenticators show
   * (PROGRAMME_NAME, else "Tafsiri"). Without it passkeys answer 503 (only code that needs none
   * leaves it out).
   */
  webauthn?: { rpId: string; origin: string; rpName: string };
  /** Decision 027: the backup folder of the Backups page ('Back up now', list, download, delete); none in tests that need none. */
  backups?: BackupDesk;
}

/** A Bearer token resolved to its session (authenticateSession, decision 012). */
/**
 * Decision 038: the session a token belongs to (claim `sid`), how it signed in (`amr`) and when
 * the person last proved who they are (`vat`). Tokens made without one (tests, benchmarks, tokens
 * issued before sessions were rows) have no session row and count as never re-checked.
 */
export interface SessionSignIn {
  id: string;
  method: SignInMethod;
  verifiedAt: Date;
}

export interface AuthenticatedSession {
  user: SessionUser;
  version: number;
  expiresAt: Date;
  /** Decision 038: its session row and how it signed in, when the token carries them. */
  signIn?: SessionSignIn;
  /** Decision 036: the API token the session is, when it is one. */
  apiToken?: { id: string; scope: ApiTokenScope };
}

/** The session a call's token carries: its version and expiry (decision 012). */
export interface CallSession {
  version: number;
  expiresAt: Date;
  /** Decision 038: its session row and how it signed in, when the token carries them. */
  signIn?: SessionSignIn | undefined;
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
  /** The caller's User-Agent header, when known (the sessions list, decision 038). */
  userAgent?: string;
}

/** The transport-independent context (STYLE §4); HTTP and WebSocket adapters build on it. */
export async function createContextInner(
  opts: AppDeps & {
    user: SessionUser | null;
    session?: CallSession | null;
    transport?: "http" | "ws";
    clientIp?: string;
    userAgent?: string;
  },
): Promise<Context> {
  return { ...opts, transport: opts.transport ?? "http" };
}
