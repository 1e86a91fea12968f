/** SPEC §5: the accepted translated-recording types (MIME type → extensions) for the drop zone. */
export const RECORDING_ACCEPT: Record<string, string[]> = {
  "audio/mpeg": [".mp3"],
  "audio/wav": [".wav"],
  "audio/wave": [".wav"],
  "audio/x-wav": [".wav"],
  "audio/ogg": [".ogg"],
  "audio/flac": [".flac"],
};

export const NO_FILE_DROPPED = "Invalid file type. Please select an audio file.";
export const INVALID_FILE_TYPE = "Invalid file type. Please select a valid audio file.";

const EXTENSIONS = new Set(Object.values(RECORDING_ACCEPT).flat());

/**
 * SPEC §5: of the dropped files only the first is used; it must be one of the accepted audio types
 * (by MIME type, or by extension when the browser gives no type). Returns the file or the error text.
 */
export function pickRecordingFile(files: readonly File[]): { file: File } | { error: string } {
  const file = files[0];
  if (!file) return { error: NO_FILE_DROPPED };
  const dot = file.name.lastIndexOf(".");
  const extension = dot === -1 ? "" : file.name.slice(dot).toLowerCase();
  const typeOk = file.type ? file.type in RECORDING_ACCEPT : EXTENSIONS.has(extension);
  return typeOk ? { file } : { error: INVALID_FILE_TYPE };
}
