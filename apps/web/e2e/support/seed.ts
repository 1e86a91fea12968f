import { copyFile, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import type { Category } from "@tafsiri/db";
import { createAudio } from "@tafsiri/api/testing/services";
import type { TestServer, TestUser } from "./server";
import { fixture } from "./steps";

/**
 * Uploads an audio as `admin` (the fixture single-control.wav, stored under `filename`) through
 * the service the REST upload uses, and assigns it to `assignTo` when given (tasks.assign).
 * Returns the audio's id. For specs whose flow starts after the upload.
 */
export async function seedAudio(
  server: TestServer,
  admin: TestUser,
  audio: { filename: string; category?: Category; assignTo?: TestUser },
): Promise<string> {
  const { deps } = server.harness;
  const tempFile = deps.storage.tempPath();
  await mkdir(path.dirname(tempFile), { recursive: true });
  await copyFile(fixture("single-control.wav"), tempFile);
  const { size } = await stat(tempFile);
  const created = await createAudio(deps, admin, {
    filename: audio.filename,
    category: audio.category ?? "Control",
    file: { tempFile, mimeType: "audio/wav", extension: ".wav", sizeBytes: size },
  });
  if (audio.assignTo) {
    await server.harness.caller(admin).tasks.assign({ audioId: created.id, staffId: audio.assignTo.id });
  }
  return created.id;
}
