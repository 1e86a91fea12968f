/**
 * The audio files the web app accepts before it uploads them (SPEC §5, §9), for both the
 * management upload (§2.16) and the translated recording (§2.13).
 *
 * This mirrors the server's upload rules, which packages/api owns (packages/api/src/uploads/
 * file-rules.ts: audio is .mp3, .wav, .ogg or .flac, judged by the sniffed content). The server
 * has the last word; these lists only spare the user a doomed upload. The web app never imports
 * server code, so the rule is repeated here: change the two together.
 */

/** Allowed audio extensions (SPEC §9), lower case with the dot, and the MIME type each stands for. */
const AUDIO_EXTENSIONS: Record<string, string> = {
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
};

/**
 * The drop zone's `accept` for one uploaded audio (SPEC §2.16, §5 audio upload, plus flac and
 * wave from §9): each accepted MIME type with its extensions.
 */
export const AUDIO_ACCEPT: Record<string, string[]> = {
  "audio/mpeg": [".mp3"],
  "audio/mp3": [".mp3"],
  "audio/wav": [".wav"],
  "audio/wave": [".wav"],
  "audio/x-wav": [".wav"],
  "audio/ogg": [".ogg"],
  "audio/flac": [".flac"],
  "audio/x-flac": [".flac"],
};

/** SPEC §5: the accepted translated-recording types (MIME type → extensions) for the drop zone. */
export const RECORDING_ACCEPT: Record<string, string[]> = {
  "audio/mpeg": [".mp3"],
  "audio/wav": [".wav"],
  "audio/wave": [".wav"],
  "audio/x-wav": [".wav"],
  "audio/ogg": [".ogg"],
  "audio/flac": [".flac"],
};

/** The drop zone's `accept` for a zip archive (bulk upload). */
export const ZIP_ACCEPT: Record<string, string[]> = {
  "application/zip": [".zip"],
  "application/x-zip-compressed": [".zip"],
};

/** SPEC §8: the translated-recording form got no file. */
const NO_RECORDING_FILE = "Invalid file type. Please select an audio file.";
/** SPEC §8: the translated-recording form got a file that is not an accepted audio type. */
export const INVALID_RECORDING_FILE = "Invalid file type. Please select a valid audio file.";

/** The lower-case extension of a file name with its dot (".wav"), or "" when it has none. */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot).toLowerCase();
}

/** Whether a picked file has one of the accepted audio MIME types (SPEC §5). */
export function isAudioFile(file: File): boolean {
  return Object.hasOwn(AUDIO_ACCEPT, file.type);
}

/**
 * SPEC §5: of the dropped files only the first is used as the translated recording; it must be
 * one of the accepted recording types (by MIME type, or by extension when the browser gives no
 * type). Returns the file or the error text.
 */
export function pickRecordingFile(files: readonly File[]): { file: File } | { error: string } {
  const file = files[0];
  if (!file) return { error: NO_RECORDING_FILE };
  const typeOk = file.type
    ? Object.hasOwn(RECORDING_ACCEPT, file.type)
    : Object.hasOwn(AUDIO_EXTENSIONS, extensionOf(file.name));
  return typeOk ? { file } : { error: INVALID_RECORDING_FILE };
}

/** The last path segment of a zip entry name ("a/b/c.mp3" → "c.mp3"). */
function baseName(path: string): string {
  return path.split("/").pop() ?? path;
}

/** The MIME type for an audio file name by its extension, or null when it is not an allowed audio. */
export function audioMimeType(name: string): string | null {
  return AUDIO_EXTENSIONS[extensionOf(name)] ?? null;
}

/**
 * Reads a zip archive in the browser and returns its audio entries as Files named after each
 * entry's base name, typed by extension (SPEC §2.16, §5: names ending .mp3/.wav/.ogg/.flac,
 * case-insensitive). Folders, macOS metadata (__MACOSX/) and dot-files are ignored.
 * Rejects when the archive cannot be read.
 */
export async function audioFilesFromZip(zipFile: Blob): Promise<File[]> {
  // Loaded on first use, so the Upload page does not carry the unzipper until a bulk upload.
  const { default: JSZip } = await import("jszip");
  const zip = await JSZip.loadAsync(zipFile);
  const entries = Object.values(zip.files).filter((entry) => {
    if (entry.dir || entry.name.startsWith("__MACOSX/")) return false;
    const name = baseName(entry.name);
    return !name.startsWith(".") && audioMimeType(name) !== null;
  });
  const files: File[] = [];
  for (const entry of entries) {
    const name = baseName(entry.name);
    const blob = await entry.async("blob");
    files.push(new File([blob], name, { type: audioMimeType(name) ?? "" }));
  }
  return files;
}
