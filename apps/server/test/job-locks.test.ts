import { promises as fs } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createHarness } from "@tafsiri/api/testing/harness";
import {
  JOB_LOCK_KEYS,
  JOB_LOCKS_APPLICATION_NAME,
  openJobLocks,
  type JobLocks,
  type JobName,
} from "@tafsiri/db/repositories/job-locks";
import { sweepFilesHourly } from "../src/jobs/file-sweep-timer";
import type { JobLog } from "../src/jobs/hourly-job";
import { keepEventsFor } from "../src/jobs/retention-timer";

/**
 * Several instances (decision 015): the hourly jobs run in one process however many share the
 * database. Two JobLocks on one database stand for two server processes (on PostgreSQL each has
 * its own lock connection, as two processes would; on PGlite, which one process owns, they share
 * the process's lock table): two rounds at once run the job once, the holder keeps the job for
 * later rounds, the other takes it over once the holder has gone, and the retention and sweep
 * timers of two processes prune and sweep once.
 */

// Local disk, so the test can age a stored file (S3 sets its own times).
const h = await createHarness({ storage: "local" });
const opened: JobLocks[] = [];
afterAll(async () => {
  for (const locks of opened) await locks.close();
  await h.close();
});

const onPostgres = h.databaseUrl !== undefined;

/** A JobLocks as one server process opens it (closed after the file). */
function processLocks(onError?: (error: unknown) => void): JobLocks {
  const locks = openJobLocks({ db: h.deps.db, databaseUrl: h.databaseUrl, onError });
  opened.push(locks);
  return locks;
}

/** A job's work that counts its runs and takes `ms`, so two rounds overlap. */
function countingWork(ms = 100) {
  const counter = { runs: 0, work: async () => undefined as unknown };
  counter.work = async () => {
    counter.runs += 1;
    await new Promise((resolve) => setTimeout(resolve, ms));
    return counter.runs;
  };
  return counter;
}

/** A logger that keeps its info and error lines (the message, or the only argument). */
function captureLog(): JobLog & { lines: string[] } {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => {
    lines.push(String(typeof args[0] === "string" ? args[0] : args[1]));
  };
  return { lines, info: keep, error: keep } as unknown as JobLog & { lines: string[] };
}

