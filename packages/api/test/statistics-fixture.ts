import type { SessionUser } from "../src/context";
import type { TestHarness } from "../src/testing/harness";
import { uploadRecording } from "../src/uploads/store-upload";
import { assignedAudio, tempWav, workState } from "./workflow-fixtures";

// The known Dashboard fixture (decision 011), shared by the tRPC and REST tests: built through the
// real transitions (save, upload, approve, reject), then dated by hand (submission dates around
// midnight in Africa/Kampala, review times on known days). Africa/Kampala is UTC+3 all year.

export const TIME_ZONE = "Africa/Kampala";
const HOUR = 3_600_000;
const MINUTE = 60_000;
const KAMPALA_OFFSET = 3 * HOUR;

/** Midnight at the start of today in Kampala, as an instant. */
export function kampalaMidnight(now = Date.now()): number {
  const day = 24 * HOUR;
  return Math.floor((now + KAMPALA_OFFSET) / day) * day - KAMPALA_OFFSET;
}

export interface StatisticsFixture {
  admin: SessionUser;
  alice: SessionUser;
  bob: SessionUser;
  carol: SessionUser;
  erin: SessionUser;
  /** Kampala midnight today, when the fixture was dated. */
  midnight: number;
}

/**
 * Users: one active admin, one inactive admin; staff st_alice, st_bob, st_erin (active), st_carol
 * (inactive, with a task), st_dave (inactive, no task).
 * Tasks (assignee: transcript / recording; review times UTC):
 * - A1 alice: Approved 2026-10-05T10:00Z / Approved 2026-10-20T10:00Z (complete in October)
 * - A2 alice: Rejected 2026-10-10T10:00Z / Pending
 * - A3 alice: Pending / none
 * - A4 alice: no submission
 * - B1 bob: Approved 2026-09-30T22:30Z (1 October 01:30 in Kampala) / Approved 2026-11-02T08:00Z
 * - B2 bob: none / Rejected 2026-10-31T21:30Z (1 November 00:30 in Kampala)
 * - B3 bob: an empty submission (created, nothing handed in)
 * - C1 carol: Approved 2026-10-25T09:00Z / Approved 2026-10-25T09:30Z
 * Submission dates (M = Kampala midnight today): A1 M+1min, B2 M+2h (today); A2 M−1min,
 * A3 M−24h+1min (yesterday); B1 M−24h−1min, C1 M−10 days, B3 M+1h (empty: never counted).
 * Durations (seconds, audio / recording; set after the approvals, as the waveform job would, and
 * null where "not known"): A1 600 / 90, A2 300 / none, B1 null / 120.6, B2 — / 50, C1 3723.4 / null.
 * So the audio minutes of approved work are alice 10 + 1.5, bob 0 + 2.01 (his transcript's audio
 * without a duration), carol 62.0567 + 0 (her recording without one): whole ms / 60,000, unrounded.
 */
