/** MIME types the single upload accepts (SPEC §5 audio upload, plus flac and wave from §9). */
export const AUDIO_MIME_TYPES = [
  "audio/mpeg",
  "audio/mp3",
  "audio/wav",
  "audio/wave",
  "audio/x-wav",
  "audio/ogg",
  "audio/flac",
  "audio/x-flac",
] as const;

/** Allowed audio extensions (SPEC §9), lower case with the dot. */
const AUDIO_EXTENSIONS: Record<string, string> = {
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".flac": "audio/flac",
};

/** The drop zone's `accept` for one audio file: each accepted MIME type with its extensions. */
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

/** The drop zone's `accept` for a zip archive (bulk upload). */
export const ZIP_ACCEPT: Record<string, string[]> = {
  "application/zip": [".zip"],
  "application/x-zip-compressed": [".zip"],
};

/** Whether a picked file has one of the accepted audio MIME types (SPEC §5). */
export function isAudioFile(file: File): boolean {
  return (AUDIO_MIME_TYPES as readonly string[]).includes(file.type);
}

/** The last path segment of a zip entry name ("a/b/c.mp3" → "c.mp3"). */
function baseName(path: string): string {
  return path.split("/").pop() ?? path;
}

/** The MIME type for an audio file name by its extension, or null when it is not an allowed audio. */
export function audioMimeType(name: string): string | null {
  const dot = name.lastIndexOf(".");
  if (dot < 0) return null;
  return AUDIO_EXTENSIONS[name.slice(dot).toLowerCase()] ?? null;
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
