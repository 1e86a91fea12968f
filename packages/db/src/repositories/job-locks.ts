import pg from "pg";
import type { Database } from "../connection";

/**
 * The periodic jobs that must run in one process only, however many share the database (decision
 * 015); `waveforms` decodes stored audio files into peaks (ARCHITECTURE "Long recordings and the corpus");
 * `backup` writes the scheduled backups (decision 027); `page-anchors` rebuilds the lists' page anchors
 * (decision 030); `speech-measures` measures the original audio of approved transcripts (decision 035);
 * `webhooks` delivers the webhook events (decision 037).
 */
export type JobName =
  "event-retention" | "file-sweep" | "waveforms" | "backup" | "page-anchors" | "speech-measures" | "webhooks";

/**
 * Their PostgreSQL advisory lock keys (one bigint each; advisory locks are per database). The
 * other keys in use: 7_240_311 orders event writers (events.ts), 7_240_312 guards the first
 * admin's creation (users.ts), 7_240_318 makes export starts one at a time (exports.ts).
 */
export const JOB_LOCK_KEYS: Readonly<Record<JobName, number>> = {
  "event-retention": 7_240_313,
  "file-sweep": 7_240_314,
  waveforms: 7_240_315,
  backup: 7_240_316,
  "page-anchors": 7_240_317,
  "speech-measures": 7_240_319,
  webhooks: 7_240_320,
};

/** The `application_name` of the connection that holds the job locks (visible in pg_stat_activity). */
export const JOB_LOCKS_APPLICATION_NAME = "tafsiri-job-locks";

/**
 * What one round came to: the work ran here (`value`), or it did not because another holder has
 * the job (another process on PostgreSQL) or this process's previous round is still running.
 */
export type JobRound<T> = { ran: true; value: T } | { ran: false; reason: "elsewhere" | "still running" };

/** One per process: runs each job's rounds only where the job's lock is held. */
export interface JobLocks {
  /**
   * Runs `work` when this process holds the job's lock or can take it now, and keeps the lock
   * afterwards; otherwise skips. Never runs two rounds of one job at once in this process.
   * Rejects when the lock cannot be asked for (database unreachable) or `work` rejects.
   */
  runRound<T>(job: JobName, work: () => Promise<T>): Promise<JobRound<T>>;
  /** Gives the locks up (closes the lock connection), so another process takes the jobs at its next round. */
  close(): Promise<void>;
}

/**
 * Several instances (decision 015): the hourly jobs (live-event retention, the file sweep)
 * run in one process, not once per process.
 *
 * On PostgreSQL (`databaseUrl`) a job belongs to the process holding its session-level advisory
 * lock (`pg_try_advisory_lock`), taken on a connection of its own (not from the pool, like the
 * LISTEN connection; opened when a round asks, closed while it holds nothing). A process that
 * gets the lock keeps it, and runs every later round of the job, until it stops or its lock
 * connection is lost; the others try at each of their rounds, skip while it is held, and the first
 * to try after the holder has gone takes the job over. So each hour's round runs once however the
 * processes' hourly timers are out of step: a lock held only during a round would keep two
 * rounds from overlapping, but every process would still run its own round at its own minute.
 *
 * Why a session lock on an idle connection and not `pg_try_advisory_xact_lock` in a transaction
 * around the round: a sweep lists the whole store (minutes on a big bucket) and the work runs on
 * pool connections; a transaction held open for that long would hold a connection "idle in
 * transaction", be killed by an `idle_in_transaction_session_timeout`, and on the embedded
 * database (one connection for everything) block every other query. The lock connection runs no
 * transaction: it only answers the try and, at each later round, a `select 1` proving that its
 * session (and so its lock) still lives (if it does not answer, the round reconnects and tries
 * again). If the session is lost mid-round (a database restart),
 * another process may start the same job before this round ends; both jobs are safe to run twice
 * (a date-bounded DELETE; deletes guarded by age and by the rows), the lock saves repeated work.
 * A connection pooler in transaction mode (pgbouncer) cannot hold session locks: DATABASE_URL
 * must reach PostgreSQL directly or through session pooling (LISTEN needs that already).
 *
 * Without `databaseUrl` (the embedded PGlite) one process owns the database (PGlite's data
 * directory cannot be opened by two), and PGlite's advisory locks belong to its single session,
 * which every query of the process shares: a second `pg_try_advisory_lock` there succeeds (locks
 * are re-entrant within a session), so it would exclude nothing. The lock is then kept in this
 * process's memory per `db`, with the same rules: the first JobLocks to run a job keeps it.
 * `onError` hears a lost lock connection (the next round reconnects).
 */
