import path from "node:path";

/**
 * The Content-Type of each stored file's extension: audio under the extension uploads store it
 * with (SPEC §9: .mp3, .wav, .ogg, .flac; uploads/file-rules.ts AUDIO_KINDS), translated
 * transcripts (SPEC §3: .cha, plain text) as UTF-8 text, a dataset export (decision 019) as a zip.
 * Storage serves what uploads wrote, so it keeps its own table instead of importing the upload
 * rules; a test holds the two together.
 */
const STORED_CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".flac": "audio/flac",
  ".ogg": "audio/ogg",
  ".cha": "text/plain; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".zip": "application/zip",
};

/**
 * The Content-Type a stored file is served with, by its key's extension: audio as stored,
 * transcripts as UTF-8 text, a dataset export as a zip.
 */
export function storedContentType(key: string): string {
  return STORED_CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}