export async function buildStatisticsFixture(h: TestHarness): Promise<StatisticsFixture> {
  h.deps.timezone = TIME_ZONE;
  const admin = await h.createUser("Admin");
  const formerAdmin = await h.createUser("Admin");
  const alice = await h.createUser("Staff", { username: "st_alice" });
  const bob = await h.createUser("Staff", { username: "st_bob" });
  const carol = await h.createUser("Staff", { username: "st_carol" });
  const dave = await h.createUser("Staff", { username: "st_dave" });
  const erin = await h.createUser("Staff", { username: "st_erin" });
  const asAdmin = h.caller(admin);

  const transcript = async (staff: SessionUser, audioId: string) =>
    h.caller(staff).transcripts.save({ audioId, text: "Habari ya asubuhi." });
  const recording = async (staff: SessionUser, audioId: string) =>
    uploadRecording(h.deps, staff, { audioId, recordedBy: staff.id, file: await tempWav(h) });

  const a1 = await assignedAudio(h, admin, alice);
  await transcript(alice, a1.id);
  await recording(alice, a1.id);
  await asAdmin.transcripts.approve({ audioId: a1.id });
  await asAdmin.recordings.approve({ audioId: a1.id });
  const a2 = await assignedAudio(h, admin, alice);
  await transcript(alice, a2.id);
  await asAdmin.transcripts.reject({ audioId: a2.id, reason: "Check the second paragraph." });
  await recording(alice, a2.id);
  const a3 = await assignedAudio(h, admin, alice);
  await transcript(alice, a3.id);
  await assignedAudio(h, admin, alice);

  const b1 = await assignedAudio(h, admin, bob);
  await transcript(bob, b1.id);
  await recording(bob, b1.id);
  await asAdmin.transcripts.approve({ audioId: b1.id });
  await asAdmin.recordings.approve({ audioId: b1.id });
  const b2 = await assignedAudio(h, admin, bob);
  await recording(bob, b2.id);
  await asAdmin.recordings.reject({ audioId: b2.id });
  const b3 = await assignedAudio(h, admin, bob);
  await h.caller(bob).submissions.ensure({ taskId: (await workState(h, b3.id)).task.id });

  const c1 = await assignedAudio(h, admin, carol);
  await transcript(carol, c1.id);
  await recording(carol, c1.id);
  await asAdmin.transcripts.approve({ audioId: c1.id });
  await asAdmin.recordings.approve({ audioId: c1.id });

  const midnight = kampalaMidnight();
  const dated: Array<[audioId: string, submissionDate: number, transcriptAt?: string, recordingAt?: string]> = [
    [a1.id, midnight + MINUTE, "2026-10-05T10:00:00Z", "2026-10-20T10:00:00Z"],
    [a2.id, midnight - MINUTE, "2026-10-10T10:00:00Z"],
    [a3.id, midnight - 24 * HOUR + MINUTE],
    [b1.id, midnight - 24 * HOUR - MINUTE, "2026-09-30T22:30:00Z", "2026-11-02T08:00:00Z"],
    [b2.id, midnight + 2 * HOUR, undefined, "2026-10-31T21:30:00Z"],
    [b3.id, midnight + HOUR],
    [c1.id, midnight - 10 * 24 * HOUR, "2026-10-25T09:00:00Z", "2026-10-25T09:30:00Z"],
  ];
  for (const [audioId, submissionDate, transcriptAt, recordingAt] of dated) {
    const { task } = await workState(h, audioId);
    await h.deps.db
      .updateTable("submissions")
      .set({
        submissionDate: new Date(submissionDate),
        ...(transcriptAt ? { transcriptReviewedAt: transcriptAt } : {}),
        ...(recordingAt ? { recordingReviewedAt: recordingAt } : {}),
      })
      .where("taskId", "=", task.id)
      .execute();
  }
  const durations: Array<[audioId: string, audio: number | null, recording: number | null]> = [
    [a1.id, 600, 90],
    [a2.id, 300, null],
    [b1.id, null, 120.6],
    [b2.id, null, 50],
    [c1.id, 3723.4, null],
  ];
  for (const [audioId, audio, recording] of durations) {
    const { submission } = await workState(h, audioId);
    await h.deps.db.updateTable("audios").set({ durationSeconds: audio }).where("id", "=", audioId).execute();
    await h.deps.db
      .updateTable("translatedRecordings")
      .set({ durationSeconds: recording })
      .where("submissionId", "=", submission!.id)
      .execute();
  }
  await h.deps.db
    .updateTable("users")
    .set({ active: false })
    .where("id", "in", [formerAdmin.id, carol.id, dave.id])
    .execute();
  return { admin, alice, bob, carol, erin, midnight };
}

const zero = {
  tasks: 0,
  completed: 0,
  submissions: 0,
  payment: 0,
  recordedTasks: 0,
  translatedScripts: 0,
  approvedTranscripts: 0,
  approvedRecordings: 0,
  pendingTranscripts: 0,
  pendingRecordings: 0,
  rejectedTranscripts: 0,
  rejectedRecordings: 0,
  audioMinutes: 0,
  transcriptAudioMinutes: 0,
  recordingAudioMinutes: 0,
  approvedWithoutDuration: 0,
};

