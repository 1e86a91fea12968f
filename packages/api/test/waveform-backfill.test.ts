import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { countPendingWaveforms } from "@tafsiri/db/repositories/waveforms";
import { openJobLocks, type JobLocks } from "@tafsiri/db/repositories/job-locks";
import type { SessionUser } from "../src/context";
import type { FileStorage } from "../src/storage/file-storage";
import { createHarness, type TestHarness } from "../src/testing/harness";
import { startWaveformJob, type WaveformJob, type WaveformJobLog } from "../src/waveforms/waveform-job";
import { FIXTURE_SPECS, makeAudioFixture, storeAudioFile, type AudioFixture } from "./audio-fixtures";

/**
 * ARCHITECTURE "Long recordings and the corpus": audios stored while no waveform job ran (rows
 * pending, as after the migration) get their peaks from the job, once, when two runners share the
 * database, each with its own job locks (on PGlite two JobLocks on the one database, in-process;
 * on PostgreSQL, with DATABASE_URL, two advisory-lock sessions as two instances would hold). Each
 * peaks file is written once (counted by a storage wrapper per runner), every row ends ready, the
 * round logs its progress; and a runner stopped mid-way leaves the rest pending for the other,
 * which resumes from the rows once the first has let its lock go.
 */

const POLL_MS = 200;

let h: TestHarness;
let admin: SessionUser;
let dir = "";
const fixtures: AudioFixture[] = [];

