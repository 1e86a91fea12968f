import { z } from "zod";
import { DEFAULT_SESSION_IDLE_DAYS } from "@tafsiri/api";
import { DEFAULT_DATABASE_POOL_SIZE, DEFAULT_PGLITE_SHARED_BUFFERS } from "@tafsiri/db";
import { DEFAULT_REQUEST_LIMITS } from "./plugins/request-limit";

/** Sign-in attempts allowed per IP per minute when LOGIN_RATE_LIMIT is unset. */
export const DEFAULT_LOGIN_RATE_LIMIT = 10;

/** Whether `name` is a time zone the runtime knows (IANA names such as Africa/Kampala, or UTC). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** kB in each unit a PostgreSQL memory size may be given in. */
const SIZE_UNITS_KB: Record<string, number> = { kB: 1, MB: 1024, GB: 1024 * 1024 };

/**
 * Whether `size` is a PostgreSQL memory size (a whole number and kB, MB or GB) from 1MB to 1GB:
 * what PGLITE_SHARED_BUFFERS accepts. PGlite's WebAssembly heap cannot pass 2 GB, cache included.
 */
function isPgliteCacheSize(size: string): boolean {
  const m = /^(\d+)(kB|MB|GB)$/.exec(size);
  if (!m) return false;
  const kb = Number(m[1]) * SIZE_UNITS_KB[m[2]!]!;
  return kb >= 1024 && kb <= 1024 * 1024;
}

const POOL_SIZE_RULE = "DATABASE_POOL_SIZE must be a whole number from 1 to 200";
const BACKUP_EVERY_RULE = "BACKUP_EVERY_HOURS must be a positive number of hours, at most 8760 (e.g. 24, or 0.5)";
const BACKUP_KEEP_RULE = "BACKUP_KEEP must be a whole number from 1 to 10000 (the backups kept in BACKUP_DIR)";

