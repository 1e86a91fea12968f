import { promises as fs } from "node:fs";
import path from "node:path";
import type { Category, Role } from "@tafsiri/db";
import type { SessionUser } from "../src/context";
import { createHarness, type TestHarness } from "../src/testing/harness";
import { wavFile } from "../src/testing/wav";
import { createAudio, uploadRecording, type TempUpload } from "../src/uploads/store-upload";

/** A valid 8 kHz mono 16-bit WAV of `samples` silent samples. */
function wavBytes(samples = 8): Buffer {
  return wavFile(samples * 2);
}

/** Writes a small WAV where the REST layer would (storage.tempPath()) and describes it. */
export async function tempWav(h: TestHarness, mimeType = "audio/wav", extension = ".wav"): Promise<TempUpload> {
  const tempFile = h.deps.storage.tempPath();
  await fs.mkdir(path.dirname(tempFile), { recursive: true });
  const bytes = wavBytes();
  await fs.writeFile(tempFile, bytes);
  return { tempFile, mimeType, extension, sizeBytes: bytes.length };
}

let audioCounter = 0;

/** Uploads a new audio as `admin` (unique filename unless given). */
export async function newAudio(
  h: TestHarness,
  admin: SessionUser,
  opts: { filename?: string; category?: Category } = {},
) {
  audioCounter += 1;
  const filename = opts.filename ?? `audio_${audioCounter}_${Date.now()}`;
  return createAudio(h.deps, admin, { filename, category: opts.category ?? "Control", file: await tempWav(h) });
}

/** Uploads a new audio and assigns it to `staff`; returns the audio id and filename. */
export async function assignedAudio(
  h: TestHarness,
  admin: SessionUser,
  staff: SessionUser,
  opts: { category?: Category } = {},
) {
  const audio = await newAudio(h, admin, opts);
  await h.caller(admin).tasks.assign({ audioId: audio.id, staffId: staff.id });
  return audio;
}

/**
 * An audio of `category` assigned to `staff` whose transcript (`text`) `admin` approved and, unless
 * `recording` is false (none) or 'pending' (uploaded, not reviewed), whose recording too: a
 * completed task by default (dataset exports, decision 019).
 */
export async function approvedWork(
  h: TestHarness,
  admin: SessionUser,
  staff: SessionUser,
  opts: { category?: Category; recording?: true | false | "pending"; text?: string } = {},
) {
  const audio = await assignedAudio(h, admin, staff, { category: opts.category ?? "Control" });
  await h.caller(staff).transcripts.save({
    audioId: audio.id,
    text: opts.text ?? "Nilienda sokoni jana.\nHabari ya leo? Nzuri sana!",
  });
  await h.caller(admin).transcripts.approve({ audioId: audio.id });
  if (opts.recording !== false) {
    await uploadRecording(h.deps, staff, { audioId: audio.id, recordedBy: staff.id, file: await tempWav(h) });
    if (opts.recording !== "pending") await h.caller(admin).recordings.approve({ audioId: audio.id });
  }
  return audio;
}

/** Every file under the storage folder (temp files included), as relative paths, sorted. */
export async function listFiles(h: TestHarness): Promise<string[]> {
  const entries = await fs.readdir(h.filesDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(h.filesDir, path.join(e.parentPath, e.name)))
    .sort();
}

const TABLES = [
  "users",
  "audios",
  "tasks",
  "submissions",
  "transcriptVersions",
  "translatedRecordings",
  "comments",
  "notifications",
  "recommendations",
  "auditLog",
] as const;

/** Row counts of every table, the full rows of audios/tasks/submissions, and every stored file. */
export async function snapshot(h: TestHarness) {
  const db = h.deps.db;
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return {
    counts,
    audios: await db.selectFrom("audios").selectAll().orderBy("id").execute(),
    tasks: await db.selectFrom("tasks").selectAll().orderBy("id").execute(),
    submissions: await db.selectFrom("submissions").selectAll().orderBy("id").execute(),
    files: await listFiles(h),
  };
}

/** The task and submission of an audio as stored. */
export async function workState(h: TestHarness, audioId: string) {
  const task = await h.deps.db.selectFrom("tasks").selectAll().where("audioId", "=", audioId).executeTakeFirstOrThrow();
  const submission = await h.deps.db
    .selectFrom("submissions")
    .selectAll()
    .where("taskId", "=", task.id)
    .executeTakeFirst();
  return { task, submission };
}

/** Notification messages sent to `user` about `audioId`, oldest first. */
export async function notificationsFor(h: TestHarness, user: SessionUser, audioId: string) {
  return h.deps.db
    .selectFrom("notifications")
    .select(["message", "link", "audioId", "senderId", "isRead"])
    .where("recipientId", "=", user.id)
    .where("audioId", "=", audioId)
    .orderBy("createdAt")
    .execute();
}

/** Recommends the task of `audioId` to `staff` (the recommend screen is out of scope: a direct row). */
export async function recommend(h: TestHarness, audioId: string, staff: SessionUser, by: SessionUser) {
  const { task } = await workState(h, audioId);
  await h.deps.db
    .insertInto("recommendations")
    .values({ taskId: task.id, recommendedTo: staff.id, recommendedBy: by.id })
    .execute();
}

/** Creates a `role` user whose account is then deactivated (the returned SessionUser is as created). */
export async function inactiveUser(h: TestHarness, role: Role): Promise<SessionUser> {
  const user = await h.createUser(role);
  await h.deps.db.updateTable("users").set({ active: false }).where("id", "=", user.id).execute();
  return user;
}

/** createHarness() plus an admin and two active staff members, `staff` and `other`; the caller closes `h` in afterAll. */
export async function harnessWithUsers(): Promise<{
  h: TestHarness;
  admin: SessionUser;
  staff: SessionUser;
  other: SessionUser;
}> {
  const h = await createHarness();
  const admin = await h.createUser("Admin");
  const staff = await h.createUser("Staff");
  const other = await h.createUser("Staff");
  return { h, admin, staff, other };
}