describe("job locks: one process runs each hourly job (decision 015)", () => {
  it("runs two concurrent rounds of one job once; the holder keeps the job until it closes, then another takes it", async () => {
    const a = processLocks();
    const b = processLocks();
    const job: JobName = "file-sweep";
    const counter = countingWork();

    const both = await Promise.all([a.runRound(job, counter.work), b.runRound(job, counter.work)]);
    expect(counter.runs).toBe(1);
    expect(both.filter((r) => r.ran)).toEqual([{ ran: true, value: 1 }]);
    expect(both.filter((r) => !r.ran)).toEqual([{ ran: false, reason: "elsewhere" }]);
    const [holder, other] = both[0]!.ran ? [a, b] : [b, a];

    // Later rounds, one after the other: the holder runs them, the other keeps skipping.
    expect(await other.runRound(job, counter.work)).toEqual({ ran: false, reason: "elsewhere" });
    expect(await holder.runRound(job, counter.work)).toEqual({ ran: true, value: 2 });
    expect(await other.runRound(job, counter.work)).toEqual({ ran: false, reason: "elsewhere" });

    // Each job has its own lock: the other process may hold the retention job.
    const retention = countingWork(0);
    expect(await other.runRound("event-retention", retention.work)).toEqual({ ran: true, value: 1 });
    expect(await holder.runRound("event-retention", retention.work)).toEqual({ ran: false, reason: "elsewhere" });

    // Within one process a job never runs twice at once.
    const twice = await Promise.all([holder.runRound(job, counter.work), holder.runRound(job, counter.work)]);
    expect(twice).toEqual([
      { ran: true, value: 3 },
      { ran: false, reason: "still running" },
    ]);

    // The holder stops: the other's next round takes the job over.
    await holder.close();
    expect(await other.runRound(job, counter.work)).toEqual({ ran: true, value: 4 });
    await expect(holder.runRound(job, counter.work)).rejects.toThrow("job locks are closed");
    await other.close();
    expect(counter.runs).toBe(4);
  });

  it.skipIf(!onPostgres)(
    "holds the lock on an idle connection of its own, outside any transaction, and gives the job up when that connection is lost",
    async () => {
      const errors: unknown[] = [];
      const a = processLocks((error) => errors.push(error));
      const b = processLocks();
      const counter = countingWork(0);
      expect(await a.runRound("file-sweep", counter.work)).toEqual({ ran: true, value: 1 });

      const admin = new pg.Client({ connectionString: h.databaseUrl });
      await admin.connect();
      try {
        const holders = await admin.query<{ pid: number; applicationName: string; state: string }>(
          `select l.pid, a.application_name as "applicationName", a.state
             from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where l.locktype = 'advisory' and l.granted and l.objsubid = 1 and l.classid = 0 and l.objid = $1
              and l.database = (select oid from pg_database where datname = current_database())`,
          [JOB_LOCK_KEYS["file-sweep"]],
        );
        expect(holders.rows).toEqual([
          { pid: expect.any(Number), applicationName: JOB_LOCKS_APPLICATION_NAME, state: "idle" },
        ]);

        // The holder's connection goes (a database restart, a network cut): the lock goes with it.
        await admin.query("select pg_terminate_backend($1)", [holders.rows[0]!.pid]);
        await expect.poll(() => errors.length, { timeout: 5_000 }).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      expect(await b.runRound("file-sweep", counter.work)).toEqual({ ran: true, value: 2 });
      // The first process reconnects at its next round and finds the job taken.
      expect(await a.runRound("file-sweep", counter.work)).toEqual({ ran: false, reason: "elsewhere" });
      await b.close();
      expect(await a.runRound("file-sweep", counter.work)).toEqual({ ran: true, value: 3 });
      await a.close();
    },
  );

  it("the retention and sweep timers of two processes prune and sweep once; each sweeps its own temp folder", async () => {
    const { db } = h.deps;
    const a = processLocks();
    const b = processLocks();

    // An event past the retention, and a stored file no row points at, both old enough to go.
    await db
      .insertInto("events")
      .values({
        audience: "admins",
        recipientId: null,
        audioId: null,
        kind: "audio.changed",
        payload: JSON.stringify({}),
        createdAt: sql<Date>`now() - interval '40 days'`,
      })
      .execute();
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await h.deps.storage.put("audios/orphan.wav", "no row points at me");
    await fs.utimes(path.join(h.filesDir, "audios/orphan.wav"), twoHoursAgo, twoHoursAgo);

    const [logA, logB] = [captureLog(), captureLog()];
    const stops = [
      keepEventsFor({ db, locks: a }, 30, logA),
      keepEventsFor({ db, locks: b }, 30, logB),
      sweepFilesHourly({ ...h.deps, locks: a }, logA),
      sweepFilesHourly({ ...h.deps, locks: b }, logB),
    ];
    for (const stop of stops) await stop();

    const lines = [...logA.lines, ...logB.lines];
    expect(lines.filter((l) => l.startsWith("live event retention")).sort()).toEqual([
      "live event retention: deleted 1 event(s) and 0 webhook event(s) older than 30 day(s)",
      "live event retention: skipped, another process runs this job",
    ]);
    expect(lines.filter((l) => l.startsWith("file sweep")).sort()).toEqual([
      "file sweep: removed 0 temp file(s) and 1 stored file(s) no row points at",
      "file sweep: removed 0 temp file(s); stored files skipped, another process runs this job",
    ]);
    expect(await db.selectFrom("events").select("id").execute()).toEqual([]);
    expect(await h.deps.storage.exists("audios/orphan.wav")).toBe(false);
  });
});