const ZSettings = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().optional(),
  /**
   * Connections this server's pool opens to PostgreSQL at most for requests (README "Sizing"):
   * 10 by default, 1 to 200; the server opens one more for live events and, in the instance that
   * runs the hourly jobs, one for their lock. Ignored without DATABASE_URL.
   */
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: POOL_SIZE_RULE })
    .int(POOL_SIZE_RULE)
    .min(1, POOL_SIZE_RULE)
    .max(200, POOL_SIZE_RULE)
    .default(DEFAULT_DATABASE_POOL_SIZE),
  /**
   * The embedded PGlite's buffer cache, `shared_buffers`, held in the server's
   * own memory: 32MB by default; 16MB saves a little more memory and makes lists on large data a
   * little slower; 128MB (PostgreSQL's and PGlite's own) costs 80 to 120 MB more resident memory
   * and may pay off only on data well beyond the 100,000 audios measured. Ignored with DATABASE_URL.
   */
  PGLITE_SHARED_BUFFERS: z
    .string()
    .refine(isPgliteCacheSize, "PGLITE_SHARED_BUFFERS must be a size from 1MB to 1GB, e.g. 16MB")
    .default(DEFAULT_PGLITE_SHARED_BUFFERS),
  JWT_SECRET: z.string().min(32, "JWT_SECRET must be at least 32 characters").optional(),
  ADMIN_EMAIL: z.string().email().default("admin@tafsiri.local"),
  ADMIN_USERNAME: z.string().default("admin"),
  ADMIN_PASSWORD: z.string().optional(),
  /** IANA time zone of the Dashboard's "today" and "yesterday" (SPEC §2.6). */
  APP_TIMEZONE: z
    .string()
    .refine(isTimeZone, "APP_TIMEZONE must be an IANA time zone, e.g. Africa/Kampala")
    .default("UTC"),
  /**
   * The programme's name on the Dashboard's welcome banner (SPEC §1), e.g. "Memory Voices Study";
   * 1 to 100 characters, surrounding spaces dropped. Unset: "Tafsiri".
   */
  PROGRAMME_NAME: z
    .string()
    .trim()
    .min(1, "PROGRAMME_NAME must not be blank")
    .max(100, "PROGRAMME_NAME must be at most 100 characters")
    .optional(),
  /** Base of links in e-mails (password reset); unset means http://HOST:PORT. */
  PUBLIC_URL: z.string().optional(),
  /** SMTP server for e-mail (smtp://user:pass@host:port or smtps://…); unset: mail goes to DATA_DIR/outbox as .eml. */
  SMTP_URL: z.string().optional(),
  /** Largest accepted upload, in bytes (default 512 MB). */
  MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  /** Sign-in attempts (POST /auth/login and tRPC accounts.login together) allowed per IP per minute. */
  LOGIN_RATE_LIMIT: z.coerce.number().int().positive().default(DEFAULT_LOGIN_RATE_LIMIT),
  /**
   * Requests to the API (/api, /auth, /trpc, /files) allowed per signed-in user per minute (decision 013);
   * more get 429 with Retry-After. 0 turns the limit off (e.g. behind a gateway that limits).
   */
  RATE_LIMIT_PER_USER: z.coerce.number().int().min(0).default(DEFAULT_REQUEST_LIMITS.perUser),
  /** The same per client address, for requests without a valid session token. */
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(DEFAULT_REQUEST_LIMITS.perAddress),
  /**
   * Proxies whose `X-Forwarded-For` is believed (comma-separated addresses or CIDR ranges, e.g.
   * `127.0.0.1,10.0.0.0/8`); unset: none, so the client address is the connection's and a forged
   * header changes nothing (the request and sign-in limits count per address).
   */
  TRUST_PROXY: z.string().optional(),
  /**
   * Decision 028: turns on `GET /metrics` (Prometheus text format) on the main port, for requests
   * with `Authorization: Bearer <METRICS_TOKEN>`; at least 32 characters. Unset (and no METRICS_PORT): no metrics.
   */
  METRICS_TOKEN: z.string().min(32, "METRICS_TOKEN must be at least 32 characters").optional(),
  /**
   * Decision 028: serves `GET /metrics` on this port of HOST instead, without a token (unless
   * METRICS_TOKEN is set too), and not on PORT. Unset: not served on a port of its own.
   */
  METRICS_PORT: z.coerce
    .number({ error: "METRICS_PORT must be a port number from 1 to 65535" })
    .int("METRICS_PORT must be a port number from 1 to 65535")
    .min(1, "METRICS_PORT must be a port number from 1 to 65535")
    .max(65535, "METRICS_PORT must be a port number from 1 to 65535")
    .optional(),
  /**
   * Decision 037: hosts (comma-separated names or addresses) whose webhook receivers may be on
   * private, loopback or link-local addresses (on-premise receivers; the tests' 127.0.0.1). Unset:
   * every such address is refused, at registration and at each delivery.
   */
  WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((host) => host.trim())
        .filter((host) => host !== ""),
    ),
  /**
   * Decision 038: the WebAuthn relying party ID passkeys are bound to: a domain (never an IP
   * address), the site's host or a parent domain of it, e.g. `tafsiri.example.org`. Unset: the
   * host of PUBLIC_URL, else `localhost`. Changing it later makes every registered passkey unusable.
   */
  WEBAUTHN_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^(?=.{1,253}$)(?!\d+(\.\d+){3}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
      "WEBAUTHN_RP_ID must be a domain name (not an IP address), e.g. tafsiri.example.org",
    )
    .optional(),
  /**
   * Decision 038: the origin the web app is served from, as browsers send it with a passkey
   * (scheme, host and port, no path), e.g. `https://tafsiri.example.org`. Unset: the origin of
   * PUBLIC_URL, else `http://localhost:{PORT}`. Its host must be WEBAUTHN_RP_ID or under it.
   */
  WEBAUTHN_ORIGIN: z
    .string()
    .trim()
    .regex(
      /^https?:\/\/[^/?#\s]+\/?$/i,
      "WEBAUTHN_ORIGIN must be an origin, e.g. https://tafsiri.example.org (no path)",
    )
    .optional(),
  /** Days live events are kept for resuming subscriptions; older ones are deleted hourly (decision 004). */
  EVENT_RETENTION_DAYS: z.coerce.number().int().positive().default(30),
  /**
   * Days a session lasts without use (decision 012): a token is valid this long and the web app
   * renews it while it is used. Fractions are allowed (0.5: twelve hours).
   */
  SESSION_IDLE_DAYS: z.coerce
    .number()
    .positive("SESSION_IDLE_DAYS must be a positive number of days")
    .max(365, "SESSION_IDLE_DAYS must be at most 365")
    .default(DEFAULT_SESSION_IDLE_DAYS),
  /**
   * Decision 038: admins must have a passkey or an authenticator app (TOTP); an admin signed in with
   * a password alone reaches only enrolment and sign-out until they add one. On unless `false`.
   */
  REQUIRE_ADMIN_SECOND_FACTOR: z
    .enum(["true", "false"], "REQUIRE_ADMIN_SECOND_FACTOR must be true or false")
    .default("true")
    .transform((value) => value === "true"),
  /**
   * Seconds a stopping instance (SIGTERM, SIGINT) waits for its requests in flight (uploads included)
   * before it drops them and exits anyway (docs/decisions/029). Keep it under the process manager's
   * own wait (Docker's stop_grace_period).
   */
  SHUTDOWN_GRACE_SECONDS: z.coerce
    .number()
    .positive("SHUTDOWN_GRACE_SECONDS must be a positive number of seconds")
    .max(3600, "SHUTDOWN_GRACE_SECONDS must be at most 3600")
    .default(25),
  /**
   * Seconds a stopping instance (SIGTERM only) keeps serving while /healthz answers 503, before it
   * stops listening (decision 029): long enough for the proxy's health check (Caddy: every second) to
   * take it out of rotation, so no request meets a closed connection. 0 stops listening at once.
   */
  SHUTDOWN_NOTICE_SECONDS: z.coerce
    .number()
    .min(0, "SHUTDOWN_NOTICE_SECONDS must be 0 or a positive number of seconds")
    .max(300, "SHUTDOWN_NOTICE_SECONDS must be at most 300")
    .default(2),
  /**
   * Decision 027: the folder the server writes its scheduled backups to (created if missing; it must
   * be writable, else the server does not start). Unset: no scheduled backups.
   */
  BACKUP_DIR: z.string().optional(),
  /** Hours from one successful scheduled backup to the next (fractions allowed: 0.5 is 30 minutes). */
  BACKUP_EVERY_HOURS: z.coerce
    .number({ error: BACKUP_EVERY_RULE })
    .positive(BACKUP_EVERY_RULE)
    .max(8760, BACKUP_EVERY_RULE)
    .default(24),
  /** How many scheduled backups are kept in BACKUP_DIR (the newest); older ones are removed. */
  BACKUP_KEEP: z.coerce
    .number({ error: BACKUP_KEEP_RULE })
    .int(BACKUP_KEEP_RULE)
    .min(1, BACKUP_KEEP_RULE)
    .max(10_000, BACKUP_KEEP_RULE)
    .default(7),
  /** Folder with the built web app; unset means apps/web/dist. */
  WEB_DIST: z.string().optional(),
  /**
   * Where files are stored (decision 014): `local` (DATA_DIR/files) or `s3` (an
   * S3-compatible bucket, the S3_* settings below; temp files stay in DATA_DIR/files/.tmp).
   */
  STORAGE: z.enum(["local", "s3"], "STORAGE must be local or s3").default("local"),
  /** The S3-compatible store's URL, e.g. http://minio:9000; unset: Amazon S3 itself (S3_REGION). */
  S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^/]/i, "S3_ENDPOINT must be an http(s) URL, e.g. http://minio:9000")
    .optional(),
  /** The bucket (it must exist, and hold Tafsiri's files only). */
  S3_BUCKET: z.string().optional(),
  /** e.g. us-east-1 (MinIO and most S3-compatible stores) or the bucket's AWS region. */
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style bucket URLs ({endpoint}/{bucket}/{key}); unset: true with S3_ENDPOINT, false without. */
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"], "S3_FORCE_PATH_STYLE must be true or false")
    .transform((value) => value === "true")
    .optional(),
});

