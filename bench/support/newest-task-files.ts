import path from "node:path";
import { sql } from "kysely";
import { createLocalStorage } from "@tafsiri/api";
import type { Database } from "@tafsiri/db";
import { writeSeedFiles } from "./seed-files";

/**
 * Writes the files (bench/support/seed-files.ts: the audio, its initial transcript, transcript
 * versions and recordings) of the `perAssignee` newest tasks of each of `assigneeIds` (newest by
 * the task's creation, as the Tasks page orders them, so the first pages a staff member lists
 * have playable audios) under `<dataDir>/files`, as a server with that DATA_DIR stores them.
 * Resolves to the audios, files and bytes written.
 */
export async function writeNewestTaskFiles(
  db: Database,
  dataDir: string,
  assigneeIds: readonly string[],
  perAssignee: number,
): Promise<{ audios: number; files: number; bytes: number }> {
  const { rows } = await sql<{ audioId: string }>`
    select audio_id from (
      select audio_id, row_number() over (partition by assigned_to order by created_at desc, id desc) as k
      from tasks where assigned_to = any(${[...assigneeIds]}::uuid[])) newest
    where k <= ${perAssignee}`.execute(db);
  const audioIds = rows.map((r) => r.audioId);
  const written = await writeSeedFiles(db, createLocalStorage(path.join(dataDir, "files")), audioIds);
  return { audios: audioIds.length, ...written };
}