/** Payment in whole UGX: the per-item part plus exact minutes (from ms) × `m` UGX a minute, rounded. */
function pay(items: number, ms: number, m: number): number {
  return items + Math.round((ms / 60_000) * m);
}

/** The expected cards (the overview's figures). */
export const EXPECTED_CARDS = {
  users: { adminCount: 1, staffCount: 3 },
  tasks: { completed: 3, pending: 5 },
  submissions: { today: 2, yesterday: 2 },
};

/** The expected engagement rows, by username (ids filled in by the test). */
export const EXPECTED_ENGAGEMENT = [
  { username: "st_alice", tasks: 4, completed: 1, pending: 3, submissions: 3 },
  { username: "st_bob", tasks: 3, completed: 1, pending: 2, submissions: 2 },
  { username: "st_carol", tasks: 1, completed: 1, pending: 0, submissions: 1 },
  { username: "st_erin", tasks: 0, completed: 0, pending: 0, submissions: 0 },
];

/**
 * The expected report rows, all time, at rates `t` (transcript), `r` (recording) and `m` (per audio
 * minute, 0 by default) UGX.
 */
export function expectedReportAllTime(t: number, r: number, m = 0) {
  return [
    {
      ...zero,
      username: "st_alice",
      tasks: 4,
      completed: 1,
      submissions: 75,
      payment: pay(t + r, 690_000, m),
      recordedTasks: 1,
      translatedScripts: 3,
      approvedTranscripts: 1,
      approvedRecordings: 1,
      pendingTranscripts: 1,
      pendingRecordings: 1,
      rejectedTranscripts: 1,
      audioMinutes: 690_000 / 60_000,
      transcriptAudioMinutes: 600_000 / 60_000,
      recordingAudioMinutes: 90_000 / 60_000,
    },
    {
      ...zero,
      username: "st_bob",
      tasks: 3,
      completed: 1,
      submissions: 66.67,
      payment: pay(t + r, 120_600, m),
      recordedTasks: 1,
      translatedScripts: 1,
      approvedTranscripts: 1,
      approvedRecordings: 1,
      rejectedRecordings: 1,
      audioMinutes: 120_600 / 60_000,
      recordingAudioMinutes: 120_600 / 60_000,
      approvedWithoutDuration: 1,
    },
    {
      ...zero,
      username: "st_carol",
      tasks: 1,
      completed: 1,
      submissions: 100,
      payment: pay(t + r, 3_723_400, m),
      recordedTasks: 1,
      translatedScripts: 1,
      approvedTranscripts: 1,
      approvedRecordings: 1,
      audioMinutes: 3_723_400 / 60_000,
      transcriptAudioMinutes: 3_723_400 / 60_000,
      approvedWithoutDuration: 1,
    },
    { ...zero, username: "st_erin" },
  ];
}

/**
 * October 2026 by review time, at rates `t` and `r`: with `kampala` the month in Africa/Kampala
 * (bob's transcript approved 1 October 01:30 local is in, his recording rejected 1 November 00:30
 * local is out), otherwise the UTC month (the other way round).
 */
export function expectedReportOctober(t: number, r: number, kampala: boolean, m = 0) {
  const all = expectedReportAllTime(t, r, m);
  const [alice, bob, carol, erin] = [all[0]!, all[1]!, all[2]!, all[3]!];
  return [
    { ...alice, translatedScripts: 2 },
    {
      ...bob,
      completed: 0,
      approvedRecordings: 0,
      recordedTasks: 0,
      approvedTranscripts: kampala ? 1 : 0,
      translatedScripts: kampala ? 1 : 0,
      rejectedRecordings: kampala ? 0 : 1,
      payment: kampala ? t : 0,
      // His recording (2.01 minutes) was approved in November; his approved transcript's audio has no duration.
      audioMinutes: 0,
      recordingAudioMinutes: 0,
      approvedWithoutDuration: kampala ? 1 : 0,
    },
    carol,
    erin,
  ];
}