/** Settings STORAGE=s3 cannot do without (S3_ENDPOINT is optional: unset means Amazon S3). */
const S3_REQUIRED = ["S3_BUCKET", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const;

/** ZSettings plus the rules between settings: STORAGE=s3 needs S3_REQUIRED (decision 014). */
const ZCheckedSettings = ZSettings.superRefine((settings, ctx) => {
  if (settings.METRICS_PORT !== undefined && settings.METRICS_PORT === settings.PORT)
    ctx.addIssue({ code: "custom", path: ["METRICS_PORT"], message: "METRICS_PORT must differ from PORT" });
  const webauthn = webauthnSettings(settings);
  const originHost = new URL(webauthn.origin).hostname;
  if (originHost !== webauthn.rpId && !originHost.endsWith(`.${webauthn.rpId}`))
    ctx.addIssue({
      code: "custom",
      path: ["WEBAUTHN_ORIGIN"],
      message: `The host of WEBAUTHN_ORIGIN (${originHost}) must be WEBAUTHN_RP_ID (${webauthn.rpId}) or a subdomain of it`,
    });
  if (settings.STORAGE !== "s3") return;
  for (const name of S3_REQUIRED) {
    if (settings[name] === undefined)
      ctx.addIssue({ code: "custom", path: [name], message: `${name} is required when STORAGE=s3` });
  }
});

export type Settings = z.infer<typeof ZSettings>;

/**
 * Decision 038: the WebAuthn relying party of `settings`: WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN, each
 * by default from PUBLIC_URL (its host, its origin), else `localhost` and `http://localhost:{PORT}`;
 * the name authenticators show is PROGRAMME_NAME, else "Tafsiri".
 */
export function webauthnSettings(
  settings: Pick<Settings, "WEBAUTHN_RP_ID" | "WEBAUTHN_ORIGIN" | "PUBLIC_URL" | "PORT" | "PROGRAMME_NAME">,
): { rpId: string; origin: string; rpName: string } {
  const publicUrl = settings.PUBLIC_URL ? URL.parse(settings.PUBLIC_URL) : null;
  return {
    rpId: settings.WEBAUTHN_RP_ID ?? publicUrl?.hostname ?? "localhost",
    origin: settings.WEBAUTHN_ORIGIN?.replace(/\/$/, "") ?? publicUrl?.origin ?? `http://localhost:${settings.PORT}`,
    rpName: settings.PROGRAMME_NAME ?? "Tafsiri",
  };
}

/** Reads and validates the settings of ARCHITECTURE.md from the environment, once, at start. */
export function loadSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ""));
  const parsed = ZCheckedSettings.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid settings:\n${lines.join("\n")}`);
  }
  return parsed.data;
}