export function openJobLocks(opts: {
  db: Database;
  databaseUrl?: string | undefined;
  onError?: (error: unknown) => void;
}): JobLocks {
  const running = new Set<JobName>();
  const holder = opts.databaseUrl ? postgresHolder(opts.databaseUrl, opts.onError) : inProcessHolder(opts.db);
  let closed = false;
  return {
    async runRound<T>(job: JobName, work: () => Promise<T>): Promise<JobRound<T>> {
      if (closed) throw new Error("job locks are closed");
      if (running.has(job)) return { ran: false, reason: "still running" };
      running.add(job);
      try {
        if (!(await holder.take(job))) return { ran: false, reason: "elsewhere" };
        return { ran: true, value: await work() };
      } finally {
        running.delete(job);
      }
    },
    async close() {
      closed = true;
      await holder.close();
    },
  };
}

/** Takes and keeps job locks: true when this process holds the job's lock (already or now). */
interface LockHolder {
  take(job: JobName): Promise<boolean>;
  close(): Promise<void>;
}

/** In-process holders of each job, per embedded database (see openJobLocks). */
const inProcessHolders = new WeakMap<Database, Map<JobName, object>>();

function inProcessHolder(db: Database): LockHolder {
  const me = {};
  const holders = inProcessHolders.get(db) ?? new Map<JobName, object>();
  inProcessHolders.set(db, holders);
  return {
    async take(job) {
      const current = holders.get(job);
      if (current !== undefined && current !== me) return false;
      holders.set(job, me);
      return true;
    },
    async close() {
      for (const [job, current] of holders) if (current === me) holders.delete(job);
    },
  };
}

function postgresHolder(databaseUrl: string, onError?: (error: unknown) => void): LockHolder {
  /** The open lock connection, if any. */
  let client: pg.Client | null = null;
  /** Its opening, while one is under way. */
  let opening: Promise<pg.Client> | null = null;
  /** Jobs whose lock `client`'s session holds. */
  const held = new Set<JobName>();
  /** Tries in flight: the connection is closed once none is and it holds nothing. */
  let trying = 0;
  /**
   * The tries, one after another: jobs start their rounds at the same moments (start-up, the hour),
   * and a pg.Client must not be asked a query while it runs one (pg 8 queues it with a
   * DeprecationWarning; pg 9 refuses it).
   */
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => undefined);
    return next;
  };

  /** Forgets `c` with every lock its session held, and ends it. */
  const drop = (c: pg.Client) => {
    if (client === c) {
      client = null;
      held.clear();
    }
    c.end().catch(() => undefined);
  };

  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    opening ??= (async () => {
      const c = new pg.Client({
        connectionString: databaseUrl,
        application_name: JOB_LOCKS_APPLICATION_NAME,
        keepAlive: true,
        connectionTimeoutMillis: 10_000,
      });
      c.on("error", (error) => {
        onError?.(error);
        drop(c);
      });
      c.on("end", () => {
        if (client !== c) return;
        client = null;
        held.clear();
      });
      await c.connect();
      client = c;
      return c;
    })().finally(() => {
      opening = null;
    });
    return opening;
  };

  /** One try of `job`'s lock on the lock connection (run through oneAtATime). */
  const tryNow = async (job: JobName): Promise<boolean> => {
    let c = await connect();
    if (held.has(job)) {
      // A session lock lasts as long as its session: if the session answers, the lock is still ours.
      const alive = await c.query("select 1").then(
        () => true,
        () => false,
      );
      if (alive && held.has(job)) return true;
      drop(c);
      c = await connect();
    }
    const { rows } = await c.query<{ locked: boolean }>("select pg_try_advisory_lock($1::bigint) as locked", [
      JOB_LOCK_KEYS[job],
    ]);
    // A connection dropped meanwhile took the lock with its session.
    const locked = rows[0]?.locked === true && client === c;
    if (locked) held.add(job);
    return locked;
  };

  return {
    async take(job) {
      trying += 1;
      try {
        return await oneAtATime(() => tryNow(job));
      } finally {
        trying -= 1;
        if (trying === 0 && held.size === 0 && client) drop(client);
      }
    },
    async close() {
      const pending = opening;
      const open = client;
      client = null;
      held.clear();
      // Awaited, so the locks are free once close resolves (the session ends with its socket).
      await open?.end().catch(() => undefined);
      const late = await pending?.catch(() => null);
      await late?.end().catch(() => undefined);
    },
  };
}
