import { readFile } from "node:fs/promises";
import type { Category } from "@tafsiri/db";
import { seedAudio } from "./seed";
import type { TestServer, TestUser } from "./server";
import { fixture } from "./steps";

/** What a task of the dataset-export test is made with. */
export interface TaskSetup {
  filename: string;
  category: Category;
  /** The translated transcript the staff member saves (one paragraph per line). */
  transcript: string;
}

/**
 * Uploads `fixtures/translated-recording.mp3` as `staff`'s translated recording of the audio,
 * through the REST upload the Translated Audio screen uses.
 */
export async function uploadRecording(server: TestServer, staff: TestUser, audioId: string): Promise<void> {
  const form = new FormData();
  form.append("audioId", audioId);
  form.append("recordedBy", staff.id);
  form.append(
    "file",
    new Blob([await readFile(fixture("translated-recording.mp3"))], { type: "audio/mpeg" }),
    "recording.mp3",
  );
  const res = await fetch(`${server.baseURL}/api/audios/upload/AUDIOTRANSLATION`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await server.harness.token(staff)}` },
    body: form,
  });
  if (!res.ok) throw new Error(`Recording upload failed: ${res.status} ${await res.text()}`);
}

/** Uploads `text` as the audio's initial transcript (a .txt file), as `admin`, through the REST upload. */
export async function uploadInitialTranscript(
  server: TestServer,
  admin: TestUser,
  audioId: string,
  text: string,
): Promise<void> {
  const form = new FormData();
  form.append("audioId", audioId);
  form.append("file", new Blob([text], { type: "text/plain" }), "initial.txt");
  const res = await fetch(`${server.baseURL}/api/audios/upload/INITIAL_TRANSCRIPT`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await server.harness.token(admin)}` },
    body: form,
  });
  if (!res.ok) throw new Error(`Initial transcript upload failed: ${res.status} ${await res.text()}`);
}

/**
 * The dataset export's test data (decision 019): the admin uploads `task.filename` (fixtures/single-control.wav) and
 * assigns it to `staff`, who saves `task.transcript` and uploads a translated recording; the admin
 * approves the transcript, and the recording too unless `recordingApproved` is false (then the
 * task is not completed). Through the real procedures and REST upload. Returns the audio's id.
 */
export async function finishTask(
  server: TestServer,
  admin: TestUser,
  staff: TestUser,
  task: TaskSetup,
  { recordingApproved = true }: { recordingApproved?: boolean } = {},
): Promise<string> {
  const audioId = await seedAudio(server, admin, { filename: task.filename, category: task.category, assignTo: staff });
  await server.harness.caller(staff).transcripts.save({ audioId, text: task.transcript });
  await uploadRecording(server, staff, audioId);
  const asAdmin = server.harness.caller(admin);
  await asAdmin.transcripts.approve({ audioId });
  if (recordingApproved) await asAdmin.recordings.approve({ audioId });
  return audioId;
}
