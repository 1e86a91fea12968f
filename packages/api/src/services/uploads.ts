import type { Category } from "@tafsiri/db";
import type { AppDeps, SessionUser } from "../context";
import { notImplemented } from "./not-implemented";

/** A file the REST layer has streamed to `storage.tempPath()` and sniffed. */
export interface TempUpload {
  /** Absolute path of the fully written temp file; the service adopts or deletes it. */
  tempFile: string;
  /** MIME type sniffed from the content (file-type), e.g. audio/mpeg. */
  mimeType: string;
  /** Lower-case extension with the dot, e.g. ".wav". */
  extension: string;
  sizeBytes: number;
}

/**
 * SPEC §2.16, §5: stores a new audio (admin only). `filename` is the uploaded name up to its first
 * dot and must be unique (CONFLICT '{filename} already exists.'). Moves the temp file into
 * storage before the row commits; on any failure removes it. Returns the new audio id and filename.
 */
export async function createAudio(
  _deps: AppDeps,
  _user: SessionUser,
  _input: { filename: string; category: Category; file: TempUpload },
): Promise<{ id: string; filename: string }> {
  return notImplemented();
}

/**
 * SPEC §2.18, §7.2 INITIAL_TRANSCRIPT: attaches an initial transcript's extracted plain text to
 * an audio (admin only), stored as a .txt file; replaces an earlier one.
 */
export async function attachInitialTranscript(
  _deps: AppDeps,
  _user: SessionUser,
  _input: { audioId: string; text: string },
): Promise<{ audioId: string }> {
  return notImplemented();
}

/**
 * SPEC §2.13, §4, §5 AUDIOTRANSLATION: stores a translated recording for an audio the caller may
 * work on, recorded by an active staff member `recordedBy`; sets Pending, creating the submission
 * first if needed; refused once Approved. Notifies admins in the same transaction.
 */
export async function uploadRecording(
  _deps: AppDeps,
  _user: SessionUser,
  _input: { audioId: string; recordedBy: string; file: TempUpload },
): Promise<{ status: string; message: string }> {
  return notImplemented();
}