beforeAll(async () => {
  h = await createHarness();
  admin = await h.createUser("Admin");
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "tafsiri-waveform-backfill-"));
  for (const spec of FIXTURE_SPECS) fixtures.push(await makeAudioFixture(dir, spec));
});
afterAll(async () => {
  await h?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

/** A job runner as one instance would have it: its own locks, log and a storage that counts peaks writes. */
interface Runner {
  name: string;
  locks: JobLocks;
  job: WaveformJob | null;
  lines: string[];
  /** Peaks keys this runner wrote, in order. */
  puts: string[];
  /** Called after each peaks write. */
  onPut?: (key: string) => void;
}

const runners: Runner[] = [];

function runner(name: string): Runner {
  const r: Runner = {
    name,
    locks: openJobLocks({ db: h.deps.db, databaseUrl: h.databaseUrl }),
    job: null,
    lines: [],
    puts: [],
  };
  runners.push(r);
  return r;
}

/** Starts `r`'s waveform job (a round now, then every 200 ms). */
function start(r: Runner): void {
  const real = h.deps.storage;
  const storage: FileStorage = {
    ...real,
    async put(key, body) {
      const written = await real.put(key, body);
      if (key.endsWith(".peaks.dat")) {
        r.puts.push(key);
        r.onPut?.(key);
      }
      return written;
    },
  };
  const log: WaveformJobLog = {
    info: (line) => r.lines.push(`info ${line}`),
    warn: (line) => r.lines.push(`warn ${line}`),
    error: (line) => r.lines.push(`error ${line}`),
  };
  r.job = startWaveformJob({ db: h.deps.db, storage, locks: r.locks, log }, { pollMs: POLL_MS, progressEveryMs: 0 });
}

/** Stops a runner and lets its lock go (as an instance that shuts down). */
async function stop(r: Runner): Promise<void> {
  await r.job?.stop();
  await r.locks.close();
}

afterEach(async () => {
  for (const r of runners.splice(0)) await stop(r);
});

/** Stores `count` audios while no job runs: their rows are pending. */
async function pendingAudios(count: number) {
  const rows = [];
  for (let i = 0; i < count; i++) rows.push(await storeAudioFile(h, admin, fixtures[i % fixtures.length]?.file ?? ""));
  for (const row of rows) expect(row.waveformStatus).toBe("pending");
  return rows;
}

/** Resolves once no row is pending (checked every 100 ms, at most 60 s). */
async function noneLeftPending(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if ((await countPendingWaveforms(h.deps.db)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("rows still pending after 60 s");
}

/** Resolves once one of `rs` has logged its round's final line ("… done in …"), at most 60 s: it comes after the last row is recorded. */
async function roundEnded(...rs: Runner[]): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (rs.some((r) => r.lines.some((l) => l.includes(" done in ")))) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("no round ended within 60 s");
}

/** How many times each key was written by all runners together. */
function writesPerKey(...rs: Runner[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const key of rs.flatMap((r) => r.puts)) counts.set(key, (counts.get(key) ?? 0) + 1);
  return counts;
}

async function expectAllReady(rows: { id: string; fileKey: string }[]): Promise<void> {
  const now = await h.deps.db
    .selectFrom("audios")
    .select(["id", "waveformStatus", "peaksKey"])
    .where(
      "id",
      "in",
      rows.map((r) => r.id),
    )
    .execute();
  expect(now).toHaveLength(rows.length);
  for (const row of rows) {
    expect(now.find((r) => r.id === row.id)).toMatchObject({
      waveformStatus: "ready",
      peaksKey: `${row.fileKey}.peaks.dat`,
    });
  }
}

describe(`waveform backfill with two runners (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("computes each pending audio once, in the runner holding the job lock, and logs its progress", async () => {
    const rows = await pendingAudios(6);
    const a = runner("a");
    const b = runner("b");
    start(a);
    start(b);
    await noneLeftPending();
    await roundEnded(a, b);
    await expectAllReady(rows);

    const writes = writesPerKey(a, b);
    expect([...writes.keys()].sort()).toEqual(rows.map((r) => `${r.fileKey}.peaks.dat`).sort());
    expect([...writes.values()].every((n) => n === 1)).toBe(true);
    // One runner did all of it; the other's rounds found the job held elsewhere.
    const [worker, idle] = a.puts.length > 0 ? [a, b] : [b, a];
    expect(worker.puts).toHaveLength(rows.length);
    expect(idle.puts).toEqual([]);
    expect(idle.lines).toEqual([]);
    expect(worker.lines).toContain(`info waveforms: ${rows.length} file(s) to decode`);
    expect(worker.lines).toContain(`info waveforms: 1 of ${rows.length} done`);
    expect(worker.lines.some((l) => l.startsWith(`info waveforms: ${rows.length} of ${rows.length} done in `))).toBe(
      true,
    );
    expect(worker.lines.filter((l) => !l.startsWith("info "))).toEqual([]);
  });

  it("leaves the rest to the other runner when the one at work stops mid-way", async () => {
    const rows = await pendingAudios(5);
    const a = runner("a");
    const b = runner("b");
    // `a` takes the job (it starts alone) and is stopped as soon as it has stored its first peaks.
    let aStopped: Promise<void> | null = null;
    const firstPut = new Promise<void>((resolve) => {
      a.onPut = () => {
        aStopped ??= a.job?.stop() ?? null;
        resolve();
      };
    });
    start(a);
    await firstPut;
    start(b);
    await aStopped;
    expect(await countPendingWaveforms(h.deps.db)).toBe(rows.length - a.puts.length);
    // While `a` still holds the lock, `b`'s rounds leave the job alone.
    await new Promise((resolve) => setTimeout(resolve, 3 * POLL_MS));
    expect(b.puts).toEqual([]);
    await a.locks.close();
    await noneLeftPending();
    await expectAllReady(rows);

    expect(a.puts).toHaveLength(1);
    expect(b.puts).toHaveLength(rows.length - 1);
    expect([...writesPerKey(a, b).values()].every((n) => n === 1)).toBe(true);
    expect(a.lines.some((l) => l.startsWith(`info waveforms: 1 of ${rows.length} done in `))).toBe(true);
    expect(b.lines).toContain(`info waveforms: ${rows.length - 1} file(s) to decode`);
  });
});
