/**
 * The initial (source) transcript's file types: SPEC §2.18's .doc, .docx, .pdf and .txt, and
 * CHAT's .cha (decision 035), read by the server and offered by the upload dialogs.
 */
export const INITIAL_TRANSCRIPT_EXTENSIONS = [".cha", ".doc", ".docx", ".pdf", ".txt"] as const;
export type InitialTranscriptExtension = (typeof INITIAL_TRANSCRIPT_EXTENSIONS)[number];
/** The message for a file of another type. */
export const INITIAL_TRANSCRIPT_TYPE_REQUIRED = "Please select a .cha, .doc, .docx, .pdf or .txt file.";
/** The types as a file picker's accept map (MIME type → extensions). */
export const INITIAL_TRANSCRIPT_ACCEPT: Record<string, string[]> = {
  "application/msword": [".doc"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": [".docx"],
  "application/pdf": [".pdf"],
  "text/plain": [".txt", ".cha"],
};
