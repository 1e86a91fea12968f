import path from "node:path";
import { INITIAL_TRANSCRIPT_EXTENSIONS, type InitialTranscriptExtension } from "@tafsiri/domain";
import { fileTypeFromFile } from "file-type";

/**
 * The file-name and accepted-type rules of every upload (SPEC §5, §9), in one place: what an
 * audio's name is, which audio contents are accepted, which transcript files are.
 */

/** What an audio file's content says it is: the MIME type and the extension it is stored under. */
export interface AudioKind {
  mimeType: string;
  /** Lower-case, with the dot: ".mp3", ".wav", ".ogg" or ".flac". */
  extension: string;
}

/** Sniffed file-type extensions accepted as audio (SPEC §9: .mp3, .wav, .ogg, .flac); nothing else is. */
export const AUDIO_KINDS: Record<string, AudioKind> = {
  mp3: { mimeType: "audio/mpeg", extension: ".mp3" },
  wav: { mimeType: "audio/wav", extension: ".wav" },
  flac: { mimeType: "audio/flac", extension: ".flac" },
  ogg: { mimeType: "audio/ogg", extension: ".ogg" },
  oga: { mimeType: "audio/ogg", extension: ".ogg" },
  opus: { mimeType: "audio/ogg", extension: ".ogg" },
  spx: { mimeType: "audio/ogg", extension: ".ogg" },
};

/**
 * Sniffs an audio file from its content (file-type magic numbers); the file name's extension
 * plays no part. Returns null when the content is not MP3, WAV, Ogg audio or FLAC.
 */
export async function sniffAudio(file: string): Promise<AudioKind | null> {
  const sniffed = await fileTypeFromFile(file);
  return (sniffed && AUDIO_KINDS[sniffed.ext]) ?? null;
}

/** Initial transcript formats of SPEC §5 / §9 and CHAT (decision 035), by the file name's extension. */
const TRANSCRIPT_EXTENSIONS = INITIAL_TRANSCRIPT_EXTENSIONS;
export type TranscriptExtension = InitialTranscriptExtension;

/** The file-type each transcript extension's content must have; undefined means "no binary type" (plain text). */
const TRANSCRIPT_CONTENT: Record<TranscriptExtension, string | undefined> = {
  ".doc": "cfb",
  ".docx": "docx",
  ".pdf": "pdf",
  ".txt": undefined,
  ".cha": undefined,
};

/** The lower-case extension of a file name, with the dot ("" when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

/** Narrows a lower-case extension to a transcript extension, or null. */
export function transcriptExtension(ext: string): TranscriptExtension | null {
  return (TRANSCRIPT_EXTENSIONS as readonly string[]).includes(ext) ? (ext as TranscriptExtension) : null;
}

/**
 * True when a file's content matches its transcript extension: .docx is a Word (zip) document,
 * .doc a Word 97-2003 (compound file) document, .pdf a PDF, .txt has no binary signature.
 */
export async function contentMatchesExtension(file: string, ext: TranscriptExtension): Promise<boolean> {
  const sniffed = await fileTypeFromFile(file);
  return sniffed?.ext === TRANSCRIPT_CONTENT[ext];
}

/** Translated transcript files (SPEC §3: .cha, plain text). */
export const TRANSLATED_TRANSCRIPT_EXTENSIONS: readonly string[] = [".cha", ".txt"];

/**
 * The MIME types each audio upload accepts, as SPEC §5 lists them (plus FLAC, which §2.16 and §9
 * accept): an audio (AUDIO) and a translated recording (AUDIOTRANSLATION). The REST layer hands
 * over the type sniffed from the content (AUDIO_KINDS), so what a client claims plays no part.
 */
export const ACCEPTED_AUDIO_TYPES = {
  audio: ["audio/mpeg", "audio/wav", "audio/ogg", "audio/x-wav", "audio/mp3", "audio/flac", "audio/x-flac"],
  recording: ["audio/mpeg", "audio/wav", "audio/wave", "audio/x-wav", "audio/ogg", "audio/flac", "audio/x-flac"],
} as const satisfies Record<string, readonly string[]>;

/** True when `mimeType` is accepted for `upload` (ACCEPTED_AUDIO_TYPES). */
export function isAcceptedAudioType(upload: keyof typeof ACCEPTED_AUDIO_TYPES, mimeType: string): boolean {
  return (ACCEPTED_AUDIO_TYPES[upload] as readonly string[]).includes(mimeType);
}

/** SPEC §5: the audio filename is the uploaded file's name (without folders) up to its first dot. */
export function audioFilename(originalName: string): string {
  const base = path.posix.basename(originalName.replace(/\\/g, "/"));
  return base.split(".")[0]?.trim() ?? "";
}
